import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import {
	AgentCapture,
	type AgentOutcome,
	agentArgs,
	agentEnv,
	agentIdOf,
	blockedTasks,
	crewLimits,
	DEPENDENCY_RESULT_LIMIT,
	emptyUsage,
	parseAgentId,
	RpcConnection,
	type RpcRecord,
	readAgentSnapshot,
	readyTasks,
	settledRunStatus,
	taskOutcome,
	taskPrompt,
	WorkerPool,
} from "../../src/runtime/index.ts";
import { ASK_EXTENSION } from "../../src/runtime/question-protocol.ts";
import type { RunTask } from "../../src/state/index.ts";

function task(id: string, status: RunTask["status"], extra: Partial<RunTask> = {}): RunTask {
	return {
		id,
		role: "worker",
		agent: "worker",
		dependsOn: [],
		status,
		attempts: 0,
		updatedAt: "2025-01-01T00:00:00.000Z",
		...extra,
	};
}

test("a task prompt carries the goal, the task and the results of its dependencies (long ones cut)", () => {
	const manifest = { runId: "20250101-000000-000-00000000", team: "t", goal: "Fix the bug" };
	const plan = task("plan", "done", { result: "Plan: edit a.ts", meta: { changedFiles: ["/w/a.ts"] } });
	const huge = task("scan", "done", { result: "x".repeat(DEPENDENCY_RESULT_LIMIT + 10) });
	const impl = task("impl", "pending", { dependsOn: ["plan", "scan"], instructions: "Do the plan." });
	const prompt = taskPrompt(manifest, impl, [plan, huge]);
	assert.match(prompt, /Goal of the run:\nFix the bug/);
	assert.match(prompt, /Your task:\nDo the plan\./);
	assert.match(prompt, /### plan \(worker\)\nPlan: edit a\.ts\nChanged files: \/w\/a\.ts/);
	assert.match(prompt, /\[… 10 more characters cut\]/);
	assert.match(taskPrompt(manifest, task("solo", "pending"), []), /Work on the goal as the team's worker\./);
});

test("ready, blocked and settled: dependencies gate tasks and decide how a run ends", () => {
	const tasks = [
		task("a", "done"),
		task("b", "pending", { dependsOn: ["a"] }),
		task("c", "pending", { dependsOn: ["b"] }),
		task("d", "failed", { error: "boom" }),
		task("e", "pending", { dependsOn: ["d"] }),
	];
	assert.deepEqual(
		readyTasks(tasks, new Set()).map((t) => t.id),
		["b"],
	);
	assert.deepEqual(readyTasks(tasks, new Set(["b"])), [], "a task being started is not ready again");
	assert.deepEqual(
		blockedTasks(tasks).map(({ task: t, dependency }) => [t.id, dependency.id]),
		[["e", "d"]],
	);
	assert.deepEqual(settledRunStatus([task("a", "done")]), { status: "done" });
	assert.equal(settledRunStatus([task("a", "interrupted"), task("b", "failed")]).status, "interrupted");
	assert.deepEqual(settledRunStatus([task("a", "done"), task("d", "failed", { error: "boom" })]), {
		status: "failed",
		error: "d: boom",
	});
});

test("an agent's outcome decides its task: done, interrupted (resumable), cancelled or failed with the reason", () => {
	const base: AgentOutcome = {
		end: "completed",
		text: "report",
		error: undefined,
		usage: emptyUsage(),
		changedFiles: ["/w/a"],
		accessedPaths: ["/w/a"],
	};
	assert.equal(taskOutcome(base, undefined).patch.status, "done");
	assert.equal(taskOutcome(base, undefined).patch.result, "report");
	assert.deepEqual(taskOutcome(base, undefined, ["/w/b", "/w/a"]).patch.meta?.changedFiles, ["/w/a", "/w/b"]);
	assert.equal(taskOutcome(base, "stopped").patch.status, "done", "finished work stays done");
	const stopped = { ...base, end: "stopped" as const };
	assert.deepEqual(
		[taskOutcome(stopped, "stopped").patch.status, taskOutcome(stopped, "stopped").agentStatus],
		["interrupted", "stopped"],
	);
	assert.equal(taskOutcome(stopped, "shutdown").patch.status, "interrupted");
	assert.equal(taskOutcome(stopped, "cancelled").patch.status, "cancelled");
	const timeout = taskOutcome({ ...base, end: "timeout", error: "no output from the agent for 5 ms" }, undefined);
	assert.deepEqual([timeout.patch.status, timeout.patch.error], ["failed", "no output from the agent for 5 ms"]);
	assert.equal(taskOutcome({ ...base, error: "rate limited" }, undefined).patch.error, "rate limited");
	assert.equal(taskOutcome({ ...base, end: "aborted" }, undefined).patch.error, "the agent's run was aborted");
	// A process killed by a signal is no verdict on its work: resumable. One that exited on its own failed.
	const killed = taskOutcome(
		{ ...base, end: "exited", error: "the agent process exited", signal: "SIGKILL" },
		undefined,
	);
	assert.deepEqual([killed.patch.status, killed.agentStatus], ["interrupted", "stopped"]);
	assert.match(killed.patch.error ?? "", /killed \(signal SIGKILL\); resume or resume-agent continues it/);
	const exited = taskOutcome({ ...base, end: "exited", error: "the agent process exited (code 1)" }, undefined);
	assert.deepEqual([exited.patch.status, exited.patch.error], ["failed", "the agent process exited (code 1)"]);
});

test("agent arguments and environment: model, tools, thinking, system prompt file, depth + 1", () => {
	const agent = {
		name: "r",
		model: "anthropic/claude-haiku-4-5",
		tools: ["read", "grep"],
		thinking: "low" as const,
		systemPrompt: "x",
	};
	assert.deepEqual(agentArgs(agent, { systemPromptFile: "/run/agents/r.md", extra: ["-e", "ext.ts"] }), [
		"-e",
		"ext.ts",
		"-e",
		ASK_EXTENSION,
		"--model",
		"anthropic/claude-haiku-4-5",
		"--tools",
		"read,grep,ask_coordinator",
		"--thinking",
		"low",
		"--append-system-prompt",
		"/run/agents/r.md",
	]);
	const plain = { name: "p", systemPrompt: "x" };
	assert.deepEqual(
		agentArgs(plain, { systemPromptFile: "/f", defaultModel: { provider: "pi-faux", model: "scripted" } }),
		["-e", ASK_EXTENSION, "--provider", "pi-faux", "--model", "scripted", "--append-system-prompt", "/f"],
	);
	// No tools but the supervisor channel's.
	assert.deepEqual(agentArgs({ ...plain, tools: [] }, { systemPromptFile: "/f" }), [
		"-e",
		ASK_EXTENSION,
		"--tools",
		"ask_coordinator",
		"--append-system-prompt",
		"/f",
	]);
	const env = agentEnv({ KEEP: "1" }, 1, { runId: "r", taskId: "t", agentId: "r:t", workspace: "/w" });
	assert.deepEqual(env, {
		KEEP: "1",
		PI_CREW_DEPTH: "2",
		PI_CREW_RUN_ID: "r",
		PI_CREW_TASK_ID: "t",
		PI_CREW_AGENT_ID: "r:t",
		PI_CREW_WORKSPACE: "/w",
	});
	assert.throws(
		() => readAgentSnapshot({ agents: { r: { systemPrompt: "x", tools: "all" } } }, "r", "m.json"),
		/meta\.agents\.r.*tools/,
	);
	assert.throws(() => readAgentSnapshot({}, "r", "m.json"), /m\.json: field "meta\.agents\.r": missing/);
});

test("limits come from PI_CREW_* with safe fallbacks; explicit overrides win", () => {
	assert.deepEqual(crewLimits({}), { maxWorkers: 4, maxDepth: 2, depth: 0, noOutputTimeoutMs: 600_000 });
	const env = {
		PI_CREW_MAX_WORKERS: "99",
		PI_CREW_MAX_DEPTH: "x",
		PI_CREW_DEPTH: "1",
		PI_CREW_NO_OUTPUT_TIMEOUT_MS: "5",
	};
	assert.deepEqual(crewLimits(env), { maxWorkers: 64, maxDepth: 2, depth: 1, noOutputTimeoutMs: 1000 });
	assert.equal(crewLimits(env, { maxWorkers: 2 }).maxWorkers, 2);
});

test("the worker pool hands out at most `limit` slots, in order, and lets a waiter give up", async () => {
	const pool = new WorkerPool(2);
	const first = await pool.acquire();
	const second = await pool.acquire();
	const order: string[] = [];
	const third = pool.acquire().then((release) => {
		order.push("third");
		return release;
	});
	const quitter = new AbortController();
	const gaveUp = pool.acquire(quitter.signal);
	const fourth = pool.acquire().then((release) => {
		order.push("fourth");
		return release;
	});
	quitter.abort(new Error("cancelled"));
	await assert.rejects(gaveUp, /cancelled/);
	first();
	first();
	(await third)();
	second();
	(await fourth)();
	assert.deepEqual(order, ["third", "fourth"]);
	assert.equal(pool.peak, 2);
	assert.equal(pool.active, 0);
	assert.throws(() => new WorkerPool(0), /positive integer/);
});

test("the capture folds an agent's events: final text, usage, changed and accessed paths, model errors", () => {
	const capture = new AgentCapture("/w");
	const usage = { input: 10, output: 5, cacheRead: 1, cacheWrite: 2, totalTokens: 18, cost: { total: 0.5 } };
	const records: RpcRecord[] = [
		{ type: "message_end", message: { role: "assistant", content: [{ type: "toolCall" }], usage } },
		{ type: "tool_execution_start", toolCallId: "1", toolName: "edit", args: { path: "src/a.ts" } },
		{ type: "tool_execution_end", toolCallId: "1", toolName: "edit", isError: false },
		{ type: "tool_execution_start", toolCallId: "2", toolName: "read", args: { path: "/etc/missing" } },
		{ type: "tool_execution_end", toolCallId: "2", toolName: "read", isError: true },
		{ type: "tool_execution_start", toolCallId: "3", toolName: "bash", args: { command: "cd /repo/other && ls" } },
		{ type: "tool_execution_end", toolCallId: "3", toolName: "bash", isError: false },
		{ type: "message_end", message: { role: "assistant", content: [{ type: "text", text: "All done." }], usage } },
	];
	const fresh = records.flatMap((r) => capture.accept(r).map((a) => a.path));
	assert.deepEqual(fresh, ["/w/src/a.ts", "/repo/other"]);
	assert.equal(capture.lastText, "All done.");
	assert.equal(capture.lastError, undefined);
	assert.deepEqual(capture.changedFiles, ["/w/src/a.ts"]);
	assert.deepEqual(capture.accessedPaths, ["/w/src/a.ts", "/repo/other"]);
	assert.deepEqual(capture.usage, {
		input: 20,
		output: 10,
		cacheRead: 2,
		cacheWrite: 4,
		totalTokens: 36,
		cost: 1,
		turns: 2,
		toolCalls: 1,
	});
	capture.accept({
		type: "message_end",
		message: { role: "assistant", content: [], stopReason: "error", errorMessage: "overloaded" },
	});
	assert.equal(capture.lastError, "overloaded");
	assert.equal(capture.lastText, "All done.");
});

test("the RPC connection splits records on LF only and matches responses by id", async () => {
	const toPi = new PassThrough();
	const fromPi = new PassThrough();
	const seen: RpcRecord[] = [];
	const rpc = new RpcConnection(toPi, fromPi, (r) => seen.push(r));
	const written: string[] = [];
	toPi.on("data", (chunk: Buffer) => written.push(chunk.toString()));
	const reply = rpc.request({ type: "get_state" });
	await new Promise((r) => setImmediate(r));
	const id = JSON.parse(written[0] ?? "{}").id as string;
	fromPi.write(`{"type":"message_update","delta":"a\u2028b"}\nnot json\n{"type":"response","id":"${id}","com`);
	fromPi.write(`mand":"get_state","success":true,"data":{"x":1}}\r\n`);
	assert.deepEqual((await reply).data, { x: 1 });
	assert.deepEqual(
		seen.map((r) => r.type),
		["message_update", "stray_output", "response"],
	);
	assert.equal(seen[0]?.delta, "a\u2028b");
	assert.equal(rpc.sent, 1);
	const pending = rpc.request({ type: "abort" });
	rpc.close(new Error("gone"));
	await assert.rejects(pending, /gone/);
	await assert.rejects(rpc.request({ type: "abort" }), /gone/);
});

test("agent ids name their run and task", () => {
	const runId = "20250131-123456-789-0a1b2c3d";
	assert.deepEqual(parseAgentId(agentIdOf(runId, "plan")), { runId, taskId: "plan" });
	assert.equal(parseAgentId("../../etc:passwd"), undefined);
});
