import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
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
	LiveAgentConflictError,
	type LiveAgentControl,
	type LiveAgentHandle,
	LiveAgentRegistry,
	LiveSessionError,
	listActiveLiveAgentsByWorkspace,
	listLiveAgentsByWorkspace,
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

/**
 * A detached `sh` whose children include a `sleep` in a process group of its own; `agentOf` gives it the
 * environment pi-crew starts an agent of that run and workspace with.
 */
async function processTree(
	t: TestContext,
	agentOf?: { workspace: string; runId: string },
	script = { sh: "setsid sleep 30 & sleep 30 & wait", children: 2 },
): Promise<{ pid: number; tree: number[] }> {
	const env = agentOf && { ...process.env, PI_CREW_WORKSPACE: agentOf.workspace, PI_CREW_RUN_ID: agentOf.runId };
	const child = spawn("sh", ["-c", script.sh], {
		detached: true,
		stdio: "ignore",
		...(env ? { env } : {}),
	});
	const pid = child.pid as number;
	t.after(() => killProcessTree(pid, { group: true, graceMs: 0 }));
	for (let i = 0; i < 100; i++) {
		const tree = await descendantPids(pid);
		if (tree.length >= script.children) return { pid, tree };
		await new Promise((r) => setTimeout(r, 20));
	}
	throw new Error("the test tree did not start");
}

test("killing a process tree ends every descendant, including ones in other process groups", async (t) => {
	const { pid, tree } = await processTree(t);
	await killProcessTree(pid, { group: true, graceMs: 1000 });
	for (const p of [pid, ...tree]) assert.equal(await isProcessRunning(p), false, `process ${p} ended`);
});

test("a tree that ignores SIGTERM is gone when killing it returns", async (t) => {
	const { pid, tree } = await processTree(t, undefined, { sh: "trap '' TERM; sleep 30 & wait; sleep 30", children: 1 });
	await killProcessTree(pid, { group: true, graceMs: 100 });
	for (const p of [pid, ...tree]) assert.equal(await isProcessRunning(p), false, `process ${p} ended`);
});

test("left-over agents of a dead coordinator are ended; a pid now owned by another process or workspace is left alone", async (t) => {
	const ws = await tempDir(t);
	const store = await RunStore.open(ws);
	const { manifest } = await store.createRun({
		ownerSessionId: "s1",
		team: "t",
		goal: "g",
		tasks: [
			{ id: "orphan", role: "worker", agent: "worker" },
			{ id: "stranger", role: "worker", agent: "worker" },
			{ id: "copied", role: "worker", agent: "worker" },
		],
	});
	const orphan = await processTree(t, { workspace: ws, runId: manifest.runId });
	// A pid recorded for a task that now belongs to a process not started for this run (the pid was reused).
	const stranger = await processTree(t);
	// Same pid and start marker, but started as an agent of the same run id in another workspace (a copied run).
	const foreign = await processTree(t, { workspace: `${ws}-other`, runId: manifest.runId });
	await store.updateTask(manifest.runId, "orphan", {
		meta: { agentPid: orphan.pid, agentStart: await processStartMarker(orphan.pid) },
	});
	await store.updateTask(manifest.runId, "stranger", { meta: { agentPid: stranger.pid, agentStart: "another:1" } });
	await store.updateTask(manifest.runId, "copied", {
		meta: { agentPid: foreign.pid, agentStart: await processStartMarker(foreign.pid) },
	});
	assert.deepEqual(await endOrphanedAgents(store, manifest.runId), [orphan.pid]);
	for (const p of [orphan.pid, ...orphan.tree]) assert.equal(await isProcessRunning(p), false);
	assert.equal(await isProcessRunning(stranger.pid), true, "a reused pid is not ours to end");
	assert.equal(await isProcessRunning(foreign.pid), true, "another workspace's agent is not ours to end");
	const { tasks } = await store.readRun(manifest.runId);
	assert.deepEqual(
		tasks.map((task) => task.meta?.agentPid),
		[undefined, undefined, undefined],
	);
	const events = (await store.readEvents(manifest.runId)).events.filter((e) => e.type === "agent.orphan-ended");
	assert.deepEqual(
		events.map((e) => [e.taskId, e.data?.pid]),
		[["orphan", orphan.pid]],
	);
});

