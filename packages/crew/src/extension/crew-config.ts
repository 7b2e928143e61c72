import { readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { ModelChoice } from "../runtime/agent-launch.ts";
import type { PiCommand } from "../runtime/pi-command.ts";

/** How the extension starts sub-agents. Every field is optional; the environment fills in the rest. */
export interface CrewExtensionOptions {
	/** Base environment of agents and where PI_CREW_* settings are read. Default: process.env. */
	env?: NodeJS.ProcessEnv;
	/** How to start `pi`. Default: PI_CREW_PI_CLI, else the Pi running this extension, else the installed one. */
	pi?: PiCommand;
	/** Pi arguments for every agent. Default: PI_CREW_PI_ARGS (a JSON array of strings). */
	piArgs?: readonly string[];
	/** The model of agents whose definition names none. Default: PI_CREW_MODEL, else the coordinator's model. */
	model?: ModelChoice;
	/** This process's argv, for recognizing the Pi CLI that runs us. Default: process.argv. */
	argv?: readonly string[];
}

/** Environment variables the extension reads (besides the runtime's PI_CREW_* limits and PI_CREW_PI_CLI). */
export const CREW_EXTENSION_ENV = {
	/** Extra Pi arguments for every sub-agent, as a JSON array of strings (e.g. `["-e", "/path/ext.ts"]`). */
	piArgs: "PI_CREW_PI_ARGS",
	/** `provider/model` (or `model`) for agents whose definition names none, instead of the coordinator's. */
	model: "PI_CREW_MODEL",
} as const;

/** The extra agent arguments from PI_CREW_PI_ARGS; a malformed value is an error naming the variable. */
export function envPiArgs(env: NodeJS.ProcessEnv): string[] {
	const raw = env[CREW_EXTENSION_ENV.piArgs]?.trim();
	if (raw === undefined || raw === "") return [];
	let parsed: unknown;
	try {
		parsed = JSON.parse(raw);
	} catch (error) {
		throw new Error(`${CREW_EXTENSION_ENV.piArgs}: expected a JSON array of strings (${(error as Error).message})`);
	}
	if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === "string")) {
		throw new Error(`${CREW_EXTENSION_ENV.piArgs}: expected a JSON array of strings, got ${raw.slice(0, 80)}`);
	}
	return parsed;
}

/** A model choice from `provider/model` or `model`; undefined for blank text. */
export function parseModelChoice(text: string | undefined, what = CREW_EXTENSION_ENV.model): ModelChoice | undefined {
	const value = text?.trim();
	if (value === undefined || value === "") return undefined;
	const slash = value.indexOf("/");
	if (slash === -1) return { model: value };
	const provider = value.slice(0, slash);
	const model = value.slice(slash + 1);
	if (provider === "" || model === "") throw new Error(`${what}: expected provider/model or model, got ${value}`);
	return { provider, model };
}

const PI_PACKAGE = "@earendil-works/pi-coding-agent";

/**
 * The Pi CLI that runs this process, when `argv[1]` is one: the file a `pi` bin of an installed
 * `@earendil-works/pi-coding-agent` points at. Sub-agents then run the very same Pi as their coordinator.
 */
export function coordinatorPiCommand(argv: readonly string[]): PiCommand | undefined {
	const script = argv[1];
	if (script === undefined || script === "") return undefined;
	let file: string;
	try {
		file = realpathSync(script);
	} catch {
		return undefined;
	}
	for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
		let manifest: { name?: unknown; bin?: unknown };
		try {
			manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as typeof manifest;
		} catch {
			continue;
		}
		// A nameless package.json (such as `{"type": "module"}` in a dist folder) does not end the walk.
		if (manifest.name === undefined) continue;
		if (manifest.name !== PI_PACKAGE) return undefined;
		const bin =
			typeof manifest.bin === "string" ? manifest.bin : (manifest.bin as Record<string, unknown> | undefined)?.pi;
		if (typeof bin !== "string") return undefined;
		let target: string;
		try {
			target = realpathSync(resolve(dir, bin));
		} catch {
			return undefined;
		}
		return target === file ? { command: process.execPath, args: [file] } : undefined;
	}
	return undefined;
}
