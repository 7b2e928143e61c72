// Words for the person (issue 33 items 5, 7, 8): what `/team` shows speaks of flags and short ids, events read as
// lines with relative times, a finished or failed run is announced, and its chat message has a label of its own.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runMessageComponent } from "../../src/extension/run-message.ts";
import { eventLine } from "../../src/extension/run-text.ts";
import { agoText, commandRunText, runEndNotice, shortAgentId, shortRunId } from "../../src/extension/run-words.ts";
import { commandWords, parseTeamCommand, TEAM_SUBCOMMANDS, teamHelpText } from "../../src/extension/team-command.ts";
import type { RunEvent } from "../../src/state/index.ts";

const RUN = "20250101-000000-000-0000abcd";
const NOW = Date.parse("2025-01-01T00:00:12Z");

describe("words for the person", () => {
	it("short ids and relative times", () => {
		assert.equal(shortRunId(RUN), "0000abcd");
		assert.equal(shortAgentId(`${RUN}:build`), "0000abcd:build");
		assert.equal(agoText("2025-01-01T00:00:00Z", NOW), "12 s ago");
		assert.equal(agoText("2024-12-31T22:00:00Z", NOW), "2 h 0 min ago");
	});

	it("events read as lines, not JSON", () => {
		const event = {
			time: "2025-01-01T00:00:00Z",
			type: "task.status",
			taskId: "build",
			data: { status: "done", files: ["a.ts", "b.ts"] },
		} as unknown as RunEvent;
		assert.equal(eventLine(event, NOW), "12 s ago: task status build (status done, files a.ts, b.ts)");
		assert.doesNotMatch(eventLine(event, NOW), /[{}"]/);
	});

	it("the command speaks of --force, the tool of force", () => {
		assert.equal(
			commandWords(`Run ${RUN} belongs to another session of workspace /w; pass force to see it.`),
			`Run ${RUN} belongs to another session of workspace /w; add --force to see it.`,
		);
		assert.equal(
			commandWords("[another session: s, ended; force takes it over]"),
			"[another session: s, ended; --force takes it over]",
		);
	});

	it("a started run is told to the person with what happens next, not the model's next call", () => {
		const text = commandRunText("run", {
			text: 'Follow it with team {action: "status"}',
			details: { runId: RUN, team: "pair", workspaceMode: "single", agents: [`${RUN}:first`, `${RUN}:second`] },
		});
		assert.equal(
			text,
			"Started run 0000abcd of team pair (single mode) with tasks first, second. The widget shows its progress and you are told when it ends; /team status 0000abcd shows the details.",
		);
	});

	it("/team alone is help; teams is a subcommand", () => {
		assert.equal(parseTeamCommand("  ").sub, "help");
		assert.equal(parseTeamCommand("teams").sub, "teams");
		const help = teamHelpText();
		for (const sub of Object.keys(TEAM_SUBCOMMANDS)) assert.match(help, new RegExp(`/team ${sub}\\b`));
	});

	it("a run's end is announced by its outcome", () => {
		const tasks = [{ status: "done" }, { status: "failed" }];
		const failed = runEndNotice({ runId: RUN, team: "pair", status: "failed", error: "build\nbroke" }, tasks);
		assert.equal(failed.type, "error");
		assert.match(failed.text, /^pi-crew: run 0000abcd \(pair\) failed: build broke \(1\/2 tasks done\)/);
		const done = runEndNotice({ runId: RUN, team: "pair", status: "done" }, [{ status: "done" }]);
		assert.deepEqual(done, {
			type: "info",
			text: "pi-crew: run 0000abcd (pair) finished: 1/1 tasks done. /team status 0000abcd shows the results.",
		});
		assert.equal(runEndNotice({ runId: RUN, team: "p\u001b]0;x\u0007", status: "interrupted" }, []).type, "warning");
		assert.ok(!runEndNotice({ runId: RUN, team: "p\u001b]0;x\u0007", status: "done" }, []).text.includes("\u001b"));
	});

	it("a run message has a label of its own and is cut until expanded", () => {
		const theme = { fg: (c: string, t: string) => `<${c}>${t}`, bold: (t: string) => t };
		const content = ["Run x of team pair is done.", ...Array.from({ length: 20 }, (_, i) => `line ${i}`)].join("\n");
		const message = { content, details: { runs: [{ runId: RUN, status: "done" }] } };
		const short = runMessageComponent(message, { expanded: false, outputPad: 0 }, theme).render(200);
		assert.match(short[0] ?? "", /<success>crew run 0000abcd done/);
		assert.ok(short.some((line) => line.includes("13 more lines")));
		const long = runMessageComponent(message, { expanded: true, outputPad: 0 }, theme).render(200);
		assert.ok(long.some((line) => line.includes("line 19")));
		assert.ok(!long.join("").includes("[pi-crew-run]"));
	});
});
