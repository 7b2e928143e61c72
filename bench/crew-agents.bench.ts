// pi-crew's agents on this machine: what the runtime adds to starting a sub-agent, and 16 live agents at once.
// Prints JSON.
//
//   npm run bench:crew     (or: node bench/crew-agents.bench.ts [--samples 5] [--agents 16] [--keep])
//
// 1. Start-up overhead, side by side in one run, alternating order: a bare `pi --mode rpc` (the installed CLI, the
//    scripted model, a session file) from spawn to its first answer (`ready`) and to its first tool call
//    (`firstTool`), against `CrewRuntime.startRun` of a one-task run to that agent's first tool call (definitions,
//    run directory, state writes, prompt and spawn included). Both agents get the same script: one `bash true`,
//    then a final text. `overheadMs` pairs each crew sample with the bare sample next to it.
// 2. Live agents: a run of N independent tasks with PI_CREW_MAX_WORKERS=N, every agent held alive in a `bash` that
//    waits on a gate; the time until all N run their tool, their processes' summed RSS, N concurrent steers, then
//    the gate opens and the run ends. Afterwards every manifest, tasks and events file is parsed and checked
//    against what happened (statuses, attempts, results, one start and exit per agent, one steer each, no
//    unreadable event line).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DefinitionCatalog, type TeamDefinition } from "../packages/crew/src/definitions/index.ts";
import { type CrewEvent, CrewRuntime, LiveAgentRegistry, RpcConnection } from "../packages/crew/src/runtime/index.ts";
import { RunStore } from "../packages/crew/src/state/index.ts";
import { FAUX_MODEL_EXTENSION, PI_CLI, piEnv, writeAgentSettings } from "../test/e2e/support/pi-cli.ts";

const { values } = parseArgs({
	options: {
		samples: { type: "string", default: "5" },
		agents: { type: "string", default: "16" },
		keep: { type: "boolean", default: false },
	},
});
const SAMPLES = Number(values.samples);
const AGENTS = Number(values.agents);
const round = (n: number) => Math.round(n * 10) / 10;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const root = realpathSync(mkdtempSync(join(tmpdir(), "crew-bench-")));
const ws = join(root, "ws");
const agentDir = join(root, "agent");
const gate = join(root, "gate");
const scriptFile = join(root, "script.json");
mkdirSync(ws);
mkdirSync(agentDir);
await writeAgentSettings(agentDir);
const hold = { toolCalls: [{ name: "bash", arguments: { command: `while [ ! -e '${gate}' ]; do sleep 0.05; done` } }] };
const quick = { toolCalls: [{ name: "bash", arguments: { command: "true" } }] };
writeFileSync(
	scriptFile,
	JSON.stringify({
		routes: [
			{ match: "QUICK-TASK", turns: [quick, "agent done"] },
			{ match: "HELD-TASK", turns: [hold, "agent done"] },
		],
	}),
);
const env = piEnv(agentDir, { PI_FAUX_SCRIPT: scriptFile });
const AGENT_ARGS = ["-e", FAUX_MODEL_EXTENSION, "--no-skills", "--no-context-files"];
const worker = {
	name: "worker",
	description: "w",
	systemPrompt: "You work.",
	file: "<bench>",
	layer: "builtin" as const,
};
const catalog = new DefinitionCatalog(new Map([["worker", worker]]), new Map(), []);
const teamOf = (name: string, ids: string[], instructions: string): TeamDefinition => ({
	name,
	description: name,
	roles: [{ role: "w", agent: "worker" }],
	workflow: ids.map((id) => ({ id, role: "w", dependsOn: [], instructions })),
	workspaceMode: "single",
	concurrency: ids.length,
	notes: "",
	file: "<bench>",
	layer: "builtin",
});
const runtime = new CrewRuntime({
	registry: new LiveAgentRegistry(),
	env,
	pi: { command: process.execPath, args: [PI_CLI] },
	piArgs: AGENT_ARGS,
	defaultModel: { provider: "pi-faux", model: "scripted" },
	limits: { maxWorkers: AGENTS },
});
const scope = { cwd: ws, sessionId: "bench" };

