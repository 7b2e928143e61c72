import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { DefinitionLayer } from "./agent.ts";

/**
 * The definitions shipped with pi-crew (`definitions/agents`, `definitions/teams` in the package): two folders up
 * from this module in the sources, one up from the bundled CLI (`dist/cli.js`, see `bin/crew.js`).
 */
export const BUILTIN_DEFINITIONS_DIR = fileURLToPath(
	new URL(import.meta.url.endsWith(".ts") ? "../../definitions" : "../definitions", import.meta.url),
);

/** Where to look for definitions. */
export interface DefinitionSources {
	/** The project root: project definitions live in `<root>/.pi/crew/{agents,teams}`. Omitted: no project layer. */
	root?: string;
	/** Pi's agent directory; user definitions live in `<agentDir>/crew/{agents,teams}`. Default: `resolveAgentDir()`. */
	agentDir?: string;
	/** Default: BUILTIN_DEFINITIONS_DIR. */
	builtinDir?: string;
	/** For the default agentDir. */
	env?: Record<string, string | undefined>;
	home?: string;
}

/** One layer's folder, holding `agents/` and `teams/`. */
export interface DefinitionDir {
	layer: DefinitionLayer;
	dir: string;
}

/** Pi's agent directory, as Pi finds it: PI_CODING_AGENT_DIR (with `~` expanded), else `~/.pi/agent`. */
export function resolveAgentDir(
	env: Record<string, string | undefined> = process.env,
	home: string = homedir(),
): string {
	const fromEnv = env.PI_CODING_AGENT_DIR?.trim();
	if (!fromEnv) return join(home, ".pi", "agent");
	if (fromEnv === "~") return home;
	if (fromEnv.startsWith("~/")) return join(home, fromEnv.slice(2));
	return resolve(fromEnv);
}

/** The layers in lookup order: built-in, user, project. */
export function definitionDirs(sources: DefinitionSources = {}): DefinitionDir[] {
	const dirs: DefinitionDir[] = [
		{ layer: "builtin", dir: sources.builtinDir ?? BUILTIN_DEFINITIONS_DIR },
		{ layer: "user", dir: join(sources.agentDir ?? resolveAgentDir(sources.env, sources.home), "crew") },
	];
	if (sources.root !== undefined) dirs.push({ layer: "project", dir: join(sources.root, ".pi", "crew") });
	return dirs;
}
