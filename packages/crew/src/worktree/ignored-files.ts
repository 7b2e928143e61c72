import { nulSplit } from "pi-fovea/git";
import { type GitOptions, gitOut } from "./git.ts";

/** At most this many ignored paths are named; the rest are counted. */
export const IGNORED_NAMED_LIMIT = 20;

/** The ignored files of a task worktree: some named, all counted. */
export interface IgnoredFiles {
	/** The first paths in Git's order (a folder that is ignored as a whole is one entry ending in `/`). */
	named: string[];
	count: number;
}

/**
 * The files in the task worktree at `path` that Git ignores (`.env`, `build/`, `node_modules/`). A task worktree
 * starts as a checkout, which writes tracked files only, so each of these was written since it was made, by the
 * task: removing the worktree would delete them without their ever being in Git, which is why cleanup keeps a
 * worktree that holds any. `ls-files` reads the index and the folders and runs no filter or other program; a folder
 * ignored as a whole is one entry, and at most IGNORED_NAMED_LIMIT paths are named, so a huge build output stays one
 * short line.
 */
export async function ignoredFiles(path: string, options: GitOptions = {}): Promise<IgnoredFiles> {
	const out = await gitOut(
		path,
		["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--no-empty-directory"],
		options,
	);
	const all = nulSplit(out);
	return { named: all.slice(0, IGNORED_NAMED_LIMIT), count: all.length };
}

/** `a, b, c` or `a, b, … and 7 more`. */
export function ignoredFilesText(ignored: IgnoredFiles): string {
	const more = ignored.count - ignored.named.length;
	return `${ignored.named.join(", ")}${more > 0 ? `, … and ${more} more` : ""}`;
}