/** A bare `pi --mode rpc` with the same model and script: ms to its first answer and to its first tool call. */
async function bareSample(n: number): Promise<{ ready: number; firstTool: number }> {
	const t0 = performance.now();
	const child = spawn(
		process.execPath,
		[
			PI_CLI,
			"--mode",
			"rpc",
			"--session",
			join(root, `bare-${n}.jsonl`),
			...AGENT_ARGS,
			"--provider",
			"pi-faux",
			"--model",
			"scripted",
		],
		{ cwd: ws, env, stdio: ["pipe", "pipe", "pipe"] },
	);
	let firstTool = 0;
	let settled: () => void = () => {};
	const done = new Promise<void>((resolve) => {
		settled = resolve;
	});
	const rpc = new RpcConnection(child.stdin, child.stdout, (record) => {
		if (record.type === "tool_execution_start" && firstTool === 0) firstTool = performance.now() - t0;
		if (record.type === "agent_settled") settled();
	});
	const response = await rpc.request({ type: "prompt", message: "QUICK-TASK (bare)" });
	const ready = performance.now() - t0;
	if (!response.success) throw new Error(`bare pi refused the prompt: ${response.error}`);
	await done;
	child.stdin.end();
	await new Promise((resolve) => child.once("exit", resolve));
	return { ready, firstTool };
}

/** `startRun` of a one-task run: ms until it returned, and until its agent's first tool call. */
async function crewSample(n: number): Promise<{ startRun: number; firstTool: number }> {
	let firstTool = 0;
	let toolSeen: () => void = () => {};
	const seen = new Promise<void>((resolve) => {
		toolSeen = resolve;
	});
	const unsubscribe = await runtime.subscribe(scope, (event: CrewEvent) => {
		if (event.type === "agent.tool" && firstTool === 0) {
			firstTool = performance.now() - t0;
			toolSeen();
		}
	});
	const t0 = performance.now();
	const run = await runtime.startRun({
		...scope,
		team: teamOf(`quick-${n}`, ["only"], "QUICK-TASK"),
		goal: "bench",
		catalog,
	});
	const startRun = performance.now() - t0;
	await seen;
	const ended = await runtime.waitForRun({ ...scope, runId: run.manifest.runId });
	unsubscribe();
	if (ended.manifest.status !== "done") throw new Error(`crew sample ${n} ended ${ended.manifest.status}`);
	return { startRun, firstTool };
}

function rssKiB(pid: number | undefined): number {
	if (pid === undefined) return 0;
	try {
		const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
		return Number(match?.[1] ?? 0);
	} catch {
		return 0;
	}
}

/** Reads a run's files as an outsider would and lists every way they disagree with what happened. */
async function checkRunFiles(
	runId: string,
	taskIds: string[],
): Promise<{ files: number; eventLines: number; problems: string[] }> {
	const problems: string[] = [];
	const dir = join(ws, ".pi", "crew", "runs", runId);
	const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { status: string; runId: string };
	const tasks = (
		JSON.parse(readFileSync(join(dir, "tasks.json"), "utf8")) as {
			tasks: { id: string; status: string; attempts: number; result?: string }[];
		}
	).tasks;
	const lines = readFileSync(join(dir, "events.jsonl"), "utf8")
		.split("\n")
		.filter((l) => l.trim() !== "");
	const events = lines.map((l) => JSON.parse(l) as { type: string; taskId?: string; data?: Record<string, unknown> });
	if (manifest.status !== "done" || manifest.runId !== runId)
		problems.push(`manifest: ${manifest.runId} ${manifest.status}`);
	if (tasks.length !== taskIds.length) problems.push(`tasks.json holds ${tasks.length} tasks`);
	for (const id of taskIds) {
		const task = tasks.find((t) => t.id === id);
		if (task?.status !== "done" || task.attempts !== 1 || task.result !== "agent done")
			problems.push(`task ${id}: ${JSON.stringify(task)}`);
		const mine = events.filter((e) => e.taskId === id);
		const count = (type: string) => mine.filter((e) => e.type === type).length;
		if (count("agent.started") !== 1 || count("agent.exited") !== 1) problems.push(`task ${id}: starts/exits`);
		if (mine.filter((e) => e.type === "agent.message" && e.data?.kind === "steer").length !== 1)
			problems.push(`task ${id}: steers`);
		const moves = mine.filter((e) => e.type === "task.status").map((e) => `${e.data?.from}>${e.data?.to}`);
		if (moves.join(",") !== "pending>running,running>done") problems.push(`task ${id}: ${moves.join(",")}`);
	}
	const runMoves = events.filter((e) => e.type === "run.status").map((e) => `${e.data?.from}>${e.data?.to}`);
	if (runMoves.join(",") !== "pending>running,running>done") problems.push(`run: ${runMoves.join(",")}`);
	const store = await RunStore.open(ws);
	const validated = await store.readRun(runId).catch((error: Error) => error);
	if (validated instanceof Error) problems.push(`store: ${validated.message}`);
	const log = await store.readEvents(runId);
	if (log.problems.length > 0) problems.push(`events.jsonl: ${log.problems.map((p) => p.message).join("; ")}`);
	return { files: 3, eventLines: lines.length, problems };
}

