import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, it, type TestContext } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { runEndedText, runStatusText } from "../../src/extension/run-text.ts";
import {
	type CrewRuntime,
	endedProcessesOf,
	endedProcessesText,
	isProcessRunning,
	processesWithEnvironment,
} from "../../src/runtime/index.ts";
import { busy, CATALOG, type CrewFixture, crewFixture, team, treeRunning } from "./support/crew-fixture.ts";
import { assertEnded, assertNamed, leaveBehind, leftPids } from "./support/leftover-agent.ts";

/**
 * Resolves once the agent of `agentId` runs `command` in its next bash call: the call that left processes behind
 * has returned, so they are no longer below the agent (whose own tree is ended with it anyway).
 */
async function nextCallRunning(runtime: CrewRuntime, agentId: string, command: string): Promise<number> {
	const pid = runtime.registry.get(agentId)?.pid as number;
	await treeRunning(pid, command);
	return pid;
}

/**
 * Processes the runs must not touch: a `sleep 300` whose environment names the same workspace and task but another
 * run, and one without any crew identity. Ended when the test ends.
 */
function bystanders(t: TestContext, fx: CrewFixture, taskId: string): number[] {
	const ids = { PI_CREW_WORKSPACE: fx.ws, PI_CREW_RUN_ID: "20200101-000000-000-00000000", PI_CREW_TASK_ID: taskId };
	const pids = [{ ...fx.env, ...ids }, fx.env].map((env) => {
		const child = spawn("sleep", ["300"], { env, stdio: "ignore", detached: true });
		child.unref();
		return child.pid as number;
	});
	t.after(() => {
		for (const pid of pids) {
			try {
				process.kill(pid, "SIGKILL");
			} catch {
				// Ended already: the assertions that it lives have failed.
			}
		}
	});
	return pids;
}

/** True when `out-<tag>.txt` no longer grows: the loop that wrote it is gone. */
async function stoppedGrowing(fx: CrewFixture, tag: string): Promise<boolean> {
	const file = join(fx.ws, `out-${tag}.txt`);
	const before = statSync(file).size;
	await sleep(800);
	return statSync(file).size === before;
}

/** Starts a run of one task `id` in the fixture's workspace, for session s1. */
function startOne(runtime: CrewRuntime, ws: string, id: string, instructions: string) {
	const steps = [{ id, instructions }];
	return runtime.startRun({ cwd: ws, sessionId: "s1", team: team(id, steps), goal: `Run ${id}`, catalog: CATALOG });
}

async function eventsOf(runtime: CrewRuntime, fx: CrewFixture, runId: string) {
	return (await runtime.status({ cwd: fx.ws, sessionId: "s1", runId })).events;
}

