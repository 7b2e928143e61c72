import { readdir, readFile, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { type AgentDefinition, type DefinitionLayer, parseAgentDefinition } from "./agent.ts";
import { DefinitionError } from "./errors.ts";
import { readFrontMatter } from "./front-matter.ts";
import { type DefinitionSources, definitionDirs } from "./locations.ts";
import { parseTeamDefinition, type TeamDefinition } from "./team.ts";

/** Why a definition file is not in the catalog. */
export interface DefinitionProblem {
	/** invalid: could not be parsed or validated; shadowing: reuses a name from an earlier layer; duplicate: reuses
	 * a name within its own layer; unreadable: the file or folder could not be read. */
	kind: "invalid" | "shadowing" | "duplicate" | "unreadable";
	what: "agent" | "team";
	layer: DefinitionLayer;
	file: string;
	/** The name the file declares (or its file name when the name could not be read). */
	name: string;
	message: string;
}

const MAX_FILE_BYTES = 256 * 1024;

type Parsed<T> = { ok: T } | { problem: DefinitionProblem };

async function markdownFiles(dir: string): Promise<string[]> {
	try {
		const entries = await readdir(dir, { withFileTypes: true });
		return entries
			.filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.endsWith(".md"))
			.map((e) => join(dir, e.name))
			.sort();
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
		throw error;
	}
}

function declaredName(text: string, file: string): string {
	try {
		const { data } = readFrontMatter(text, file);
		const name = (data as { name?: unknown } | null)?.name;
		if (typeof name === "string" && name.trim() !== "") return name;
	} catch {
		// The file's own error is reported; the file name stands in for the name.
	}
	return basename(file, ".md");
}

async function parseFile<T>(
	file: string,
	what: "agent" | "team",
	layer: DefinitionLayer,
	parse: (text: string, file: string, layer: DefinitionLayer) => T,
): Promise<Parsed<T>> {
	let text: string;
	try {
		const info = await stat(file);
		// A symlink may lead to anything; reading a FIFO would wait for a writer forever.
		if (!info.isFile()) throw new Error("not a regular file");
		if (info.size > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES} bytes`);
		text = await readFile(file, "utf8");
	} catch (error) {
		const message = `${file}: cannot be read (${(error as Error).message})`;
		return { problem: { kind: "unreadable", what, layer, file, name: basename(file, ".md"), message } };
	}
	try {
		return { ok: parse(text, file, layer) };
	} catch (error) {
		const message = error instanceof DefinitionError ? error.message : `${file}: ${(error as Error).message}`;
		return { problem: { kind: "invalid", what, layer, file, name: declaredName(text, file), message } };
	}
}

/**
 * The agents and teams that can be used, and the problems of the files that cannot. Lookups throw clear errors:
 * an unknown name lists the known ones; a name whose file is broken gives that file's error.
 */
export class DefinitionCatalog {
	readonly agents: ReadonlyMap<string, AgentDefinition>;
	readonly teams: ReadonlyMap<string, TeamDefinition>;
	readonly problems: readonly DefinitionProblem[];

	constructor(agents: Map<string, AgentDefinition>, teams: Map<string, TeamDefinition>, problems: DefinitionProblem[]) {
		this.agents = agents;
		this.teams = teams;
		this.problems = problems;
	}

	#lookup<T>(what: "agent" | "team", map: ReadonlyMap<string, T>, name: string): T {
		const found = map.get(name);
		if (found !== undefined) return found;
		const broken = this.problems.find((p) => p.what === what && p.name === name && p.kind !== "shadowing");
		if (broken) throw new Error(`${what} "${name}" cannot be used: ${broken.message}`);
		const known = [...map.keys()].sort().join(", ") || "none";
		throw new Error(`unknown ${what} "${name}"; known ${what}s: ${known}`);
	}

	/** The agent named `name`, or an Error naming the known agents (or the broken file). */
	agent(name: string): AgentDefinition {
		return this.#lookup("agent", this.agents, name);
	}

	/** The team named `name`, or an Error naming the known teams (or the broken file). */
	team(name: string): TeamDefinition {
		return this.#lookup("team", this.teams, name);
	}

	/** The agent that plays each role of `team`, by role. */
	teamAgents(team: TeamDefinition): Map<string, AgentDefinition> {
		return new Map(team.roles.map(({ role, agent }) => [role, this.agent(agent)]));
	}
}

async function loadLayered<T extends { name: string; file: string; layer: DefinitionLayer }>(
	what: "agent" | "team",
	sources: DefinitionSources,
	parse: (text: string, file: string, layer: DefinitionLayer) => T,
	problems: DefinitionProblem[],
): Promise<Map<string, T>> {
	const found = new Map<string, T>();
	for (const { layer, dir } of definitionDirs(sources)) {
		const folder = join(dir, `${what}s`);
		let files: string[];
		try {
			files = await markdownFiles(folder);
		} catch (error) {
			const message = `${folder}: cannot be read (${(error as Error).message})`;
			problems.push({ kind: "unreadable", what, layer, file: folder, name: "", message });
			continue;
		}
		for (const file of files) {
			const parsed = await parseFile(file, what, layer, parse);
			if ("problem" in parsed) {
				problems.push(parsed.problem);
				continue;
			}
			const definition = parsed.ok;
			const earlier = found.get(definition.name);
			if (earlier === undefined) {
				found.set(definition.name, definition);
				continue;
			}
			const kind = earlier.layer === layer ? "duplicate" : "shadowing";
			const message =
				kind === "duplicate"
					? `${file}: ${what} "${definition.name}" is also defined by ${earlier.file}; this file is ignored`
					: `${file}: ${layer} ${what} "${definition.name}" would shadow the ${earlier.layer} one (${earlier.file}); it is ignored, give it another name`;
			problems.push({ kind, what, layer, file, name: definition.name, message });
		}
	}
	return found;
}

/**
 * Loads definitions from the built-in, user and project layers, in that order. A later layer may add names but
 * never replace an earlier one (reported as shadowing); a team whose roles name an unusable agent is reported and
 * left out. Nothing on disk is changed.
 */
export async function loadDefinitions(sources: DefinitionSources = {}): Promise<DefinitionCatalog> {
	const problems: DefinitionProblem[] = [];
	const agents = await loadLayered("agent", sources, parseAgentDefinition, problems);
	const teams = await loadLayered("team", sources, parseTeamDefinition, problems);
	for (const team of [...teams.values()]) {
		const index = team.roles.findIndex(({ agent }) => !agents.has(agent));
		const missing = team.roles[index];
		if (missing === undefined) continue;
		const broken = problems.find((p) => p.what === "agent" && p.name === missing.agent && p.kind !== "shadowing");
		const why = broken
			? `agent "${missing.agent}" cannot be used (${broken.message})`
			: `unknown agent "${missing.agent}"; known agents: ${[...agents.keys()].sort().join(", ") || "none"}`;
		const error = new DefinitionError(team.file, why, `roles[${index}].agent`);
		teams.delete(team.name);
		problems.push({
			kind: "invalid",
			what: "team",
			layer: team.layer,
			file: team.file,
			name: team.name,
			message: error.message,
		});
	}
	return new DefinitionCatalog(agents, teams, problems);
}
