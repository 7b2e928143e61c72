/**
 * A scripted world for pi-crew tests through the real Pi host: sub-agents are real `pi --mode rpc` children of the
 * installed CLI with the faux model extension (one route per task marker, re-read at every request), an isolated
 * agent directory, gates (files a sub-agent's `bash` waits for, so a test decides when it moves on), and readers for
 * the faux model's request log and the run files. Import after `test/e2e/harness.ts`.
 */
import { readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { PiHost } from "../../../../../test/e2e/harness.ts";
import {
	FAUX_MODEL_EXTENSION,
	type FauxTurn,
	PI_CLI,
	writeAgentSettings,
} from "../../../../../test/e2e/support/pi-cli.ts";

export const CREW_EXTENSION = fileURLToPath(new URL("../../../src/extension/index.ts", import.meta.url));
export const CREW_CLI = fileURLToPath(new URL("../../../src/cli.ts", import.meta.url));
/** Pi arguments of every sub-agent: the scripted model and nothing from the machine. */
export const AGENT_PI_ARGS = ["-e", FAUX_MODEL_EXTENSION, "--no-skills", "--no-context-files"];

/** One request the faux model answered (see faux-model-extension.ts). */
export interface FauxRequest {
	pid: number;
	route: string | null;
	index: number;
	firstUser: string;
	lastUser: string;
}

/** The settings of sub-agents and of the crew extension, as environment variables. */
export interface CrewEnv {
	PI_CREW_PI_CLI: string;
	PI_CREW_PI_ARGS: string;
	PI_CREW_MODEL: string;
	PI_FAUX_SCRIPT: string;
	PI_FAUX_LOG: string;
	PI_CODING_AGENT_DIR: string;
	PI_CREW_NO_OUTPUT_TIMEOUT_MS: string;
}

/** The scripted world of one test file. */
export interface CrewWorld {
	root: string;
	agentDir: string;
	scriptFile: string;
	logFile: string;
	/** The environment of sub-agents (also set on this process, which the in-process hosts' extensions read). */
	env: CrewEnv;
	/** Sets the turns of the agents whose first message contains `match`, keeping every other route. */
	route(match: string, turns: FauxTurn[]): Promise<void>;
	/** A bash turn that waits until `open(name)` was called. */
	gate(name: string): FauxTurn;
	open(name: string): Promise<void>;
	requests(route?: string): FauxRequest[];
}

/** Creates the world under `root` and points this process's environment at it. */
export async function crewWorld(root: string): Promise<CrewWorld> {
	const agentDir = join(root, "agent");
	await mkdir(join(root, "gates"), { recursive: true });
	await mkdir(agentDir, { recursive: true });
	await writeAgentSettings(agentDir);
	const scriptFile = join(root, "script.json");
	const logFile = join(root, "faux.log");
	const routes = new Map<string, FauxTurn[]>();
	let writing = Promise.resolve();
	const env: CrewEnv = {
		PI_CREW_PI_CLI: PI_CLI,
		PI_CREW_PI_ARGS: JSON.stringify(AGENT_PI_ARGS),
		PI_CREW_MODEL: "pi-faux/scripted",
		PI_FAUX_SCRIPT: scriptFile,
		PI_FAUX_LOG: logFile,
		PI_CODING_AGENT_DIR: agentDir,
		PI_CREW_NO_OUTPUT_TIMEOUT_MS: "300000",
	};
	Object.assign(process.env, env);
	const world: CrewWorld = {
		root,
		agentDir,
		scriptFile,
		logFile,
		env,
		route(match, turns) {
			routes.set(match, turns);
			const text = `${JSON.stringify({ routes: [...routes].map(([m, t]) => ({ match: m, turns: t })) }, null, 1)}\n`;
			// Agents re-read the script at every request: replace it whole, never leave a half-written file.
			writing = writing.then(async () => {
				await writeFile(`${scriptFile}.tmp`, text);
				await rename(`${scriptFile}.tmp`, scriptFile);
			});
			return writing;
		},
		gate(name) {
			const file = join(root, "gates", name);
			return {
				toolCalls: [
					{ name: "bash", arguments: { command: `while [ ! -e '${file}' ]; do sleep 0.05; done; echo open` } },
				],
			};
		},
		open: (name) => writeFile(join(root, "gates", name), "open\n"),
		requests(route) {
			let text = "";
			try {
				text = readFileSync(logFile, "utf8");
			} catch {
				return [];
			}
			const all = text
				.split("\n")
				.filter((line) => line.trim() !== "")
				.map((line) => JSON.parse(line) as FauxRequest);
			return route === undefined ? all : all.filter((r) => r.route === route);
		},
	};
	await world.route("(unused)", []);
	return world;
}

/** Polls `probe` until it returns a value other than undefined/false; fails with `what` after `timeoutMs`. */
export async function until<T>(
	probe: () => T | undefined | false | Promise<T | undefined | false>,
	what: string,
	timeoutMs = 60_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(100);
	}
}

/** Writes an agent `worker` and the given teams (`name` → front matter lines after name/description) into `ws`. */
export async function writeDefinitions(ws: string, teams: Record<string, string>): Promise<void> {
	await mkdir(join(ws, ".pi", "crew", "agents"), { recursive: true });
	await mkdir(join(ws, ".pi", "crew", "teams"), { recursive: true });
	await writeFile(
		join(ws, ".pi", "crew", "agents", "worker.md"),
		"---\nname: worker\ndescription: Does what its task says.\n---\nYou are a worker on a test team.\n",
	);
	for (const [name, body] of Object.entries(teams)) {
		await writeFile(
			join(ws, ".pi", "crew", "teams", `${name}.md`),
			`---\nname: ${name}\ndescription: test team ${name}\n${body}\n---\n`,
		);
	}
}

/** The manifest and tasks of a run, read from disk (as the outside world sees them). */
export async function readRun(
	ws: string,
	runId: string,
): Promise<{ manifest: Record<string, unknown>; tasks: Record<string, unknown>[] }> {
	const dir = join(ws, ".pi", "crew", "runs", runId);
	const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as Record<string, unknown>;
	const tasks = JSON.parse(await readFile(join(dir, "tasks.json"), "utf8")) as { tasks: Record<string, unknown>[] };
	return { manifest, tasks: tasks.tasks };
}

/** The run ids of a workspace (folders under .pi/crew/runs). */
export async function runIds(ws: string): Promise<string[]> {
	return (await readdir(join(ws, ".pi", "crew", "runs")).catch(() => [] as string[])).filter((n) => !n.startsWith("."));
}

/** One `team` tool call through the scripted coordinator; returns the tool result. */
export async function team(
	host: PiHost,
	args: Parameters<PiHost["runTools"]>[0][number]["arguments"],
): Promise<{ text: string; isError: boolean; details: Record<string, unknown> }> {
	const run = await host.runTools([{ name: "team", arguments: args }], { allowErrors: true });
	const result = run.toolResults.find((r) => r.toolName === "team");
	if (!result) throw new Error(`no team result for ${JSON.stringify(args)}`);
	return { text: result.text, isError: result.isError, details: (result.details ?? {}) as Record<string, unknown> };
}

/** The pi-crew widget lines the host shows now (undefined when cleared). */
export function widget(host: PiHost): string[] | undefined {
	return host.ui.widgets.get("pi-crew");
}

/** Every line the pi-crew widget ever showed on `host`. */
export function widgetHistory(host: PiHost): string[] {
	return host.ui.log.flatMap((e) => (e.kind === "widget" && e.key === "pi-crew" ? (e.lines ?? []) : []));
}
