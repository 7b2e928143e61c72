/**
 * Fixtures for runtime tests with real `pi --mode rpc` children: a temporary workspace, an isolated Pi agent
 * directory, the scripted model (test/e2e/fixtures/faux-model-extension.ts) driven by a script file per fixture,
 * and its request log. No network, nothing under the real ~/.pi.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import {
	FAUX_MODEL_EXTENSION,
	type FauxTurn,
	piEnv,
	writeAgentSettings,
	writeFauxScript,
} from "../../../../../test/e2e/support/pi-cli.ts";
import { type AgentDefinition, DefinitionCatalog, type TeamDefinition } from "../../../src/definitions/index.ts";
import {
	type CrewEvent,
	CrewRuntime,
	type CrewRuntimeOptions,
	descendantPids,
	LiveAgentRegistry,
	planRun,
	processesWithEnvironment,
	type SessionScope,
} from "../../../src/runtime/index.ts";
import { type RunSnapshot, RunStore } from "../../../src/state/index.ts";

/** One model request as the faux model logged it. */
export interface FauxRequest {
	pid: number;
	route: string | null;
	index: number;
	source: string;
	firstUser: string;
	lastUser: string;
	reply: unknown;
}

/** A scripted Pi world for one test. */
export interface CrewFixture {
	/** The canonical temporary root holding everything. */
	root: string;
	/** A workspace folder (canonical). */
	ws: string;
	agentDir: string;
	scriptFile: string;
	logFile: string;
	env: NodeJS.ProcessEnv;
	/** (Re)writes the faux script: routes by a substring of each agent's first message. */
	script(routes: Record<string, FauxTurn[]>): Promise<void>;
	/** Every model request so far. */
	requests(): FauxRequest[];
	/** Runtime options for this world (own registry unless given). */
	options(extra?: Partial<CrewRuntimeOptions>): CrewRuntimeOptions;
	/** A runtime that is shut down when the test ends. */
	runtime(extra?: Partial<CrewRuntimeOptions>): CrewRuntime;
}

export const WORKER: AgentDefinition = {
	name: "worker",
	description: "Does what its task says.",
	systemPrompt: "You are a worker on a test team.",
	file: "<test>",
	layer: "builtin",
};

/** A one-role team whose steps are played by WORKER. */
export function team(
	name: string,
	steps: { id: string; instructions: string; dependsOn?: string[] }[],
	concurrency?: number,
): TeamDefinition {
	return {
		name,
		description: "test team",
		roles: [{ role: "worker", agent: "worker" }],
		workflow: steps.map((s) => ({
			id: s.id,
			role: "worker",
			dependsOn: s.dependsOn ?? [],
			instructions: s.instructions,
		})),
		workspaceMode: "single",
		...(concurrency === undefined ? {} : { concurrency }),
		notes: "",
		file: "<test>",
		layer: "builtin",
	};
}

/** A catalog holding WORKER only. */
export const CATALOG = new DefinitionCatalog(new Map([["worker", WORKER]]), new Map(), []);

/** A bash call that keeps the agent busy (and live) for `seconds`. */
export function busy(seconds: number): FauxTurn {
	return { toolCalls: [{ name: "bash", arguments: { command: `sleep ${seconds}` } }] };
}

/** A bash turn that waits until the file `gate` exists (the test decides when the agent moves on). */
export function waitFor(gate: string): FauxTurn {
	return { toolCalls: [{ name: "bash", arguments: { command: `while [ ! -e '${gate}' ]; do sleep 0.05; done` } }] };
}

/** A turn whose bash call starts `sleep <seconds>` in a session of its own, outside the agent's process tree. */
export function detached(seconds: number): FauxTurn {
	return { toolCalls: [{ name: "bash", arguments: { command: `setsid sleep ${seconds} >/dev/null 2>&1 &` } }] };
}

