import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type TestContext, test } from "node:test";
import {
	CrewRuntime,
	DepthLimitError,
	descendantPids,
	endOrphanedAgents,
	isProcessRunning,
	killProcessTree,
	type LiveAgentControl,
	type LiveAgentHandle,
	LiveAgentRegistry,
	resolvePiCommand,
	runLiveAgentOperation,
} from "../../src/runtime/index.ts";
import { processStartMarker, RunStore, runsDirOf } from "../../src/state/index.ts";
import { CATALOG, team } from "./support/crew-fixture.ts";

async function tempDir(t: TestContext): Promise<string> {
	const dir = await realpath(await mkdtemp(join(tmpdir(), "crew-guard-")));
	t.after(() => rm(dir, { recursive: true, force: true }));
	return dir;
}

/** A detached `sh` whose children include a `sleep` in a process group of its own. */
async function processTree(t: TestContext): Promise<{ pid: number; tree: number[] }> {
	const child = spawn("sh", ["-c", "setsid sleep 30 & sleep 30 & wait"], { detached: true, stdio: "ignore" });
	const pid = child.pid as number;
	t.after(() => killProcessTree(pid, { group: true, graceMs: 0 }));
	for (let i = 0; i < 100; i++) {
		const tree = await descendantPids(pid);
		if (tree.length >= 2) return { pid, tree };
		await new Promise((r) => setTimeout(r, 20));
	}
	throw new Error("the test tree did not start");
}

test("killing a process tree ends every descendant, including ones in other process groups", async (t) => {
	const { pid, tree } = await processTree(t);
	await killProcessTree(pid, { group: true, graceMs: 1000 });
	for (const p of [pid, ...tree]) assert.equal(await isProcessRunning(p), false, `process ${p} ended`);
});

test("left-over agents of a dead coordinator are ended; a pid now owned by another process is left alone", async (t) => {
	const ws = await tempDir(t);
	const store = await RunStore.open(ws);
	const { manifest } = await store.createRun({
		ownerSessionId: "s1",
		team: "t",
		goal: "g",
		tasks: [
			{ id: "orphan", role: "worker", agent: "worker" },
			{ id: "stranger", role: "worker", agent: "worker" },
		],
	});
	const orphan = await processTree(t);
	const stranger = await processTree(t);
	await store.updateTask(manifest.runId, "orphan", {
		meta: { agentPid: orphan.pid, agentStart: await processStartMarker(orphan.pid) },
	});
	await store.updateTask(manifest.runId, "stranger", { meta: { agentPid: stranger.pid, agentStart: "another:1" } });
	assert.deepEqual(await endOrphanedAgents(store, manifest.runId), [orphan.pid]);
	for (const p of [orphan.pid, ...orphan.tree]) assert.equal(await isProcessRunning(p), false);
	assert.equal(await isProcessRunning(stranger.pid), true, "a reused pid is not ours to end");
	const { tasks } = await store.readRun(manifest.runId);
	assert.deepEqual(
		tasks.map((task) => task.meta?.agentPid),
		[undefined, undefined],
	);
	const events = (await store.readEvents(manifest.runId)).events.filter((e) => e.type === "agent.orphan-ended");
	assert.deepEqual(
		events.map((e) => [e.taskId, e.data?.pid]),
		[["orphan", orphan.pid]],
	);
});

test("the depth guard refuses to start sub-agents beyond PI_CREW_MAX_DEPTH, before anything is created", async (t) => {
	const ws = await tempDir(t);
	// A pi command that cannot run proves that nothing was spawned.
	const pi = { command: join(ws, "no-such-pi"), args: [] };
	const nested = new CrewRuntime({ env: { PI_CREW_DEPTH: "2", PI_CREW_MAX_DEPTH: "2" }, pi });
	const input = {
		cwd: ws,
		sessionId: "s",
		team: team("t", [{ id: "a", instructions: "x" }]),
		goal: "g",
		catalog: CATALOG,
	};
	await assert.rejects(nested.startRun(input), (error: unknown) => {
		assert.ok(error instanceof DepthLimitError);
		assert.match(error.message, /cannot start sub-agents at depth 3: PI_CREW_MAX_DEPTH is 2/);
		assert.match(error.message, /this process is itself a sub-agent at depth 2/);
		return true;
	});
	const none = new CrewRuntime({ limits: { maxDepth: 0 }, pi });
	await assert.rejects(none.startRun(input), DepthLimitError);
	assert.equal(existsSync(runsDirOf(ws)), false, "no run was created");
	const worktree = new CrewRuntime({ pi });
	await assert.rejects(
		worktree.startRun({ ...input, workspaceMode: "worktree" }),
		/uses worktree mode, but this runtime has no worktree hook/,
	);
	await assert.rejects(worktree.startRun({ ...input, goal: " " }), /field "goal"/);
	await assert.rejects(worktree.startRun({ ...input, sessionId: "" }), /field "sessionId"/);
});

