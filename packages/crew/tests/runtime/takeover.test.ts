import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { until } from "../extension/support/crew-world.ts";
import { CATALOG, crewFixture, eventWaiter, team, waitFor } from "./support/crew-fixture.ts";

test("a forced resume-agent of an ended session's agent makes the caller's session the run's owner", async (t) => {
	const fx = await crewFixture(t);
	const gate = join(fx.root, "gate");
	await fx.script({ "TAKEN-TASK": [waitFor(gate), "done for the new session"] });
	const ended = fx.runtime();
	const a = { cwd: fx.ws, sessionId: "a" };
	const b = { cwd: fx.ws, sessionId: "b" };
	const working = await eventWaiter(ended, a, (e) => e.type === "agent.tool");
	const solo = team("solo", [{ id: "only", instructions: "TAKEN-TASK" }]);
	const { manifest } = await ended.startRun({ ...a, team: solo, goal: "Change hands", catalog: CATALOG });
	const runId = manifest.runId;
	const agentId = (await working.event).agentId as string;
	const stopped = await ended.agentOperation("stop-agent", { ...a, agentId });
	assert.equal(stopped.isError, false, stopped.text);
	await ended.shutdown(); // session a ends

	// Session b of the same process (the registry is the process's) takes the agent over.
	const runtime = fx.runtime({ registry: ended.registry });
	const ends = await eventWaiter(runtime, b, (e) => e.type === "run.status" && e.data?.status === "done");
	await writeFile(gate, "open\n");
	const resumed = await runtime.agentOperation("resume-agent", { ...b, agentId, force: true });
	assert.equal(resumed.isError, false, resumed.text);
	assert.deepEqual(
		(await runtime.list(b)).map((l) => [l.runId, l.manifest?.ownerSessionId]),
		[[runId, "b"]],
		"b lists the run without force",
	);
	await until(() => runtime.registry.get(agentId)?.status === "running", "the resumed agent running");
	assert.equal(runtime.registry.get(agentId)?.ownerSessionId, "b", "the agent is b's");
	assert.deepEqual(
		(await runtime.overview(b)).agents.map((agent) => agent.agentId),
		[agentId],
		"b's widget shows the agent",
	);
	assert.deepEqual(resumed.details.takenOverFrom, { sessionId: "a", pid: process.pid });
	assert.match(resumed.text, /Forced: taken over from session a \(process \d+\), whose session had ended/);
	assert.equal((await ends.event).runId, runId, "b hears that the run ended");
	const done = await runtime.waitForRun({ ...b, runId });
	assert.equal(done.tasks[0]?.result, "done for the new session");
});
