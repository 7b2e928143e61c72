// Terminal escape sequences (OSC title and clipboard, a C1 CSI, a bidi override) in a goal, an agent's result, task
// ids and file names reach no surface raw: the widget, /team status, /team list, /team cleanup, the run message to
// the session, tool answers and errors, and the crew CLI (text and JSON). The real Pi host with the scripted
// coordinator, a real `pi --mode rpc` sub-agent and a real Git worktree.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { cleanupTempDirs, type PiHost, startHost, tempDir } from "../../../../test/e2e/harness.ts";
import { commandText, gitRepo } from "../../../../test/e2e/support/workspaces.ts";
import { RunStore } from "../../src/state/index.ts";
import { createTaskWorktree } from "../../src/worktree/index.ts";
import {
	CREW_CLI,
	CREW_EXTENSION,
	type CrewWorld,
	crewWorld,
	readRun,
	team,
	until,
	widgetHistory,
	writeDefinitions,
} from "./support/crew-world.ts";

/** A title change, a clipboard write, a C1 control sequence introducer and a right-to-left override. */
const EVIL = "T\x1b]0;pwned\x07C\x1b]52;c;cHduZWQ=\x07S\u009b31mR\u202eX";
/** How each part must read once escaped. */
const ESCAPED = ["\\u001b]0;pwned\\u0007", "\\u001b]52;c;cHduZWQ=\\u0007", "\\u009b31m", "\\u202e"];
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters that must never be shown raw
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

let world: CrewWorld;
let ws: string;
let host: PiHost;

before(async () => {
	world = await crewWorld(await tempDir("crew-escape-"));
	ws = gitRepo(join(world.root, "repo"), { "a.ts": "export const a = 1;\n" }, { commit: true });
	await writeDefinitions(ws, {
		evil: "roles:\n  - { role: w, agent: worker }\nworkflow:\n  - { id: only, role: w, instructions: EVIL-TASK }",
		// A task id with the sequences: refused, and the refusal quotes it.
		badid: 'roles:\n  - { role: w, agent: worker }\nworkflow:\n  - { id: "\\e]0;pwned\\a\\x9b\\u202e", role: w }',
	});
	host = await startHost({ cwd: ws, extensions: [CREW_EXTENSION] });
});

after(async () => {
	await host.dispose();
	await cleanupTempDirs();
});

/** `text` holds no raw control, C1 or bidi character (newlines are layout), and shows `parts` escaped. */
function escaped(text: string, what: string, parts: readonly string[] = ESCAPED): void {
	assert.doesNotMatch(text, RAW, `${what} shows a raw control character: ${JSON.stringify(text)}`);
	for (const part of parts) assert.ok(text.includes(part), `${what} lacks ${part}: ${JSON.stringify(text)}`);
}

function crew(args: string[]): Promise<{ code: number; out: string; err: string }> {
	return new Promise((done) => {
		execFile(process.execPath, [CREW_CLI, ...args], { cwd: ws, encoding: "utf8" }, (error, out, err) => {
			done({ code: error ? Number(error.code) : 0, out, err });
		});
	});
}

describe("escape sequences are shown escaped everywhere", () => {
	it("in a goal and a result: widget, tool answers, /team status and list, the run message, the CLI", async () => {
		await world.route("EVIL-TASK", [world.gate("evil"), `Result ${EVIL}\n\tindented line`]);
		const started = await team(host, { action: "run", team: "evil", goal: EVIL });
		assert.equal(started.isError, false, started.text);
		const runId = started.details.runId as string;
		await until(() => widgetHistory(host).some((line) => line.includes(ESCAPED[0] as string)), "the widget line");
		for (const line of widgetHistory(host)) escaped(line, "a widget line", []);
		escaped(widgetHistory(host).join("\n"), "the widget", ESCAPED.slice(0, 2));

		await world.open("evil");
		await until(async () => (await readRun(ws, runId)).manifest.status === "done", "the run done");
		assert.equal((await readRun(ws, runId)).tasks[0]?.result, `Result ${EVIL}\n\tindented line`, "stored as is");
		escaped((await team(host, { action: "status", runId })).text, "the status tool answer");
		escaped(await commandText(host, `/team status ${runId}`), "/team status");
		escaped(await commandText(host, "/team list"), "/team list", ESCAPED.slice(0, 1));
		escaped((await team(host, { action: "list" })).text, "the list tool answer", ESCAPED.slice(0, 1));
		const told = await until(async () => {
			await host.prompt("anything new?");
			const messages = host
				.entries()
				.filter((e) => e.type === "custom_message" && e.customType === "pi-crew-run")
				.map((e) => String((e as { content?: unknown }).content));
			return messages.find((m) => m.includes(runId));
		}, "the run message");
		escaped(told, "the run message");
		assert.match(told, /\n {2}indented line/, "a tab in a report is layout: two spaces");

		const list = await crew(["list"]);
		assert.equal(list.code, 0, list.err);
		escaped(list.out, "crew list", ESCAPED.slice(0, 1));
		const status = await crew(["status", runId]);
		escaped(status.out, "crew status");
		const json = await crew(["status", runId, "--json"]);
		assert.doesNotMatch(json.out, RAW, "crew status --json");
		const parsed = JSON.parse(json.out) as { goal: string; tasks: { result: string }[] };
		assert.equal(parsed.goal, EVIL, "the JSON still holds the exact goal");
		assert.equal(parsed.tasks[0]?.result, `Result ${EVIL}\n\tindented line`);
	});

	it("in task ids, agent ids, run ids and paths quoted by errors", async () => {
		const badId = ["\\u009b", "\\u202e"];
		escaped((await team(host, { action: "teams" })).text, "the teams answer", badId);
		const refusedRun = await team(host, { action: "run", team: "badid", goal: "g" });
		assert.equal(refusedRun.isError, true);
		escaped(refusedRun.text, "a refused task id", badId);
		const steer = await team(host, { action: "steer-agent", agentId: EVIL, message: "m" });
		assert.equal(steer.isError, true);
		escaped(steer.text, "an unknown agent id");
		const status = await team(host, { action: "status", runId: EVIL });
		assert.equal(status.isError, true);
		escaped(status.text, "a bad run id", ESCAPED.slice(2));
		const root = await team(host, { action: "list", root: join(world.root, EVIL) });
		assert.equal(root.isError, true);
		escaped(root.text, "a bad root");
		const command = await host.command(`/team status ${EVIL}`);
		escaped(command.notifications.map((n) => n.message).join("\n"), "/team status of a bad id", ESCAPED.slice(2));
		const cli = await crew(["status", EVIL]);
		assert.equal(cli.code, 2);
		escaped(cli.err, "crew status of a bad id", ESCAPED.slice(2));
	});

	it("in file names: /team cleanup and crew cleanup", async () => {
		const store = await RunStore.open(ws);
		const { manifest } = await store.createRun({
			ownerSessionId: host.sessionId(),
			team: "t",
			goal: "files",
			workspaceMode: "worktree",
			tasks: [{ id: "w", role: "w", agent: "worker" }],
		});
		await store.updateManifest(manifest.runId, { status: "cancelled" });
		const wt = await createTaskWorktree({ cwd: ws, runId: manifest.runId, taskId: "w" });
		writeFileSync(join(wt.path, `f${EVIL}.txt`), "work\n");
		const kept = await commandText(host, `/team cleanup ${manifest.runId}`);
		assert.match(kept, /uncommitted: f/);
		escaped(kept, "/team cleanup");
		const cli = await crew(["cleanup", manifest.runId]);
		escaped(cli.out, "crew cleanup");
	});
});
