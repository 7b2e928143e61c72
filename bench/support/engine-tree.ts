// Writes what the engine reads of one commit's tree into a directory, so a benchmark can index a repository's past
// states without a checkout: the repository (bare or not) is only read.
import { mkdirSync, readdirSync, rmdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { languageOf } from "../../packages/fovea/src/engine/index.ts";
import { IMPORT_SETTINGS_FILES } from "./engine-internals.ts";
import { git, materialize } from "./git.ts";

/** Besides sources and import settings: ignore rules, which decide what the engine indexes. */
const OTHER_FILES = new Set([".gitignore"]);

/** Past this many changed paths a full write is as cheap as an update. */
const MAX_UPDATE_PATHS = 4000;
/** Pathspecs per `git archive` call, well under any command-line limit. */
const PATHSPECS_PER_CALL = 500;

/** Whether the engine reads `path`: a supported source, an ignore file or an import settings file. */
export function enginePath(path: string): boolean {
	const name = path.slice(path.lastIndexOf("/") + 1);
	return OTHER_FILES.has(name) || IMPORT_SETTINGS_FILES.has(name) || languageOf(path) !== undefined;
}

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
		if (path === "" || !enginePath(path)) continue;
		const name = path.slice(path.lastIndexOf("/") + 1);
		if (languageOf(path) === undefined) patterns.add(`:(literal)${path}`);
		else patterns.add(`*${name.slice(name.lastIndexOf("."))}`);
	}
	if (patterns.size > 0) await materialize(repo, commit, into, [...patterns]);
}

/**
 * Turns `into`, holding `writeTree(repo, from)`, into `writeTree(repo, to)` by writing only the paths that differ
 * (deleted ones removed, the others extracted again, so they get a new mtime and the engine reads them). Falls back to
 * a full write when the trees differ in too many paths. The result is the same files as a full write.
 */
export async function updateTree(repo: string, from: string, to: string, into: string): Promise<"updated" | "written"> {
	const diff = await git(repo, ["diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to]);
	const fields = diff.split("\0");
	if (fields.length / 2 > MAX_UPDATE_PATHS) {
		await writeTree(repo, to, into);
		return "written";
	}
	const write: string[] = [];
	for (let i = 0; i + 1 < fields.length; i += 2) {
		const status = fields[i] as string;
		const path = fields[i + 1] as string;
		if (status === "" || !enginePath(path)) continue;
		// Removed first in every case: a type change (file ↔ symlink) must not extract onto the old entry.
		rmSync(join(into, path), { recursive: true, force: true });
		if (status !== "D") write.push(`:(literal)${path}`);
		else removeEmptyParents(into, path);
	}
	for (let i = 0; i < write.length; i += PATHSPECS_PER_CALL) {
		await materialize(repo, to, into, write.slice(i, i + PATHSPECS_PER_CALL));
	}
	return "updated";
}

/** Removes the directories of `path` that a deletion left empty, as a full write would not create them. */
function removeEmptyParents(into: string, path: string): void {
	for (let dir = dirname(path); dir !== "." && dir !== ""; dir = dirname(dir)) {
		const full = join(into, dir);
		try {
			if (readdirSync(full).length > 0) return;
			rmdirSync(full);
		} catch {
			return;
		}
	}
}
