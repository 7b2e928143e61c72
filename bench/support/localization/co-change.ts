// The co-change baseline: how often each file changed together with the query file in the commits before a case, as
// `git log` tells it. Only the case's parent and its ancestors are read, so the case's own commit and everything
// after it never count.
import { git } from "../git.ts";

/** Commits that change more files than this are imports, mass renames or reformatting: they couple nothing. */
export const HUGE_COMMIT_FILES = 30;

/**
 * The file sets of the newest `window` non-merge commits reachable from `parent` (the case's parent, so all strictly
 * older than the case), newest first, commits touching more than `HUGE_COMMIT_FILES` files left out.
 */
export async function historyBefore(repo: string, parent: string, window: number): Promise<string[][]> {
	const log = await git(repo, [
		"log",
		"--no-merges",
		"--no-renames",
		"--name-only",
		"-z",
		"--format=%x1e",
		`-n${window}`,
		parent,
	]);
	const commits: string[][] = [];
	for (const chunk of log.split("\x1e")) {
		const files = chunk
			.split("\0")
			.map((f) => f.replace(/^\n/, ""))
			.filter((f) => f !== "");
		if (files.length > 0 && files.length <= HUGE_COMMIT_FILES) commits.push(files);
	}
	return commits;
}

/**
 * Files that changed with `file` in `history` (newest first), most co-changes first; ties by the more recent
 * co-change, then path. Pure.
 */
export function coChangeRanking(history: readonly (readonly string[])[], file: string): string[] {
	const counts = new Map<string, { n: number; newest: number }>();
	history.forEach((files, age) => {
		if (!files.includes(file)) return;
		for (const other of files) {
			if (other === file) continue;
			const entry = counts.get(other);
			if (entry === undefined) counts.set(other, { n: 1, newest: age });
			else entry.n++;
		}
	});
	return [...counts]
		.sort(([pa, a], [pb, b]) => b.n - a.n || a.newest - b.newest || (pa < pb ? -1 : pa > pb ? 1 : 0))
		.map(([path]) => path);
}