test("an agent whose pi cannot be started fails its task with the reason; dependents are not started", async (t) => {
	const ws = await tempDir(t);
	const runtime = new CrewRuntime({
		pi: { command: join(ws, "no-such-pi"), args: [] },
		registry: new LiveAgentRegistry(),
	});
	const scope = { cwd: ws, sessionId: "s" };
	const steps = [
		{ id: "a", instructions: "x" },
		{ id: "b", instructions: "y", dependsOn: ["a"] },
	];
	const { manifest } = await runtime.startRun({ ...scope, team: team("t", steps), goal: "g", catalog: CATALOG });
	const run = await runtime.waitForRun({ ...scope, runId: manifest.runId });
	assert.equal(run.manifest.status, "failed");
	assert.match(run.tasks[0]?.error ?? "", /spawn error.*ENOENT/s);
	assert.deepEqual([run.tasks[1]?.status, run.tasks[1]?.error], ["failed", "not started: task a failed"]);
	assert.equal(run.tasks[1]?.attempts, 0);
});

test("listing by workspace compares canonical paths: an alias matches, a look-alike does not", async (t) => {
	const root = await tempDir(t);
	const ws = join(root, "ws");
	await mkdir(ws);
	await mkdir(`${ws}-2`);
	await symlink(ws, join(root, "alias"));
	const registry = new LiveAgentRegistry();
	const calls: string[] = [];
	const control: LiveAgentControl = {
		steer: async (m) => void calls.push(`steer ${m}`),
		followUp: async (m) => void calls.push(`follow ${m}`),
		stop: async () => void calls.push("stop"),
		resume: async () => void calls.push("resume"),
		sends: () => calls.length,
	};
	const handle: LiveAgentHandle = {
		agentId: "20250131-123456-789-0a1b2c3d:a",
		runId: "20250131-123456-789-0a1b2c3d",
		taskId: "a",
		workspaceId: ws,
		ownerSessionId: "s1",
		status: "running",
		pid: 1234,
		sessionFile: join(ws, "s.jsonl"),
		cwd: ws,
		startedAt: "2025-01-31T12:34:56.789Z",
		accessedPaths: [],
		sends: 0,
	};
	registry.register(handle, control);
	assert.equal((await registry.listByWorkspace(join(root, "alias"))).length, 1);
	assert.equal((await registry.listByWorkspace(`${ws}/`)).length, 1);
	assert.equal((await registry.listByWorkspace(`${ws}-2`)).length, 0);
	assert.equal((await registry.listByWorkspace(join(ws, "sub"))).length, 0);
	assert.equal((await registry.listByWorkspace(root)).length, 0);

	const op = (name: string, request: unknown) => runLiveAgentOperation(name, request, { registry });
	const bad: [string, unknown, RegExp][] = [
		[
			"steer-agent",
			{ cwd: ws, sessionId: "s1", agentId: handle.agentId },
			/field "message": steer-agent needs the text/,
		],
		["steer-agent", { cwd: ws, sessionId: "s1", message: "m" }, /field "agentId"/],
		["stop-agent", { cwd: ws, sessionId: "s1", agentId: handle.agentId, force: "yes" }, /field "force"/],
		["stop-agent", { sessionId: "s1", agentId: handle.agentId }, /field "cwd"/],
		["stop-agent", null, /expected an object/],
		["explode-agent", { cwd: ws, sessionId: "s1" }, /Unknown live-agent operation 'explode-agent'; known: list-active/],
		["stop-agent", { cwd: ws, sessionId: "s1", agentId: "nobody" }, /No live agent 'nobody' in workspace/],
		[
			"resume-agent",
			{ cwd: ws, sessionId: "s1", agentId: handle.agentId },
			/is running, not stopped; nothing was sent/,
		],
	];
	for (const [name, request, message] of bad) {
		const result = await op(name, request);
		assert.equal(result.isError, true);
		assert.match(result.text, message);
	}
	assert.deepEqual(calls, [], "no invalid request reached the agent");
	const steered = await op("follow-up-agent", {
		cwd: join(root, "alias"),
		sessionId: "s1",
		agentId: handle.agentId,
		message: "go",
	});
	assert.equal(steered.isError, false);
	assert.deepEqual(calls, ["follow go"]);
	assert.equal(registry.get(handle.agentId)?.sends, 1);
});

test("sub-agents run the installed pi unless PI_CREW_PI_CLI names another entry", () => {
	const installed = resolvePiCommand({});
	assert.equal(installed.command, process.execPath);
	assert.match(installed.args[0] ?? "", /pi-coding-agent[/\\]dist[/\\]bundle[/\\]cli\.js$/);
	assert.deepEqual(resolvePiCommand({ PI_CREW_PI_CLI: "/opt/pi/cli.js" }).args, ["/opt/pi/cli.js"]);
});
