/**
 * The `.gitignore` rules as the walk applies them: one level per directory that has an ignore file, the root's own
 * `.git/info/exclude` first, and a deeper file deciding when it has an opinion, as in Git. Shared by the full walk
 * and the path check, which must agree on what is ignored.
 */
import { lstat, readFile } from "node:fs/promises";
import { join, sep } from "node:path";
import ignore, { type Ignore } from "ignore";

/** An ignore file larger than this is not a real one; it is skipped rather than compiled. */
const MAX_IGNORE_FILE_BYTES = 256 * 1024;
const IGNORE_CASE = process.platform === "darwin" || process.platform === "win32";

/** The `.gitignore` rules of one directory; `base` is its root-relative path, `""` for the root. */
export interface IgnoreLevel {
	base: string;
	rules: Ignore;
}

/** Whether `rel` (a root-relative path, `/`-terminated for directories) is ignored by the levels above it. */
export function isIgnored(levels: readonly IgnoreLevel[], rel: string): boolean {
	let ignored = false;
	for (const level of levels) {
		const local = level.base === "" ? rel : rel.slice(level.base.length + 1);
		if (local === "" || local === "/") continue;
		let result: { ignored: boolean; unignored: boolean };
		try {
			result = level.rules.test(local);
		} catch {
			continue; // a path the ignore library cannot express: no rule applies
		}
		// A deeper ignore file decides when it has an opinion, as in Git.
		if (result.ignored) ignored = true;
		else if (result.unignored) ignored = false;
	}
	return ignored;
}

/**
 * The compiled rules of the ignore file at `path` (counted in `stats`), or `undefined` when there is no usable one:
 * missing, not a regular file, implausibly large, or not compilable.
 */
export async function readIgnoreRules(path: string, stats: { ignoreFilesRead: number }): Promise<Ignore | undefined> {
	let text: string;
	try {
		const info = await lstat(path);
		if (!info.isFile() || info.size > MAX_IGNORE_FILE_BYTES) return undefined;
		text = await readFile(path, "utf8");
	} catch {
		return undefined;
	}
	stats.ignoreFilesRead++;
	const known = compiled.get(path);
	compiled.delete(path);
	let rules: Ignore;
	if (known !== undefined && known.text === text) rules = known.rules;
	else {
		try {
			rules = ignore({ ignorecase: IGNORE_CASE }).add(text);
		} catch {
			return undefined;
		}
	}
	compiled.set(path, { text, rules });
	if (compiled.size > MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
	return rules;
}

/**
 * The compiled rules of each ignore file, by its path, while its text stays the same, so the next walk reuses them and
 * the answers they remember: the ignore library keeps each path's answer in the compiled rules, and matching every path
 * again is a noticeable share of a full walk. By path, so each one's remembered answers are those of its own
 * directory; the least recently read are dropped past the bound.
 */
const compiled = new Map<string, { text: string; rules: Ignore }>();
const MAX_COMPILED = 64;

/**
 * Ignore files under `root` whose compiled rules are remembered, with the answers they keep (one a path walked: ~1 MB
 * at 10,000 files).
 */
export function rememberedIgnoreFiles(root: string): number {
	let count = 0;
	for (const path of compiled.keys()) if (path.startsWith(`${root}${sep}`)) count++;
	return count;
}

/** Forgets the compiled rules of the ignore files under `root` (a root paged out): its next walk compiles them again. */
export function forgetIgnoreRules(root: string): void {
	for (const path of [...compiled.keys()]) if (path.startsWith(`${root}${sep}`)) compiled.delete(path);
}

/** The root's own rules: `.git/info/exclude` (repository-local excludes), then the root `.gitignore`. */
export async function rootIgnoreLevels(root: string, stats: { ignoreFilesRead: number }): Promise<IgnoreLevel[]> {
	const levels: IgnoreLevel[] = [];
	const exclude = await readIgnoreRules(join(root, ".git", "info", "exclude"), stats);
	if (exclude !== undefined) levels.push({ base: "", rules: exclude });
	const rules = await readIgnoreRules(join(root, ".gitignore"), stats);
	if (rules !== undefined) levels.push({ base: "", rules });
	return levels;
}
