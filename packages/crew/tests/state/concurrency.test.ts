import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, readFile, utimes } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { LOCK_NAME, RunStore } from "../../src/state/index.ts";
import { runInput, tempWorkspace } from "./support/temp-workspace.ts";

const HAMMER = fileURLToPath(new URL("./support/hammer.ts", import.meta.url));
const run = promisify(execFile);

async function assertConsistent(store: RunStore, runId: string, expected: number): Promise<void> {
	const files = store.files(runId);
	// Every file is whole, valid JSON after the storm.
	JSON.parse(await readFile(files.manifest, "utf8"));
	JSON.parse(await readFile(files.tasks, "utf8"));
	const snapshot = await store.readRun(runId);
	assert.equal(snapshot.manifest.meta?.counter, expected, "no manifest update was lost");
	assert.equal(snapshot.tasks[0]?.meta?.counter, expected, "no task update was lost");
	const log = await store.readEvents(runId);
	assert.deepEqual(log.problems, []);
	assert.equal(log.events.filter((e) => e.type === "hammer.tick").length, expected, "no event was lost");
}

test("two processes updating one run lose no event and no update, and leave valid JSON", async (t) => {
	const root = await tempWorkspace(t);
	const store = await RunStore.open(root);
	const { manifest } = await store.createRun(runInput());
	const count = 25;
	// process.execPath is the Node running this test (Node 22 under `npx node`).
	await Promise.all(
		["left", "right"].map((label) => run(process.execPath, [HAMMER, root, manifest.runId, label, String(count)])),
	);
	await assertConsistent(store, manifest.runId, 2 * count);
	const ticks = (await store.readEvents(manifest.runId)).events.filter((e) => e.type === "hammer.tick");
	for (const label of ["left", "right"]) {
		const mine = ticks.filter((e) => e.data?.label === label).map((e) => e.data?.i);
		assert.deepEqual(mine, [...Array(count).keys()], `${label}'s events are all there, in its order`);
	}
});

test("many parallel updates from one process are serialized without loss", async (t) => {
	const store = await RunStore.open(await tempWorkspace(t));
	const { manifest } = await store.createRun(runInput());
	const count = 40;
	await Promise.all(
		[...Array(count).keys()].flatMap((i) => [
			store.appendEvent(manifest.runId, { type: "hammer.tick", data: { i } }),
			store.updateManifest(manifest.runId, (m) => ({ meta: { counter: Number(m.meta?.counter ?? 0) + 1 } })),
			store.updateTask(manifest.runId, "plan", (task) => ({ meta: { counter: Number(task.meta?.counter ?? 0) + 1 } })),
		]),
	);
	await assertConsistent(store, manifest.runId, count);
});

test("a stale lock left by a crashed process is taken over", async (t) => {
	const store = await RunStore.open(await tempWorkspace(t));
	const { manifest } = await store.createRun(runInput());
	const lock = join(store.files(manifest.runId).dir, LOCK_NAME);
	await mkdir(lock);
	const longAgo = new Date(Date.now() - 60_000);
	await utimes(lock, longAgo, longAgo);
	const updated = await store.updateManifest(manifest.runId, { status: "running" });
	assert.equal(updated.status, "running");
});
