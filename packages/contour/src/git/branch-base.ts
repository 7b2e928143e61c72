/**
 * The base of a branch review: a revision the user names, checked to read as one, resolved to a commit and to its
 * merge base with HEAD; and the diff from that merge base to HEAD.
 */
import type { Repository } from "./repository.ts";
import { git } from "./run.ts";
import type { RepositoryState } from "./state.ts";

/** The flags of every raw diff a snapshot reads: NUL-separated, full object ids, no external diff or conversion. */
export const DIFF_FLAGS = ["-z", "--raw", "--no-abbrev", "--no-ext-diff", "--no-textconv"];

/** A base must read as a revision, never as an option or as several lines of batch input. */
export function checkedBase(base: string): void {
	// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
	if (base === "" || base.startsWith("-") || /[\x00-\x1f\x7f]/.test(base) || base.length > 1024)
		throw new Error(`not a usable base revision: ${JSON.stringify(base)}`);
}

/** The commit `ref` names and its merge base with HEAD; a clear error when there is none. */
export async function resolveBase(
	repo: Repository,
	state: RepositoryState,
	ref: string,
	calls: Parameters<typeof git>[2],
): Promise<{ ref: string; oid: string; mergeBase: string }> {
	if (state.head === null) throw new Error(`${repo.root} has no commits yet: a branch review needs a HEAD commit`);
	const resolved = await git(repo.root, ["rev-parse", "-q", "--verify", "--end-of-options", `${ref}^{commit}`], {
		...calls,
		okCodes: [0, 1],
	});
	if (resolved.code !== 0) throw new Error(`unknown base ${JSON.stringify(ref)} in ${repo.root}: it names no commit`);
	const oid = resolved.stdout.toString("utf8").trim();
	const merged = await git(repo.root, ["merge-base", oid, state.head], { ...calls, okCodes: [0, 1] });
	if (merged.code !== 0)
		throw new Error(`base ${JSON.stringify(ref)} and HEAD of ${repo.root} have no common ancestor`);
	return { ref, oid, mergeBase: merged.stdout.toString("utf8").trim() };
}

/** A branch review's diff: merge base→HEAD, renames paired. */
export function branchDiffArgs(base: { mergeBase: string }, head: string): string[] {
	return ["diff-tree", "-r", ...DIFF_FLAGS, "-M", base.mergeBase, head, "--"];
}
