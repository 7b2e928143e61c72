import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { test } from "node:test";
import {
	detectInterrupted,
	isOwnerAlive,
	ownerProcess,
	processStartMarker,
	RunStore,
	resumeRun,
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
