import assert from "node:assert/strict";
import { cp, readdir, readFile, realpath, rm, symlink } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { IllegalTransitionError, isRunId, RunStore, SCHEMA_VERSION } from "../../src/state/index.ts";
import { CHAIN, runInput, tempWorkspace } from "./support/temp-workspace.ts";

test("create, read, list and update round trip through the files on disk", async (t) => {
	const root = await tempWorkspace(t);
	const store = await RunStore.open(root);
	const created = await store.createRun(runInput("session-a", { workspaceMode: "worktree", meta: { note: 1 } }));
	const { runId } = created.manifest;
	assert.ok(isRunId(runId), runId);
	assert.equal(created.manifest.status, "pending");
	assert.equal(created.manifest.workspaceMode, "worktree");
	assert.equal(created.manifest.ownerPid, process.pid);
	assert.deepEqual(
		created.tasks.map((task) => [task.id, task.status, task.dependsOn]),
		[
			["plan", "pending", []],
			["implement", "pending", ["plan"]],
			["review", "pending", ["implement"]],
		],
	);

	const dir = join(root, ".pi", "crew", "runs", runId);
	assert.deepEqual((await readdir(dir)).sort(), ["events.jsonl", "manifest.json", "tasks.json"]);
	const manifestOnDisk = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8"));
	assert.equal(manifestOnDisk.schemaVersion, SCHEMA_VERSION);
	assert.equal(JSON.parse(await readFile(join(dir, "tasks.json"), "utf8")).schemaVersion, SCHEMA_VERSION);
	assert.equal(await readFile(join(root, ".pi", "crew", "runs", ".gitignore"), "utf8"), "*\n");

	const reopened = await RunStore.open(root);
	assert.deepEqual(await reopened.readRun(runId), created);

	const running = await store.updateManifest(runId, { status: "running", meta: { note: null, extra: "x" } });
	assert.equal(running.status, "running");
	assert.ok(running.startedAt);
	assert.deepEqual(running.meta, { extra: "x" });
	const task = await store.updateTask(runId, "plan", { status: "running" });
	assert.equal(task.attempts, 1);
	const finished = await store.updateTask(runId, "plan", (current) => ({
		status: "done",
		result: `ok after ${current.attempts}`,
	}));
	assert.equal(finished.result, "ok after 1");
	assert.ok(finished.finishedAt);
	await store.appendEvent(runId, { type: "agent.output", taskId: "plan", data: { text: "hello" } });

	const run = await reopened.readRun(runId);
	assert.equal(run.manifest.status, "running");
	assert.equal(run.tasks[0]?.status, "done");
	const log = await reopened.readEvents(runId);
	assert.deepEqual(log.problems, []);
	assert.deepEqual(
		log.events.map((e) => e.type),
		["run.created", "run.status", "task.status", "task.status", "agent.output"],
	);
	assert.deepEqual(log.events[1]?.data, { from: "pending", to: "running" });

	const listed = await reopened.listRuns();
	assert.equal(listed.length, 1);
	assert.equal(listed[0]?.manifest?.runId, runId);
	assert.equal(listed[0]?.error, undefined);
});

test("cwd is the canonical workspace root: a symlink alias stores the real path", async (t) => {
	const real = await realpath(await tempWorkspace(t));
	const alias = join(await tempWorkspace(t, "crew-alias-"), "link");
	await symlink(real, alias);
	const store = await RunStore.open(alias);
	assert.equal(store.root, real);
	const { manifest } = await store.createRun(runInput("s", { cwd: alias }));
	assert.equal(manifest.cwd, real);
	const onDisk = JSON.parse(await readFile(join(real, ".pi/crew/runs", manifest.runId, "manifest.json"), "utf8"));
	assert.equal(onDisk.cwd, real);
});

