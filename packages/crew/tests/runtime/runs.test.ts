import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { type CrewEvent, isProcessRunning } from "../../src/runtime/index.ts";
import { RunStore } from "../../src/state/index.ts";
import { busy, CATALOG, crewFixture, eventWaiter, team, treeRunning } from "./support/crew-fixture.ts";

describe("runs with real pi children", { concurrency: true }, () => {
	it("hands a task's result, changed files and usage to the task that depends on it", async (t) => {
		const fx = await crewFixture(t);
		await fx.script({
			"TASK-TWO": [{ toolCalls: [{ name: "bash", arguments: { command: "pwd > where.txt" } }] }, "two done"],
			"TASK-ONE": [
				{
					toolCalls: [
						{ name: "write", arguments: { path: "notes.txt", content: "plan\n" } },
						{ name: "bash", arguments: { command: 'printf "%s" "$PI_CREW_DEPTH" > depth.txt' } },
					],
				},
				"ONE-RESULT: the plan is 42",
			],
		});
		const area = join(fx.ws, "area");
		await mkdir(area);
		const accessed: [string, string][] = [];
		const runtime = fx.runtime({
			// What worktree mode plugs in: task two works in its own folder and reports a change of its own.
			prepareWorkspace: async ({ manifest, task }) => (task.id === "two" ? area : manifest.cwd),
			finishWorkspace: async ({ task, cwd }) =>
				task.id === "two" ? { changedFiles: [join(cwd, "where.txt")] } : undefined,
			onAccess: (agentId, path) => accessed.push([agentId, path]),
		});
		const scope = { cwd: fx.ws, sessionId: "s1" };
		const events: CrewEvent[] = [];
		await runtime.subscribe(scope, (e) => events.push(e));
		const chain = team("chain", [
			{ id: "one", instructions: "TASK-ONE: make a plan" },
			{ id: "two", instructions: "TASK-TWO: follow the plan", dependsOn: ["one"] },
		]);
		const { manifest } = await runtime.startRun({ ...scope, team: chain, goal: "Ship it", catalog: CATALOG });
		assert.equal(manifest.cwd, fx.ws);
		const run = await runtime.waitForRun({ ...scope, runId: manifest.runId });
		assert.equal(run.manifest.status, "done", run.manifest.error);
		const [one, two] = run.tasks;
		assert.equal(one?.result, "ONE-RESULT: the plan is 42");
		assert.equal(two?.result, "two done");
		assert.deepEqual(one?.meta?.changedFiles, [join(fx.ws, "notes.txt")]);
		assert.ok((one?.meta?.accessedPaths as string[] | undefined)?.includes(join(fx.ws, "notes.txt")));
		assert.equal((one?.meta?.usage as { turns: number } | undefined)?.turns, 2);

		const second = fx.requests().filter((r) => r.route === "TASK-TWO");
		assert.equal(second.length, 2, "one tool turn, one answer");
		assert.match(second[0]?.firstUser ?? "", /ONE-RESULT: the plan is 42/);
		assert.match(second[0]?.firstUser ?? "", new RegExp(`Changed files: ${join(fx.ws, "notes.txt")}`));
		assert.match(second[0]?.firstUser ?? "", /Goal of the run:\nShip it/);

		assert.equal(readFileSync(join(fx.ws, "depth.txt"), "utf8"), "1", "children run one level deeper");
		assert.equal(readFileSync(join(area, "where.txt"), "utf8").trim(), area, "task two ran where the hook said");
		assert.deepEqual(two?.meta?.changedFiles, [join(area, "where.txt")]);
		assert.equal(two?.meta?.cwd, area);
		assert.deepEqual(
			accessed.filter(([, path]) => path === join(fx.ws, "notes.txt")),
			[[`${manifest.runId}:one`, join(fx.ws, "notes.txt")]],
		);
		const store = await RunStore.open(fx.ws);
		const dir = store.files(manifest.runId).dir;
		assert.ok(existsSync(join(dir, "sessions", "one.jsonl")));
		assert.ok(existsSync(join(dir, "sessions", "two.jsonl")));
		const logged = (await store.readEvents(manifest.runId)).events.map((e) => `${e.type}:${e.taskId ?? ""}`);
		for (const line of ["agent.started:one", "agent.exited:one", "agent.started:two", "agent.exited:two"]) {
			assert.ok(logged.includes(line), `${line} in ${logged.join(", ")}`);
		}
		assert.ok(logged.indexOf("agent.exited:one") < logged.indexOf("agent.started:two"), "two waits for one");
		const access = events.find((e) => e.type === "agent.access" && e.data?.path === join(fx.ws, "notes.txt"));
		assert.equal(access?.agentId, `${manifest.runId}:one`);
		assert.deepEqual(
			runtime.registry.list().map((a) => [a.taskId, a.status, a.workspaceId]),
			[
				["one", "done", fx.ws],
				["two", "done", fx.ws],
			],
		);
	});

	it("never runs more children at once than PI_CREW_MAX_WORKERS allows", async (t) => {
		const fx = await crewFixture(t);
		const ids = ["a", "b", "c", "d"];
		await fx.script(Object.fromEntries(ids.map((id) => [`PARALLEL-${id}`, [busy(1), `${id} done`]])));
		const runtime = fx.runtime({ limits: { maxWorkers: 2 } });
		const scope = { cwd: fx.ws, sessionId: "s1" };
		let live = 0;
		let most = 0;
		await runtime.subscribe(scope, (e) => {
			if (e.type === "agent.started") most = Math.max(most, ++live);
			if (e.type === "agent.exited") live--;
		});
		const wide = team(
			"wide",
			ids.map((id) => ({ id, instructions: `PARALLEL-${id}` })),
			4,
		);
		const { manifest } = await runtime.startRun({ ...scope, team: wide, goal: "All at once", catalog: CATALOG });
		const run = await runtime.waitForRun({ ...scope, runId: manifest.runId });
		assert.equal(run.manifest.status, "done", run.manifest.error);
		assert.deepEqual(
			run.tasks.map((task) => task.result),
			ids.map((id) => `${id} done`),
		);
		assert.equal(most, 2, "two children at once, never more");
		assert.equal(runtime.pool.peak, 2);
		assert.equal(new Set(fx.requests().map((r) => r.pid)).size, 4, "one process per task");
	});

	it("ends a silent agent and its whole process tree after the no-output timeout", async (t) => {
		const fx = await crewFixture(t);
		await fx.script({ SILENT: [busy(30)] });
		const runtime = fx.runtime({ limits: { noOutputTimeoutMs: 2000 } });
		const scope = { cwd: fx.ws, sessionId: "s1" };
		const tool = await eventWaiter(runtime, scope, (e) => e.type === "agent.tool");
		const { manifest } = await runtime.startRun({
			...scope,
			team: team("quiet", [{ id: "quiet", instructions: "SILENT" }]),
			goal: "Say nothing",
			catalog: CATALOG,
		});
		await tool.event;
		const pid = runtime.registry.list()[0]?.pid;
		assert.ok(pid);
		const tree = await treeRunning(pid, "sleep 30");
		const run = await runtime.waitForRun({ ...scope, runId: manifest.runId });
		assert.equal(run.manifest.status, "failed");
		assert.equal(run.tasks[0]?.status, "failed");
		assert.match(run.tasks[0]?.error ?? "", /no output from the agent for 2000 ms/);
		for (const p of [pid, ...tree]) assert.equal(await isProcessRunning(p), false, `process ${p} was ended`);
		assert.equal(runtime.registry.list()[0]?.status, "failed");
	});
});