async function liveAgents(): Promise<Record<string, unknown>> {
	const ids = Array.from({ length: AGENTS }, (_, i) => `a${String(i).padStart(2, "0")}`);
	const t0 = performance.now();
	const run = await runtime.startRun({ ...scope, team: teamOf("held", ids, "HELD-TASK"), goal: "hold", catalog });
	const runId = run.manifest.runId;
	const holding = () => runtime.registry.list().filter((a) => a.runId === runId && a.currentTool === "bash");
	while (holding().length < AGENTS) await new Promise((r) => setTimeout(r, 50));
	const allLiveMs = performance.now() - t0;
	const agents = holding();
	const rssMB = agents.reduce((sum, a) => sum + rssKiB(a.pid), 0) / 1024;
	const s0 = performance.now();
	const steers = await Promise.all(
		agents.map((a) => runtime.agentOperation("steer-agent", { ...scope, agentId: a.agentId, message: "keep going" })),
	);
	const steerMs = performance.now() - s0;
	writeFileSync(gate, "open\n");
	const g0 = performance.now();
	const ended = await runtime.waitForRun({ ...scope, runId });
	return {
		agents: AGENTS,
		allLiveMs: round(allLiveMs),
		agentsRssMB: round(rssMB),
		steers: { ok: steers.filter((s) => !s.isError).length, allMs: round(steerMs) },
		gateToDoneMs: round(performance.now() - g0),
		status: ended.manifest.status,
		files: await checkRunFiles(runId, ids),
	};
}

const loadBefore = loadavg().map(round);
try {
	const bare: { ready: number; firstTool: number }[] = [];
	const crew: { startRun: number; firstTool: number }[] = [];
	await bareSample(-1); // warm the disk cache for both sides
	for (let i = 0; i < SAMPLES; i++) {
		if (i % 2 === 0) {
			bare.push(await bareSample(i));
			crew.push(await crewSample(i));
		} else {
			crew.push(await crewSample(i));
			bare.push(await bareSample(i));
		}
	}
	const overhead = crew.map((c, i) => c.firstTool - (bare[i]?.firstTool ?? 0));
	const startup = {
		samples: SAMPLES,
		bare: {
			readyMs: round(median(bare.map((b) => b.ready))),
			firstToolMs: round(median(bare.map((b) => b.firstTool))),
		},
		crew: {
			startRunMs: round(median(crew.map((c) => c.startRun))),
			firstToolMs: round(median(crew.map((c) => c.firstTool))),
		},
		overheadMs: { median: round(median(overhead)), all: overhead.map(round) },
		ratio: Math.round((median(crew.map((c) => c.firstTool)) / median(bare.map((b) => b.firstTool))) * 100) / 100,
	};
	const live = await liveAgents();
	process.stdout.write(
		`${JSON.stringify({ bench: "crew-agents", node: process.version, loadAverage: { before: loadBefore, after: loadavg().map(round) }, startup, live }, null, 2)}\n`,
	);
} finally {
	await runtime.shutdown();
	if (!values.keep) rmSync(root, { recursive: true, force: true });
}
