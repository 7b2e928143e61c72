import { lstat, mkdir, realpath } from "node:fs/promises";
import { join } from "node:path";

/**
 * Folders pi-crew writes into inside a root it was given (`.pi/crew/runs` for run state, `.worktrees/<runId>` for
 * task worktrees) must be real folders there. A repository can check in a symbolic link at any of them, and an agent
 * can make one; following it would put run state, or a task's checkout, and everything later written into it,
 * anywhere on disk.
 */

/** What is wrong with one folder of the chain: a link, something that is not a folder, or a path leading elsewhere. */
export type FolderProblem = "a symbolic link" | "not a folder" | { resolvesTo: string };

/** How to walk the chain. */
export interface RealFoldersOptions {
	/** Create missing folders (one at a time, never following a link); otherwise a missing folder ends the walk. */
	create: boolean;
	/** The error to throw for `dir`, which has `problem`. */
	refuse: (dir: string, problem: FolderProblem) => Error;
}

/**
 * Walks `root/parts[0]/parts[1]/…`, refusing any folder of it that is a symbolic link, not a folder, or whose real
 * path is not itself (`root` must be canonical). Returns the last folder, or undefined when (without `create`) part
 * of the chain does not exist yet, so there is nothing to read.
 */
export async function requireRealFolders(
	root: string,
	parts: readonly string[],
	options: RealFoldersOptions,
): Promise<string | undefined> {
	let dir = root;
	for (const part of parts) {
		dir = join(dir, part);
		if ((await lstat(dir).catch(() => undefined)) === undefined) {
			if (!options.create) return undefined;
			await mkdir(dir).catch((error: NodeJS.ErrnoException) => {
				if (error.code !== "EEXIST") throw error;
			});
		}
		const info = await lstat(dir);
		if (info.isSymbolicLink()) throw options.refuse(dir, "a symbolic link");
		if (!info.isDirectory()) throw options.refuse(dir, "not a folder");
		const real = await realpath(dir);
		if (real !== dir) throw options.refuse(dir, { resolvesTo: real });
	}
	return dir;
}

/** The problem in words: "is a symbolic link", "is not a folder", "resolves to <path>". */
export function folderProblemText(problem: FolderProblem): string {
	return typeof problem === "string" ? `is ${problem}` : `resolves to ${problem.resolvesTo}`;
}