test("cwd is set once: creation refuses another workspace and updates cannot change it", async (t) => {
	const store = await RunStore.open(await tempWorkspace(t));
	const other = await tempWorkspace(t, "crew-other-");
	await assert.rejects(store.createRun(runInput("s", { cwd: other })), /field "cwd".*not this store's workspace root/);
	const { manifest } = await store.createRun(runInput("s"));
	const patch = { cwd: other } as unknown as Parameters<RunStore["updateManifest"]>[1];
	await assert.rejects(
		store.updateManifest(manifest.runId, patch),
		/field "cwd" cannot be updated \(the workspace root is set once/,
	);
	const sneaky = { ownerSessionId: "thief" } as unknown as Parameters<RunStore["updateManifest"]>[1];
	await assert.rejects(store.updateManifest(manifest.runId, sneaky), /field "ownerSessionId" cannot be updated/);
	assert.equal((await store.readManifest(manifest.runId)).cwd, store.root);
	assert.equal((await store.readManifest(manifest.runId)).ownerSessionId, "s");
});

test("listRuns filters by owner session and by status", async (t) => {
	const store = await RunStore.open(await tempWorkspace(t));
	const a = await store.createRun(runInput("session-a"));
	const b = await store.createRun(runInput("session-b"));
	await store.updateManifest(b.manifest.runId, { status: "running" });
	assert.deepEqual(
		(await store.listRuns({ ownerSessionId: "session-a" })).map((l) => l.runId),
		[a.manifest.runId],
	);
	assert.deepEqual(
		(await store.listRuns({ status: ["running"] })).map((l) => l.runId),
		[b.manifest.runId],
	);
	assert.equal((await store.listRuns()).length, 2);
});

test("illegal status transitions are refused with a clear error and change nothing", async (t) => {
	const store = await RunStore.open(await tempWorkspace(t));
	const { manifest } = await store.createRun(runInput());
	await store.updateManifest(manifest.runId, { status: "running" });
	await store.updateManifest(manifest.runId, { status: "done" });
	await assert.rejects(store.updateManifest(manifest.runId, { status: "running" }), (error: unknown) => {
		assert.ok(error instanceof IllegalTransitionError);
		assert.match(
			error.message,
			/cannot change status from "done" to "running" \(allowed from "done": none, it is final\)/,
		);
		return true;
	});
	await assert.rejects(store.updateTask(manifest.runId, "plan", { status: "done" }), /from "pending" to "done"/);
	const run = await store.readRun(manifest.runId);
	assert.equal(run.manifest.status, "done");
	assert.equal(run.tasks[0]?.status, "pending");
	assert.equal((await store.readEvents(manifest.runId)).events.length, 3);
});

test("bad input is refused: unknown task, path-like run id, bad task graph, unknown event type", async (t) => {
	const store = await RunStore.open(await tempWorkspace(t));
	const { manifest } = await store.createRun(runInput());
	await assert.rejects(
		store.updateTask(manifest.runId, "nope", { status: "running" }),
		/has no task "nope"; its tasks: plan, implement, review/,
	);
	await assert.rejects(store.readRun("../../etc"), /not a run id/);
	await assert.rejects(
		store.createRun(runInput("s", { tasks: [...CHAIN, { id: "plan", role: "x", agent: "y" }] })),
		/field "tasks\[3\]\.id": duplicate task id "plan"/,
	);
	await assert.rejects(
		store.createRun(
			runInput("s", {
				tasks: [
					{ id: "a", role: "r", agent: "x", dependsOn: ["b"] },
					{ id: "b", role: "r", agent: "x", dependsOn: ["a"] },
				],
			}),
		),
		/dependency cycle: a -> b -> a/,
	);
	await assert.rejects(
		store.createRun(runInput("s", { tasks: [{ id: "Bad Id", role: "r", agent: "x" }] })),
		/field "tasks\[0\]\.id"/,
	);
	await assert.rejects(store.createRun(runInput("s", { tasks: [] })), /at least one task/);
	await assert.rejects(store.createRun(runInput("")), /field "ownerSessionId": must not be empty/);
	await assert.rejects(store.appendEvent(manifest.runId, { type: "Not A Type" }), /field "type"/);
	assert.equal((await store.listRuns()).length, 1);
});

test("a run folder that is a symbolic link (to a copy of a run outside the workspace) is neither read nor written", async (t) => {
	const root = await realpath(await tempWorkspace(t));
	const outside = await realpath(await tempWorkspace(t, "crew-outside-"));
	const store = await RunStore.open(root);
	const { manifest } = await store.createRun(runInput());
	const { runId } = manifest;
	const runDir = join(root, ".pi", "crew", "runs", runId);
	const copy = join(outside, runId);
	await cp(runDir, copy, { recursive: true });
	await rm(runDir, { recursive: true });
	await symlink(copy, runDir);
	const before = await readFile(join(copy, "manifest.json"), "utf8");
	const refusal = new RegExp(`${runDir}: is a symbolic link; pi-crew keeps run state only in real folders`);
	await assert.rejects(store.readRun(runId), refusal);
	await assert.rejects(store.readEvents(runId), refusal);
	await assert.rejects(store.updateManifest(runId, { status: "running" }), refusal);
	await assert.rejects(store.appendEvent(runId, { type: "agent.output" }), refusal);
	assert.equal(await readFile(join(copy, "manifest.json"), "utf8"), before, "the linked run was not written");
	assert.deepEqual((await readdir(copy)).sort(), ["events.jsonl", "manifest.json", "tasks.json"], "no lock made there");
});
