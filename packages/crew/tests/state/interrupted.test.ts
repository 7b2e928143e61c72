import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { test } from "node:test";
import {
	cancelRun,
	claimOf,
	detectInterrupted,
	isOwnerAlive,
	newOwner,
	ownerProcess,
	processStartMarker,
	RunStore,
	RunTakenError,
	resumeRun,
	retriedTasks,
	retryRun,
} from "../../src/state/index.ts";
import { runInput, tempWorkspace } from "./support/temp-workspace.ts";

const HAS_PROC = existsSync("/proc/self/stat");

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
	const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
	await once(child, "exit");
	assert.ok(child.pid);
	return child.pid;
}

async function runningRun(store: RunStore, overrides: Parameters<typeof runInput>[1] = {}) {
	const { manifest } = await store.createRun(runInput("session-a", overrides));
	await store.updateManifest(manifest.runId, { status: "running" });
	await store.updateTask(manifest.runId, "plan", { status: "running" });
	await store.updateTask(manifest.runId, "plan", { status: "done" });
	await store.updateTask(manifest.runId, "implement", { status: "running" });
	return manifest.runId;
}

test("a run whose owner process died is marked interrupted, with its running task and an event", async (t) => {
	const store = await RunStore.open(await tempWorkspace(t));
	const pid = await deadPid();
	const runId = await runningRun(store, { ownerPid: pid, ownerStart: null });
	const marked = await detectInterrupted(store);
	assert.deepEqual(marked, [{ runId, ownerSessionId: "session-a", tasks: ["implement"] }]);
	const run = await store.readRun(runId);
	assert.equal(run.manifest.status, "interrupted");
	assert.deepEqual(
		run.tasks.map((task) => task.status),
		["done", "interrupted", "pending"],
	);
	const events = (await store.readEvents(runId)).events;
	const interrupted = events.find((e) => e.type === "run.interrupted");
	assert.equal(interrupted?.data?.ownerPid, pid);
	assert.deepEqual(await detectInterrupted(store), [], "a second pass finds nothing new");
});

test("a run whose owner is alive is left alone", async (t) => {
	const store = await RunStore.open(await tempWorkspace(t));
	const runId = await runningRun(store); // owned by this process, with its real start marker
	assert.deepEqual(await detectInterrupted(store), []);
	assert.equal((await store.readManifest(runId)).status, "running");
	assert.equal(await isOwnerAlive(await ownerProcess()), true);
});

test("a live pid with another start marker is a reused pid: the owner is dead", {
	skip: !HAS_PROC && "no /proc",
}, async (t) => {
	const store = await RunStore.open(await tempWorkspace(t));
	const marker = await processStartMarker(process.pid);
	assert.ok(marker);
	const runId = await runningRun(store, { ownerPid: process.pid, ownerStart: `${marker}0` });
	const marked = await detectInterrupted(store);
	assert.deepEqual(
		marked.map((m) => m.runId),
		[runId],
	);
});

test("an owner on another host counts as alive; a custom liveness check is honoured", async (t) => {
	assert.equal(await isOwnerAlive({ pid: await deadPid(), start: null, host: `${hostname()}-elsewhere` }), true);
	const store = await RunStore.open(await tempWorkspace(t));
	const runId = await runningRun(store);
	const seen: number[] = [];
	const marked = await detectInterrupted(store, (owner) => {
		seen.push(owner.pid);
		return false;
	});
	assert.deepEqual(seen, [process.pid]);
	assert.deepEqual(
		marked.map((m) => m.runId),
		[runId],
	);
});

