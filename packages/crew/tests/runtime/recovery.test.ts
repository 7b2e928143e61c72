import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { CONTINUE_PROMPT, isProcessRunning } from "../../src/runtime/index.ts";
import { busy, crewFixture, detached, runningWith, treeRunning } from "./support/crew-fixture.ts";

const COORDINATOR = fileURLToPath(new URL("./support/coordinator.ts", import.meta.url));

test("a run whose coordinator was killed is marked interrupted, its agent and what it detached ended, and resume completes it", async (t) => {
	const fx = await crewFixture(t);
	await fx.script({ "CRASH-ME": [detached(31), busy(30)] });
	const sessionId = "s1";
	const coordinator = spawn(
		process.execPath,
		[COORDINATOR, JSON.stringify({ ws: fx.ws, sessionId, instructions: "CRASH-ME" })],
		{ env: fx.env, stdio: ["ignore", "pipe", "pipe"] },
	);
	let stderr = "";
	coordinator.stderr.on("data", (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	const exited = once(coordinator, "exit");
	t.after(() => coordinator.kill("SIGKILL"));
	const ready = await new Promise<{ runId: string; agentId: string; pid: number }>((resolve, reject) => {
		let out = "";
		coordinator.stdout.on("data", (chunk: Buffer) => {
			out += chunk.toString();
			const line = out.split("\n").find((l) => l.startsWith("{"));
			if (line) resolve(JSON.parse(line));
		});
		void exited.then(() => reject(new Error(`the coordinator exited early:\n${stderr}`)));
	});
	const tree = [ready.pid, ...(await treeRunning(ready.pid, "sleep 30"))];
	// Started by the agent in a session of its own, so not below it: only the run's environment says whose it is.
	const loose = await runningWith(`PI_CREW_RUN_ID=${ready.runId}`, "sleep 31");
	assert.equal(loose.length, 1, "the detached sleep runs");
	t.after(() => {
		for (const pid of loose) {
			try {
				process.kill(pid, "SIGKILL");
			} catch {
				// Ended already, as it should be.
			}
		}
	});
	tree.push(...loose);
	coordinator.kill("SIGKILL");
	await exited;

	const runtime = fx.runtime();
	const scope = { cwd: fx.ws, sessionId };
	assert.deepEqual(
		await runtime.recoverInterrupted({ ...scope, sessionId: "someone-else" }),
		[],
		"other sessions get nothing",
	);
	const status = await runtime.status({ ...scope, runId: ready.runId });
	assert.equal(status.manifest.status, "interrupted");
	assert.equal(status.tasks[0]?.status, "interrupted");
	assert.deepEqual(await runtime.recoverInterrupted(scope), [], "marked once");
	for (const pid of tree) assert.equal(await isProcessRunning(pid), false, `left-over process ${pid} was ended`);
	const swept = status.events.find((e) => e.type === "run.leftovers-ended")?.data?.processes;
	assert.deepEqual(swept, [{ pid: loose[0], command: "sleep 31" }], "the run's events name what was ended");

	await fx.script({ "CRASH-ME": ["recovered and done"] });
	const resumed = await runtime.resume({ ...scope, runId: ready.runId });
	assert.equal(resumed.manifest.status, "running");
	assert.equal(resumed.manifest.ownerPid, process.pid);
	const run = await runtime.waitForRun({ ...scope, runId: ready.runId });
	assert.equal(run.manifest.status, "done", run.manifest.error);
	assert.equal(run.tasks[0]?.result, "recovered and done");
	const requests = fx.requests().filter((r) => r.route === "CRASH-ME");
	assert.equal(requests.length, 3, "two turns before the crash, one after");
	assert.match(requests[2]?.firstUser ?? "", /CRASH-ME/, "the resumed agent continues its session");
	assert.equal(requests[2]?.lastUser, CONTINUE_PROMPT);
});