test("processes started for a dead coordinator's run but recorded nowhere are ended; another run's are not", async (t) => {
	const ws = await tempDir(t);
	const store = await RunStore.open(ws);
	const tasks = [{ id: "a", role: "worker", agent: "worker" }];
	const { manifest } = await store.createRun({ ownerSessionId: "s1", team: "t", goal: "g", tasks });
	const other = await store.createRun({ ownerSessionId: "s1", team: "t", goal: "g", tasks });
	const loose = await processTree(t, { workspace: ws, runId: manifest.runId });
	const neighbour = await processTree(t, { workspace: ws, runId: other.manifest.runId });
	const ended = await endOrphanedAgents(store, manifest.runId);
	assert.ok(ended.includes(loose.pid), `ended ${ended.join(", ")}`);
	for (const p of [loose.pid, ...loose.tree]) assert.equal(await isProcessRunning(p), false, `process ${p} ended`);
	for (const p of [neighbour.pid, ...neighbour.tree]) assert.equal(await isProcessRunning(p), true, "another run's");
	const events = (await store.readEvents(manifest.runId)).events.filter((e) => e.type === "run.leftovers-ended");
	assert.equal(events.length, 1);
	assert.ok(((events[0]?.data?.pids ?? []) as number[]).includes(loose.pid));
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
	const { handle, control, calls } = fakeAgent(ws);
	registry.register(handle, control);
	assert.equal(registry.listByWorkspace(join(root, "alias")).length, 1);
	assert.equal(registry.listByWorkspace(`${ws}/`).length, 1);
	assert.equal(registry.listByWorkspace(`${ws}-2`).length, 0);
	assert.equal(registry.listByWorkspace(join(ws, "sub")).length, 0);
	assert.equal(registry.listByWorkspace(root).length, 0);

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

/** A handle of agent `a` of run RUN in workspace `ws`, and a control that records what reached it. */
function fakeAgent(
	ws: string,
	sessionId = "s1",
): { handle: LiveAgentHandle; control: LiveAgentControl; calls: string[] } {
	const calls: string[] = [];
	const control: LiveAgentControl = {
		steer: async (m) => void calls.push(`steer ${m}`),
		followUp: async (m) => void calls.push(`follow ${m}`),
		stop: async () => void calls.push("stop"),
		resume: async () => void calls.push("resume"),
		sends: () => calls.length,
	};
	const runId = "20250131-123456-789-0a1b2c3d";
	const handle: LiveAgentHandle = {
		agentId: `${runId}:a`,
		runId,
		taskId: "a",
		workspaceId: ws,
		ownerSessionId: sessionId,
		status: "running",
		pid: 1234,
		sessionFile: join(ws, "s.jsonl"),
		cwd: ws,
		startedAt: "2025-01-31T12:34:56.789Z",
		accessedPaths: [],
		sends: 0,
	};
	return { handle, control, calls };
}

test("listLiveAgentsByWorkspace and listByWorkspace return arrays synchronously, as the isolation seed gives them", async (t) => {
	const root = await tempDir(t);
	await symlink(root, `${root}-alias`);
	t.after(() => rm(`${root}-alias`, { force: true }));
	const registry = new LiveAgentRegistry();
	const { handle, control } = fakeAgent(root);
	registry.register(handle, control);
	const listed = registry.listByWorkspace(`${root}-alias`);
	assert.ok(Array.isArray(listed), "an array, not a promise");
	assert.deepEqual(
		listed.map((a) => a.agentId),
		[handle.agentId],
	);
	assert.deepEqual(registry.listByWorkspace(join(root, "missing", "..", "..", "nowhere")), []);
	for (const list of [listLiveAgentsByWorkspace, listActiveLiveAgentsByWorkspace]) {
		const result = list(root);
		assert.ok(Array.isArray(result), `${list.name} returns an array, not a promise`);
	}
});

test("an agent id is held by one workspace: another workspace cannot register, update or reach it", async (t) => {
	const root = await tempDir(t);
	const wsA = join(root, "wsA");
	const wsB = join(root, "wsB");
	await mkdir(wsA);
	await mkdir(wsB);
	const registry = new LiveAgentRegistry();
	const a = fakeAgent(wsA, "sA");
	const b = fakeAgent(wsB, "sB");
	registry.register(a.handle, a.control);
	assert.throws(
		() => registry.register(b.handle, b.control),
		(error: Error) => {
			assert.ok(error instanceof LiveAgentConflictError);
			assert.equal(
				error.message,
				`Live agent '${a.handle.agentId}' already belongs to workspace ${wsA}; it cannot be registered for workspace ${wsB} (was a run directory copied between workspaces?)`,
			);
			return true;
		},
	);
	registry.update(wsB, a.handle.agentId, { status: "failed", ownerSessionId: "sB" });
	registry.addAccessedPath(wsB, a.handle.agentId, "/etc");
	const kept = registry.get(a.handle.agentId);
	assert.deepEqual(
		[kept?.workspaceId, kept?.ownerSessionId, kept?.status, kept?.accessedPaths],
		[wsA, "sA", "running", []],
	);
	assert.equal(registry.get(a.handle.agentId, wsB), undefined);
	assert.equal(registry.control(wsB, a.handle.agentId), undefined);
	const op = (name: string, request: object) => runLiveAgentOperation(name, request, { registry });
	const fromB = await op("steer-agent", { cwd: wsB, sessionId: "sB", agentId: a.handle.agentId, message: "x" });
	assert.equal(fromB.text, `Live agent '${a.handle.agentId}' does not belong to workspace ${wsB}.`);
	const mine = await op("steer-agent", { cwd: wsA, sessionId: "sA", agentId: a.handle.agentId, message: "y" });
	assert.equal(mine.isError, false, mine.text);
	assert.deepEqual([a.calls, b.calls], [["steer y"], []]);
});

/** The pid of a process that has exited (its run owner is dead). */
async function deadPid(): Promise<number> {
	const child = spawn("true", { stdio: "ignore" });
	await once(child, "exit");
	return child.pid as number;
}

test("force takes over a run whose owner process is dead, never one whose owner process lives", async (t) => {
	const ws = await tempDir(t);
	const store = await RunStore.open(ws);
	const tasks = [{ id: "a", role: "worker", agent: "worker" }];
	const dead = await store.createRun({
		ownerSessionId: "gone",
		ownerPid: await deadPid(),
		team: "t",
		goal: "g",
		tasks,
	});
	const live = spawn("sleep", ["30"], { stdio: "ignore" });
	t.after(() => live.kill("SIGKILL"));
	const livePid = live.pid as number;
	const owned = await store.createRun({ ownerSessionId: "other", ownerPid: livePid, team: "t", goal: "g", tasks });
	for (const run of [dead, owned]) await store.updateManifest(run.manifest.runId, { status: "interrupted" });
	const runtime = new CrewRuntime({
		pi: { command: join(ws, "no-such-pi"), args: [] },
		registry: new LiveAgentRegistry(),
	});
	const me = { cwd: ws, sessionId: "me" };
	const forced = { ...me, force: true };
	assert.deepEqual(await runtime.list(me), []);
	assert.deepEqual(
		(await runtime.list(forced)).map((l) => l.runId),
		[dead.manifest.runId],
	);
	const deadId = dead.manifest.runId;
	const ownedId = owned.manifest.runId;
	await assert.rejects(runtime.status({ ...me, runId: deadId }), /pass force to see it/);
	assert.equal((await runtime.status({ ...forced, runId: deadId })).manifest.ownerSessionId, "gone");
	const resumed = await runtime.resume({ ...forced, runId: deadId });
	assert.deepEqual([resumed.manifest.ownerSessionId, resumed.manifest.ownerPid], ["me", process.pid]);
	await runtime.waitForRun({ ...me, runId: deadId });
	for (const call of [runtime.status, runtime.cancel, runtime.resume, runtime.waitForRun]) {
		await assert.rejects(call.call(runtime, { ...forced, runId: ownedId }), (error: Error) => {
			assert.ok(error instanceof LiveSessionError);
			assert.equal(error.message.split(";")[0], `Run ${ownedId} belongs to another live session of workspace ${ws}`);
			return true;
		});
	}
	assert.equal((await store.readManifest(ownedId)).status, "interrupted", "the live owner's run is untouched");
	await runtime.shutdown();
});

test("force takes over a run of this process only once the session that held it has ended", async (t) => {
	const ws = await tempDir(t);
	const pi = { command: join(ws, "no-such-pi"), args: [] };
	const registry = new LiveAgentRegistry();
	const first = new CrewRuntime({ pi, registry });
	const second = new CrewRuntime({ pi, registry });
	const a = { cwd: ws, sessionId: "a" };
	const b = { cwd: ws, sessionId: "b", force: true };
	const input = { ...a, team: team("t", [{ id: "x", instructions: "x" }]), goal: "g", catalog: CATALOG };
	const { manifest } = await first.startRun(input);
	const runId = manifest.runId;
	await first.waitForRun({ ...a, runId });
	for (const rt of [first, second]) {
		assert.deepEqual(await rt.list(b), [], "session a is live: its run stays hidden");
		await assert.rejects(rt.status({ ...b, runId }), LiveSessionError);
	}
	await first.shutdown();
	assert.deepEqual(
		(await second.list(b)).map((l) => l.runId),
		[runId],
	);
	assert.equal((await second.status({ ...b, runId })).manifest.ownerSessionId, "a");
	await second.shutdown();
});
