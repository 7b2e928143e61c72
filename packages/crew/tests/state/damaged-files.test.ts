import assert from "node:assert/strict";
import { appendFile, cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { RunStateError, RunStore, SchemaVersionError } from "../../src/state/index.ts";
import { runInput, tempWorkspace } from "./support/temp-workspace.ts";

async function storeWithRun(t: Parameters<typeof tempWorkspace>[0]) {
	const store = await RunStore.open(await tempWorkspace(t));
	const { manifest } = await store.createRun(runInput());
	return { store, runId: manifest.runId, files: store.files(manifest.runId) };
}

test("a half-written tasks.json is reported with its file name and left byte-for-byte unchanged", async (t) => {
	const { store, runId, files } = await storeWithRun(t);
	const whole = await readFile(files.tasks, "utf8");
	const half = whole.slice(0, Math.floor(whole.length / 2));
	await writeFile(files.tasks, half);
	const manifestBefore = await readFile(files.manifest);
	const eventsBefore = await readFile(files.events);

	await assert.rejects(store.readRun(runId), (error: unknown) => {
		assert.ok(error instanceof RunStateError);
		assert.equal(error.file, files.tasks);
		assert.match(error.message, /tasks\.json: is not valid JSON .*left unchanged/);
		return true;
	});
	await assert.rejects(store.updateTask(runId, "plan", { status: "running" }), /tasks\.json: is not valid JSON/);
	await assert.rejects(store.updateManifest(runId, { status: "running" }), /tasks\.json: is not valid JSON/);
	const [listing] = await store.listRuns();
	assert.equal(listing?.runId, runId);
	assert.match(String(listing?.error?.message), /tasks\.json/);
	assert.equal(listing?.manifest?.runId, runId, "the readable manifest is still listed");

	assert.equal(await readFile(files.tasks, "utf8"), half);
	assert.deepEqual(await readFile(files.manifest), manifestBefore);
	assert.deepEqual(await readFile(files.events), eventsBefore);
});

test("a garbage manifest and a wrongly typed field are reported by file and field, never rewritten", async (t) => {
	const { store, runId, files } = await storeWithRun(t);
	await writeFile(files.manifest, "\u0000\u0001 garbage {");
	await assert.rejects(store.readManifest(runId), /manifest\.json: is not valid JSON/);
	assert.equal(await readFile(files.manifest, "utf8"), "\u0000\u0001 garbage {");

	const { store: store2, runId: runId2, files: files2 } = await storeWithRun(t);
	const manifest = JSON.parse(await readFile(files2.manifest, "utf8"));
	const edited = `${JSON.stringify({ ...manifest, status: "paused" }, null, 2)}\n`;
	await writeFile(files2.manifest, edited);
	await assert.rejects(store2.updateManifest(runId2, { status: "running" }), (error: unknown) => {
		assert.ok(error instanceof RunStateError);
		assert.equal(error.field, "status");
		assert.match(
			error.message,
			/manifest\.json: field "status": expected one of pending, running, done, failed, cancelled, interrupted, got "paused"/,
		);
		return true;
	});
	assert.equal(await readFile(files2.manifest, "utf8"), edited);

	const tasks = JSON.parse(await readFile(files2.tasks, "utf8"));
	tasks.tasks[1].dependsOn = ["ghost"];
	await writeFile(files2.tasks, JSON.stringify(tasks));
	await writeFile(files2.manifest, `${JSON.stringify(manifest)}\n`);
	await assert.rejects(store2.readRun(runId2), /tasks\.json: field "tasks\[1\]\.dependsOn\[0\]": unknown task "ghost"/);
});

test("an agent name shaped like a path in tasks.json is damage, never a file name", async (t) => {
	const { store, runId, files } = await storeWithRun(t);
	const tasks = JSON.parse(await readFile(files.tasks, "utf8"));
	tasks.tasks[0].agent = "../../../../outside";
	const forged = JSON.stringify(tasks);
	await writeFile(files.tasks, forged);
	await assert.rejects(store.readRun(runId), (error: unknown) => {
		assert.ok(error instanceof RunStateError);
		assert.equal(error.field, "tasks[0].agent");
		assert.match(error.message, /field "tasks\[0\]\.agent": .*use 1-64 lower-case letters/);
		return true;
	});
	assert.equal(await readFile(files.tasks, "utf8"), forged, "left as it was");
});

test("a missing manifest and a directory not named like a run are listed with an error", async (t) => {
	const { store, runId, files } = await storeWithRun(t);
	await writeFile(files.manifest, "");
	await mkdir(join(store.runsDir, "my-notes"));
	const listings = await store.listRuns({ ownerSessionId: "someone-else" });
	assert.deepEqual(
		listings.map((l) => [l.runId, /empty \(half-written\?\)|not named like a run id/.test(String(l.error?.message))]),
		[
			[runId, true],
			["my-notes", true],
		],
	);
});

test("a newer schema version is refused, for reads and updates, and the file is kept", async (t) => {
	const { store, runId, files } = await storeWithRun(t);
	const manifest = JSON.parse(await readFile(files.manifest, "utf8"));
	const newer = JSON.stringify({ ...manifest, schemaVersion: 2, somethingNew: true });
	await writeFile(files.manifest, newer);
	await assert.rejects(store.readRun(runId), (error: unknown) => {
		assert.ok(error instanceof SchemaVersionError);
		assert.equal(error.found, 2);
		assert.match(
			error.message,
			/manifest\.json: field "schemaVersion": schema version 2 is newer than this pi-crew understands \(1\)/,
		);
		return true;
	});
	await assert.rejects(store.updateManifest(runId, { status: "running" }), SchemaVersionError);
	assert.equal(await readFile(files.manifest, "utf8"), newer);

	const { store: store2, runId: runId2, files: files2 } = await storeWithRun(t);
	await appendFile(
		files2.events,
		`${JSON.stringify({ schemaVersion: 3, time: new Date().toISOString(), type: "x" })}\n`,
	);
	await assert.rejects(store2.readEvents(runId2), /events\.jsonl:2: field "schemaVersion": schema version 3/);
});

test("a torn last events line is reported and skipped; later appends stay intact and nothing is truncated", async (t) => {
	const { store, runId, files } = await storeWithRun(t);
	await store.appendEvent(runId, { type: "agent.output", data: { n: 1 } });
	const torn = '{"schemaVersion":1,"time":"2025-01-01T00:00:00.000Z","type":"agent.ou';
	await appendFile(files.events, torn);
	const before = await readFile(files.events, "utf8");

	const log = await store.readEvents(runId);
	assert.equal(log.events.length, 2);
	assert.equal(log.problems.length, 1);
	assert.equal(log.problems[0]?.line, 3);
	assert.equal(log.problems[0]?.torn, true);
	assert.match(log.problems[0]?.message ?? "", /incomplete/);
	assert.equal(await readFile(files.events, "utf8"), before, "reading changes nothing");

	await store.appendEvent(runId, { type: "agent.output", data: { n: 2 } });
	const after = await readFile(files.events, "utf8");
	assert.ok(after.startsWith(before), "existing bytes are kept");
	const again = await store.readEvents(runId);
	assert.deepEqual(
		again.events.map((e) => e.data?.n ?? e.type),
		["run.created", 1, 2],
	);
	assert.deepEqual(
		again.problems.map((p) => [p.line, p.torn]),
		[[3, false]],
	);
});

test("a run directory copied from another workspace is refused, naming the field", async (t) => {
	const { store, runId } = await storeWithRun(t);
	const elsewhere = await RunStore.open(await tempWorkspace(t, "crew-elsewhere-"));
	await cp(store.files(runId).dir, elsewhere.files(runId).dir, { recursive: true });
	await assert.rejects(
		elsewhere.readRun(runId),
		/manifest\.json: field "cwd": belongs to workspace .* \(was the run directory moved or copied\?\)/,
	);
	await assert.rejects(elsewhere.updateManifest(runId, { status: "running" }), /field "cwd"/);
	assert.equal((await elsewhere.listRuns())[0]?.error instanceof RunStateError, true);
});
