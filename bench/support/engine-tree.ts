// Writes what the engine reads of one commit's tree into a directory, so a benchmark can index a repository's past
// states without a checkout: the repository (bare or not) is only read.
import { mkdirSync, rmSync } from "node:fs";
import { languageOf } from "../../packages/fovea/src/engine/index.ts";
import { IMPORT_SETTINGS_FILES } from "./engine-internals.ts";
import { git, materialize } from "./git.ts";

/** Besides sources and import settings: ignore rules, which decide what the engine indexes. */
const OTHER_FILES = new Set([".gitignore"]);

/**
 * Writes the supported sources, `.gitignore`s and import settings files of `commit`'s tree into `into` (emptied
 * first), through `git archive | tar -x` (see `materialize`): no checkout, no filter or hook of the repository runs.
 */
export async function writeTree(repo: string, commit: string, into: string): Promise<void> {
	rmSync(into, { recursive: true, force: true });
	mkdirSync(into, { recursive: true });
	const listing = await git(repo, ["ls-tree", "-r", "-z", "--name-only", commit]);
	const patterns = new Set<string>();
	for (const path of listing.split("\0")) {
		if (path === "") continue;
		const name = path.slice(path.lastIndexOf("/") + 1);
		if (OTHER_FILES.has(name) || IMPORT_SETTINGS_FILES.has(name)) patterns.add(`:(literal)${path}`);
		else if (languageOf(path) !== undefined) patterns.add(`*${name.slice(name.lastIndexOf("."))}`);
	}
	if (patterns.size > 0) await materialize(repo, commit, into, [...patterns]);
}