describe("processes an agent leaves running are ended with it", { concurrency: true }, () => {
	it("when the run is done: the run's report names them, other runs' and unrelated processes live on", async (t) => {
		const fx = await crewFixture(t);
		const others = bystanders(t, fx, "left");
		await fx.script({ "LEAVE-DONE": [leaveBehind("done"), "finished, with company"] });
		const runtime = fx.runtime();
		const scope = { cwd: fx.ws, sessionId: "s1" };
		const { manifest } = await startOne(runtime, fx.ws, "left", "LEAVE-DONE");
		const run = await runtime.waitForRun({ ...scope, runId: manifest.runId });
		assert.equal(run.manifest.status, "done", run.manifest.error);
		const pids = await leftPids(t, fx.ws, "done");
		await assertEnded(pids, "done");
		assert.equal(await stoppedGrowing(fx, "done"), true, "nothing writes to the workspace any more");
		for (const pid of others) assert.equal(await isProcessRunning(pid), true, `bystander ${pid} lives`);
		assert.deepEqual(await processesWithEnvironment([`PI_CREW_RUN_ID=${manifest.runId}`]), []);

		const ended = endedProcessesOf(run.tasks[0]?.meta);
		assert.deepEqual(
			ended
				.map((p) => p.pid)
				.filter((pid) => Object.values(pids).includes(pid))
				.sort(),
			[...Object.values(pids)].sort(),
		);
		assertNamed(runEndedText(run), pids);
		const events = await eventsOf(runtime, fx, manifest.runId);
		const event = events.find((e) => e.type === "agent.leftovers-ended");
		assert.equal(event?.taskId, "left");
		assert.equal(event?.data?.count, ended.length);
	});

	it("when stop-agent ends one agent (the other task's keep running) and when the run is cancelled", async (t) => {
		const fx = await crewFixture(t);
		const others = bystanders(t, fx, "a");
		await fx.script({ "LEAVE-A": [leaveBehind("a"), busy(29)], "LEAVE-B": [leaveBehind("b"), busy(29)] });
		const runtime = fx.runtime();
		const scope = { cwd: fx.ws, sessionId: "s1" };
		const { manifest } = await runtime.startRun({
			...scope,
			team: team(
				"pair",
				[
					{ id: "a", instructions: "LEAVE-A" },
					{ id: "b", instructions: "LEAVE-B" },
				],
				2,
			),
			goal: "Leave processes behind twice",
			catalog: CATALOG,
		});
		const a = await leftPids(t, fx.ws, "a");
		const b = await leftPids(t, fx.ws, "b");
		await nextCallRunning(runtime, `${manifest.runId}:a`, "sleep 29");
		await nextCallRunning(runtime, `${manifest.runId}:b`, "sleep 29");

		const stop = await runtime.agentOperation("stop-agent", { ...scope, agentId: `${manifest.runId}:a` });
		assert.equal(stop.isError, false, stop.text);
		await assertEnded(a, "stop-agent");
		assert.equal(await stoppedGrowing(fx, "a"), true);
		for (const pid of Object.values(b)) assert.equal(await isProcessRunning(pid), true, "task b's are not a's");
		assertNamed(stop.text, a);
		assert.ok(!stop.text.includes(`pid ${b.loop} `), stop.text);

		const cancelled = await runtime.cancel({ ...scope, runId: manifest.runId });
		assert.equal(cancelled.manifest.status, "cancelled");
		await assertEnded(b, "cancel");
		assert.equal(await stoppedGrowing(fx, "b"), true);
		const named = cancelled.endedProcesses.map((p) => p.pid);
		assert.ok(named.includes(b.loop) && named.includes(b.nohup), `cancel names ${named.join(", ")}`);
		assert.ok(!named.includes(a.loop), "what stop-agent ended is not reported again");
		for (const pid of others) assert.equal(await isProcessRunning(pid), true, `bystander ${pid} lives`);
		const report = runStatusText(await runtime.status({ ...scope, runId: manifest.runId }));
		assertNamed(report, b);
	});

	it("when the session shuts down: the run is interrupted and its status names them", async (t) => {
		const fx = await crewFixture(t);
		const others = bystanders(t, fx, "down");
		await fx.script({ "LEAVE-DOWN": [leaveBehind("down"), busy(29)] });
		const runtime = fx.runtime();
		const scope = { cwd: fx.ws, sessionId: "s1" };
		const { manifest } = await startOne(runtime, fx.ws, "down", "LEAVE-DOWN");
		const down = await leftPids(t, fx.ws, "down");
		await nextCallRunning(runtime, `${manifest.runId}:down`, "sleep 29");
		await runtime.shutdown();
		await assertEnded(down, "shutdown");
		assert.equal(await stoppedGrowing(fx, "down"), true);
		for (const pid of others) assert.equal(await isProcessRunning(pid), true, `bystander ${pid} lives`);
		const after = fx.runtime();
		const status = await after.status({ ...scope, runId: manifest.runId });
		assert.equal(status.manifest.status, "interrupted");
		assertNamed(runStatusText(status), down);
		assert.ok(status.events.some((e) => e.type === "agent.leftovers-ended" && e.taskId === "down"));
	});

	it("when an agent is killed: its bash tool's command and what it detached", async (t) => {
		const fx = await crewFixture(t);
		await fx.script({ "LEAVE-KILLED": [leaveBehind("killed"), busy(31)] });
		const runtime = fx.runtime();
		const scope = { cwd: fx.ws, sessionId: "s1" };
		const { manifest } = await startOne(runtime, fx.ws, "killed", "LEAVE-KILLED");
		const killed = await leftPids(t, fx.ws, "killed");
		const agentPid = await nextCallRunning(runtime, `${manifest.runId}:killed`, "sleep 31");
		// The bash tool runs its command in a session of its own: killing the agent alone leaves it running.
		const tool = (await treeRunning(agentPid, "sleep 31")).filter((pid) => pid !== agentPid);
		process.kill(agentPid, "SIGKILL");
		const run = await runtime.waitForRun({ ...scope, runId: manifest.runId });
		await assertEnded(killed, "killed agent");
		for (const pid of tool) assert.equal(await isProcessRunning(pid), false, `its bash tool's ${pid} was ended`);
		assertNamed(runEndedText(run), killed);
		assert.match(runEndedText(run), /`sleep 31`/);
	});
});

describe("the report of ended processes", () => {
	it("counts them, names ten, escapes what a hand-edited tasks.json holds, and skips malformed entries", () => {
		const meta = {
			endedProcesses: [
				{ pid: 7, command: "printf '\u001b]52;c;cGF5bG9hZA==\u0007'" },
				{ pid: "8", command: "not a pid" },
				null,
				...Array.from({ length: 11 }, (_, i) => ({ pid: 100 + i, command: `sleep ${i}` })),
			],
		};
		const ended = endedProcessesOf(meta);
		assert.deepEqual(
			ended.map((p) => p.pid),
			[7, ...Array.from({ length: 11 }, (_, i) => 100 + i)],
		);
		const text = endedProcessesText(ended);
		assert.match(
			text,
			/^Ended 12 processes left running by its agent: pid 7 `printf '\\u001b\]52;c;cGF5bG9hZA==\\u0007'`, /,
		);
		assert.match(text, /pid 108 `sleep 8` and 2 more$/);
		// biome-ignore lint/suspicious/noControlCharactersInRegex: no raw control character may reach a person
		assert.doesNotMatch(text, /[\u0000-\u001f]/);
		assert.equal(
			endedProcessesText([{ pid: 9, command: "sleep 1" }], "its agents"),
			"Ended 1 process left running by its agents: pid 9 `sleep 1`",
		);
		assert.equal(endedProcessesText([]), "");
		assert.deepEqual(endedProcessesOf(undefined), []);
		assert.deepEqual(endedProcessesOf({ endedProcesses: "pid 1" }), []);
	});
});
