// Force takeover through the real Pi host (in process, scripted coordinators; sub-agents are real `pi --mode rpc`
// children): a session that ended leaves runs with stopped agents; a new session lists them marked as another
// session's, cancels one with `/team cancel --force` and resumes the other's agent with a forced resume-agent. Each
// answer says it was forced and whose run it was, and the resumed run is the new session's from then on: it lists
// it, its widget shows the agent, and it is told when the run ends.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { cleanupTempDirs, type PiHost, startHost, tempDir } from "../../../../test/e2e/harness.ts";
import { commandText } from "../../../../test/e2e/support/workspaces.ts";
import {
	CREW_EXTENSION,
	type CrewWorld,
	crewWorld,
	readRun,
	team,
	until,
	widget,
	writeDefinitions,
} from "./support/crew-world.ts";

let world: CrewWorld;
const hosts: PiHost[] = [];

before(async () => {
	world = await crewWorld(await tempDir("crew-takeover-"));
});

after(async () => {
	await Promise.all(hosts.map((h) => h.dispose().catch(() => {})));
	await cleanupTempDirs();
});

async function host(cwd: string): Promise<PiHost> {
	const started = await startHost({ cwd, extensions: [CREW_EXTENSION] });
	hosts.push(started);
	return started;
}

const told = (h: PiHost): string[] =>
	h
		.entries()
		.filter((e) => e.type === "custom_message" && e.customType === "pi-crew-run")
		.map((e) => JSON.stringify(e));

describe("force takeover", () => {
	it("is said in every answer and moves the run to the new session: list, widget and run-end message", async () => {
		const ws = join(world.root, "ws");
		const solo = (marker: string) =>
			`roles:\n  - { role: w, agent: worker }\nworkflow:\n  - { id: only, role: w, instructions: ${marker} }`;
		await writeDefinitions(ws, { keep: solo("KEEP-TASK"), drop: solo("DROP-TASK") });
		await world.route("KEEP-TASK", [world.gate("keep"), "kept and done by the new session"]);
		await world.route("DROP-TASK", [world.gate("drop"), "never reached"]);

		const first = await host(ws);
		const started = await first.runTools([
			{ name: "team", arguments: { action: "run", team: "keep", goal: "Keep goal" } },
			{ name: "team", arguments: { action: "run", team: "drop", goal: "Drop goal" } },
		]);
		const [keepRun, dropRun] = started.toolResults.map((r) => (r.details as { runId: string }).runId);
		assert.ok(keepRun && dropRun, started.toolResults.map((r) => r.text).join("\n"));
		await until(
			() => world.requests("KEEP-TASK").length > 0 && world.requests("DROP-TASK").length > 0,
			"both agents at their gates",
		);
		for (const runId of [keepRun, dropRun]) {
			const stopped = await team(first, { action: "stop-agent", agentId: `${runId}:only` });
			assert.equal(stopped.isError, false, stopped.text);
		}
		const previous = String((await readRun(ws, keepRun)).manifest.ownerSessionId);
		await first.dispose(); // the session ends: its runs are orphaned, and force may take them over

		const second = await host(ws);
		assert.match((await team(second, { action: "list" })).text, /^No runs of this session/);
		const listed = await team(second, { action: "list", force: true });
		for (const runId of [keepRun, dropRun]) {
			const line = listed.text.split("\n").find((l) => l.startsWith(runId)) ?? "";
			assert.match(line, new RegExp(`\\[another session: ${previous}, ended; force takes it over\\]$`), listed.text);
		}

		const cancelled = await commandText(second, `/team cancel ${dropRun} --force`);
		assert.equal(
			cancelled,
			`Cancelled run ${dropRun}. Forced: taken over from session ${previous} (process ${process.pid}), whose session had ended; this session owns it now.`,
		);

		await world.open("keep");
		const agentId = `${keepRun}:only`;
		const resumed = await team(second, {
			action: "resume-agent",
			agentId,
			message: "RESUMED-BY-SECOND: carry on",
			force: true,
		});
		assert.equal(resumed.isError, false, resumed.text);
		assert.match(
			resumed.text,
			new RegExp(`^Resumed agent '${agentId}' from its session\\. Forced: taken over from session ${previous} `),
		);
		assert.equal((await readRun(ws, keepRun)).manifest.ownerSessionId, second.session.sessionId);
		// Without force from now on: the run and its agent are the second session's own.
		const own = await team(second, { action: "list" });
		assert.match(own.text, new RegExp(`^${keepRun}  `, "m"), own.text);
		assert.doesNotMatch(own.text, /another session/);
		await until(
			() => widget(second)?.some((line) => line.includes(agentId)),
			"the new session's widget shows the agent",
		);
		await until(async () => {
			await second.prompt("anything new?");
			return told(second).some((t) => t.includes(`${keepRun} of team keep is done`));
		}, "the new session is told that the run ended");
		const done = await readRun(ws, keepRun);
		assert.equal(done.tasks[0]?.result, "kept and done by the new session");
	});
});