export async function crewFixture(t: TestContext, prefix = "crew-rt-"): Promise<CrewFixture> {
	const root = await realpath(await mkdtemp(join(tmpdir(), prefix)));
	const runtimes: CrewRuntime[] = [];
	t.after(async () => {
		await Promise.all(runtimes.map((r) => r.shutdown()));
		await rm(root, { recursive: true, force: true });
	});
	const ws = join(root, "ws");
	const agentDir = join(root, "agent");
	await mkdir(ws);
	await mkdir(agentDir);
	await writeAgentSettings(agentDir);
	const scriptFile = join(root, "script.json");
	const logFile = join(root, "faux.log");
	await writeFauxScript(scriptFile, []);
	const env = piEnv(agentDir, { PI_FAUX_SCRIPT: scriptFile, PI_FAUX_LOG: logFile });
	const fixture: CrewFixture = {
		root,
		ws,
		agentDir,
		scriptFile,
		logFile,
		env,
		script: async (routes) => {
			await writeFauxScript(scriptFile, { routes: Object.entries(routes).map(([match, turns]) => ({ match, turns })) });
		},
		requests: () => {
			let text = "";
			try {
				text = readFileSync(logFile, "utf8");
			} catch {
				return [];
			}
			return text
				.split("\n")
				.filter((line) => line.trim() !== "")
				.map((line) => JSON.parse(line) as FauxRequest);
		},
		options: (extra = {}) => ({
			registry: new LiveAgentRegistry(),
			env,
			piArgs: ["-e", FAUX_MODEL_EXTENSION, "--no-skills", "--no-context-files"],
			defaultModel: { provider: "pi-faux", model: "scripted" },
			...extra,
			limits: { noOutputTimeoutMs: 30_000, ...extra.limits },
		}),
		runtime: (extra = {}) => {
			const runtime = new CrewRuntime(fixture.options(extra));
			runtimes.push(runtime);
			return runtime;
		},
	};
	return fixture;
}

/**
 * Subscribes now and returns a promise of the first event of `scope` that satisfies `predicate` (rejected after
 * `timeoutMs`). Subscribe before causing the event.
 */
export async function eventWaiter(
	runtime: CrewRuntime,
	scope: SessionScope,
	predicate: (event: CrewEvent) => boolean,
	timeoutMs = 30_000,
): Promise<{ event: Promise<CrewEvent> }> {
	let resolve: (event: CrewEvent) => void = () => {};
	const event = new Promise<CrewEvent>((r) => {
		resolve = r;
	});
	const unsubscribe = await runtime.subscribe(scope, (e) => {
		if (predicate(e)) resolve(e);
	});
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`no matching crew event within ${timeoutMs} ms`)), timeoutMs);
	});
	const settled = Promise.race([event, timeout]).finally(() => {
		clearTimeout(timer);
		unsubscribe();
	});
	settled.catch(() => {});
	return { event: settled };
}

function commandLine(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
	} catch {
		return "";
	}
}

/**
 * The descendants of `pid` once one of them runs a command containing `command` (a tool's process appears a
 * moment after the tool-start event); fails after 10 s.
 */
/** The processes whose command line contains `command` and whose environment holds `entry`. */
export async function runningWith(entry: string, command: string): Promise<number[]> {
	return (await processesWithEnvironment([entry])).filter((pid) => commandLine(pid).includes(command));
}

export async function treeRunning(pid: number, command: string): Promise<number[]> {
	for (let i = 0; i < 200; i++) {
		const tree = await descendantPids(pid);
		if (tree.some((p) => commandLine(p).includes(command))) return tree;
		await sleep(50);
	}
	throw new Error(`no process running "${command}" below ${pid}`);
}

/** The pid of a process that has exited (a run owner that is dead). */
export async function deadPid(): Promise<number> {
	const child = spawn("true", { stdio: "ignore" });
	await once(child, "exit");
	return child.pid as number;
}

/**
 * A run of `steps` (played by WORKER) in workspace `ws`, left by session `sessionId`: by default interrupted and
 * owned by a process that has died, what a forced request of another session may take over. `stuck` leaves it
 * running instead, owned by this process with its tasks marked running (what a shutdown that could not write
 * its state leaves behind).
 */
export async function orphanedRun(
	ws: string,
	sessionId: string,
	steps: { id: string; instructions: string; dependsOn?: string[] }[],
	options: { stuck?: boolean } = {},
): Promise<RunSnapshot> {
	const store = await RunStore.open(ws);
	const input = { cwd: ws, sessionId, team: team("orphaned", steps), goal: "Left behind", catalog: CATALOG };
	const plan = planRun(input, CATALOG, { depth: 0, hasWorktreeHook: false });
	const ownerPid = options.stuck ? process.pid : await deadPid();
	const { manifest, tasks } = await store.createRun({ ...plan, ownerPid });
	await store.updateManifest(manifest.runId, { status: options.stuck ? "running" : "interrupted" });
	if (options.stuck) for (const task of tasks) await store.updateTask(manifest.runId, task.id, { status: "running" });
	return store.readRun(manifest.runId);
}
