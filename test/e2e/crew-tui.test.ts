// pi-crew in the real interactive `pi` TUI (issue 33), driven under tmux like a person at an 80-column terminal:
// `/team` alone shows help, two successive `/team` reports both stay in the chat, completion after `/team run ` offers
// the workspace's teams (not "run" again), a run's widget line fits the width, and a finished run is announced. The scripted agent waits at a gate, so the widget is seen while the
// run works. Optional: PI_CREW_TUI_PANE names a file to write the pane with the widget to.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { CREW_EXTENSION, crewWorld, writeDefinitions } from "../../packages/crew/tests/extension/support/crew-world.ts";
import { cleanupTempDirs, tempDir } from "./harness.ts";
import { piEnv } from "./support/pi-cli.ts";
import { hasTmux, interactivePi, Tmux } from "./support/tmux.ts";

const WIDTH = 80;
/** The screen with every run of whitespace as one space: text the pane wrapped reads whole again. */
const flat = (screen: string) => screen.replace(/\s+/g, " ");
const GOAL = "Rewrite the login flow so that every session token is rotated on each request";

after(async () => {
	await cleanupTempDirs();
});

describe("pi-crew in the interactive TUI", { skip: hasTmux ? false : "tmux is not installed" }, () => {
	it("shows help, completes team names, fits the widget to 80 columns and announces a finished run", {
		timeout: 240_000,
	}, async () => {
		const root = await tempDir("pi-crew-tui-");
		const world = await crewWorld(root);
		const ws = join(root, "ws");
		await writeDefinitions(ws, {
			solo: "roles:\n  - { role: w, agent: worker }\nworkflow:\n  - { id: only, role: w, instructions: TUI-TASK }",
		});
		await world.route("TUI-TASK", [world.gate("tui"), "done in the TUI"]);
		const tmux = new Tmux(root);
		try {
			tmux.start(
				ws,
				{ ...piEnv(world.agentDir, { ...world.env }), TERM: "xterm-256color" },
				interactivePi([CREW_EXTENSION], join(root, "sessions")),
			);
			await tmux.until((s) => s.includes("pi-faux") || s.includes("scripted"), "the TUI to start");
			await tmux.until((s) => s.includes("crew: no active runs"), "crew's footer item while idle");

			tmux.keys("/team", "Enter");
			await tmux.until((s) => s.includes("/team: teams of sub-agents"), "/team alone to show help");

			// Two reports in a row: the first stays in the chat (a notification would be replaced by the second). The space
			// after the subcommand ends its completion, so Enter runs the command.
			tmux.keys("-l", "/team teams ");
			tmux.keys("Enter");
			await tmux.until((s) => s.includes("- solo (single): test team solo"), "/team teams");
			tmux.keys("-l", "/team list ");
			tmux.keys("Enter");
			const listed = await tmux.until((s) => flat(s).includes("No runs of this session in workspace"), "/team list");
			assert.ok(listed.includes("- solo (single): test team solo"), `the teams report is still on screen:\n${listed}`);

			// Pi lists argument completions as one types; Tab would take the first.
			tmux.keys("-l", "/team run ");
			const completion = await tmux.until(
				(s) => /solo\s+single: test team solo/.test(s),
				"completion to offer the team solo",
			);
			assert.doesNotMatch(completion, /→ run\b/, "not the subcommand again");
			// The line holds `/team run ` still: the rest is typed after it (no Escape first: an Escape just before a key
			// reads as Alt and eats it). After `solo ` there is nothing to complete, so Enter runs the command.
			tmux.keys("-l", `solo ${GOAL}`);
			tmux.keys("Enter");
			const running = await tmux.until(
				(s) =>
					/^crew [0-9a-f]{8} · solo · running/m.test(s) &&
					/^ {2}only · running/m.test(s) &&
					flat(s).includes("Started run "),
				"the widget of the run and the command's confirmation",
			);
			// The footer item counts the run while it works, and says so once it is done.
			await tmux.until((s) => s.includes("crew: 1 run working"), "the footer item of the working run");
			const runLine = running.split("\n").find((l) => l.startsWith("crew ")) ?? "";
			// The command's confirmation is a report of the chat too, with the run's short id.
			const shortId = /^crew ([0-9a-f]{8})/.exec(runLine)?.[1];
			assert.ok(flat(running).includes(`Started run ${shortId} of team solo`), running);
			assert.ok(runLine.length <= WIDTH, `the run line fits ${WIDTH} columns: ${runLine}`);
			// Not wrapped: the line under it is the agent's, not the rest of the goal.
			const lines = running.split("\n");
			assert.match(lines[lines.indexOf(runLine) + 1] ?? "", /^ {2}only · running/, running);
			// For the README's screenshot: the pane as text, rendered to PNG by hand (packages/crew/docs/).
			if (process.env.PI_CREW_TUI_PANE) writeFileSync(process.env.PI_CREW_TUI_PANE, running.trimEnd());

			await world.open("tui");
			await tmux.until((s) => /pi-crew: run [0-9a-f]{8} \(solo\) finished/.test(s), "the finished run announced");
			await tmux.until((s) => !/^crew [0-9a-f]{8} · solo/m.test(s), "the widget cleared");
			await tmux.until((s) => s.includes("crew: no active runs"), "the footer item once the run is done");
		} finally {
			tmux.kill();
		}
	});
});
