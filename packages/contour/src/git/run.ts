import { type ForcedConfig, type GitOutput, type GitRunOptions, runGit } from "pi-fovea/git";

/**
 * How much work Git and the filesystem did for one caller, so tests can assert work counts instead of times.
 * Every function of this folder that spawns Git or reads content takes an optional counter and adds to it.
 */
export interface GitWork {
	/** Git processes spawned. */
	processes: number;
	/** Object headers asked of `git cat-file --batch-check` (sizes, existence). */
	objectsChecked: number;
	/** Blob contents read from the object database. */
	blobsRead: number;
	/** Bytes of those blob contents. */
	blobBytes: number;
	/** Worktree files whose bytes were read (hashed or decoded). */
	worktreeFilesRead: number;
	/** Bytes read from worktree files. */
	worktreeBytes: number;
}

/** A fresh counter with everything at zero. */
export function newGitWork(): GitWork {
	return { processes: 0, objectsChecked: 0, blobsRead: 0, blobBytes: 0, worktreeFilesRead: 0, worktreeBytes: 0 };
}

/** Options of one Contour Git call: the shared runner's, the repository's guard, and where to count the work. */
export interface GitCallOptions extends Pick<GitRunOptions, "input" | "signal" | "timeoutMs" | "okCodes" | "onStdout"> {
	/** The repository's guard (see `Repository.forcedConfig`), forced on this call. */
	forcedConfig?: ForcedConfig;
	/** The index file Git must read instead of its own (see `Repository.indexFile`); the only `GIT_*` let through. */
	indexFile?: string;
	work?: GitWork;
}

/** What a Git call printed and how it ended (only for exit codes in `okCodes`). */
export type GitResult = GitOutput;

/**
 * Runs one `git -C root …` through the shared runner of pi-fovea/git (its hardening, timer, signal and the clear
 * error for a Git that cannot start) and counts the process.
 */
export function git(root: string, args: readonly string[], options: GitCallOptions = {}): Promise<GitResult> {
	if (options.work) options.work.processes++;
	const { forcedConfig, indexFile, work: _work, ...rest } = options;
	const index = indexFile === undefined ? {} : { env: { GIT_INDEX_FILE: indexFile }, allowGitEnv: ["GIT_INDEX_FILE"] };
	return runGit(root, args, { ...rest, ...index, forced: forcedConfig });
}