test("resume continues an interrupted run under the new owner; only interrupted runs resume", async (t) => {
	const store = await RunStore.open(await tempWorkspace(t));
	const runId = await runningRun(store, { ownerPid: await deadPid(), ownerStart: null });
	await assert.rejects(resumeRun(store, runId, { ownerSessionId: "session-b" }), /is running; only an interrupted run/);
	await detectInterrupted(store);
	const resumed = await resumeRun(store, runId, { ownerSessionId: "session-b" });
	assert.equal(resumed.manifest.status, "running");
	assert.equal(resumed.manifest.ownerSessionId, "session-b");
	assert.equal(resumed.manifest.ownerPid, process.pid);
	assert.equal(resumed.manifest.ownerStart, await processStartMarker(process.pid));
	assert.deepEqual(
		resumed.tasks.map((task) => [task.id, task.status, task.attempts]),
		[
			["plan", "done", 1],
			["implement", "pending", 1],
			["review", "pending", 0],
		],
	);
	assert.deepEqual(await store.readRun(runId), resumed);
	const last = (await store.readEvents(runId)).events.at(-1);
	assert.equal(last?.type, "run.resumed");
	assert.deepEqual(last?.data?.tasks, ["implement"]);
	assert.deepEqual(
		(await store.listRuns({ ownerSessionId: "session-b" })).map((l) => l.runId),
		[runId],
	);
	assert.deepEqual(await detectInterrupted(store), [], "the new owner (this process) is alive");
});

test("resume, cancel and retry change a run only while it has the owner the caller's check saw", async (t) => {
	const store = await RunStore.open(await tempWorkspace(t));
	const { manifest } = await store.createRun(runInput("ended", { ownerPid: await deadPid() }));
	const runId = manifest.runId;
	await store.updateManifest(runId, { status: "interrupted" });
	// Both callers checked the run against its ended owner; the resume wins the lock first.
	const seen = claimOf(await store.readManifest(runId));
	await resumeRun(store, runId, { ownerSessionId: "resumer" }, seen);
	const before = await store.readRun(runId);
	await assert.rejects(cancelRun(store, runId, seen, await newOwner("canceller")), (error: unknown) => {
		assert.ok(error instanceof RunTakenError);
		assert.match(
			error.message,
			/was taken over by session resumer \(process \d+\) after this request found it with session ended; it was not cancelled/,
		);
		return true;
	});
	await assert.rejects(retryRun(store, runId, undefined, seen, await newOwner("x")), RunTakenError);
	await assert.rejects(resumeRun(store, runId, { ownerSessionId: "y" }, seen), RunTakenError);
	assert.deepEqual(await store.readRun(runId), before, "nothing changed");
	// With the current owner the change goes through, and the canceller owns the cancelled run.
	const cancelled = await cancelRun(store, runId, claimOf(before.manifest), await newOwner("canceller"));
	assert.deepEqual([cancelled.manifest.status, cancelled.manifest.ownerSessionId], ["cancelled", "canceller"]);
	assert.ok(cancelled.tasks.every((task) => task.status === "cancelled"));
	await assert.rejects(
		cancelRun(store, runId, claimOf(cancelled.manifest), await newOwner("canceller")),
		/Run \S+ is already cancelled\./,
	);
});

test("retry picks the failed task, its failed dependents and interrupted tasks; never one that could not start", () => {
	const task = (id: string, status: string, dependsOn: string[] = []) =>
		({ id, status, dependsOn }) as unknown as Parameters<typeof retriedTasks>[1][number];
	const tasks = [
		task("a", "failed"),
		task("b", "failed", ["a"]),
		task("c", "failed", ["b"]),
		task("d", "done"),
		task("e", "interrupted", ["d"]),
		task("f", "failed", ["d"]),
	];
	assert.deepEqual([...retriedTasks("R", tasks, "a")].sort(), ["a", "b", "c", "e"]);
	assert.deepEqual([...retriedTasks("R", tasks, undefined)].sort(), ["a", "b", "c", "e", "f"]);
	assert.throws(() => retriedTasks("R", tasks, "b"), /Task b of run R depends on a, which is failed; retry a/);
	assert.throws(() => retriedTasks("R", tasks, "d"), /Task d of run R is done; only a failed task can be retried/);
	assert.throws(() => retriedTasks("R", [task("d", "done")], undefined), /Run R has no failed task to retry/);
});
