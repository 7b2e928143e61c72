import { stat } from "node:fs/promises";
import { sep } from "node:path";
import { canonicalPath } from "pi-fovea/canonical-path";
import { forcedConfigFrom, GUARDED_CONFIG_PATTERN } from "pi-fovea/git";
import { type GitWork, git } from "./run.ts";

/** Where a Git worktree lives and how every later call on it must be made. */
export interface Repository {
	/** The canonical top-level directory of the worktree. */
	root: string;
	/** This worktree's own Git directory (holds HEAD and the index; `.git/worktrees/<name>` for a linked one). */
	gitDir: string;
	/** The object format: object ids are 40 hex digits for sha1, 64 for sha256. */
	objectFormat: "sha1" | "sha256";
	/**
	 * Configuration forced on every call: the repository's filter drivers emptied, because Git runs a clean filter
	 * when it re-hashes a racily clean file, even in `git status`.
	 */
	forcedConfig: [string, string][];
	/**
	 * The index file a staged review reads instead of `<gitDir>/index`: the one Git hands a pre-commit hook in
	 * GIT_INDEX_FILE (`commit -a` and `commit <path>` stage into a lock or temporary index, not the index itself).
	 * Absolute and inside `gitDir`.
	 */
	indexFile?: string;
}

/** Shared options of the calls that open a repository. */
export interface OpenOptions {
	signal?: AbortSignal;
	work?: GitWork;
}

/**
 * `indexFile` as the repository's index, if it is a file inside `gitDir` (physically: no link leads out); else an
 * Error that names it. An index elsewhere is refused: a review reads only what belongs to the repository.
 */
export async function checkedIndexFile(indexFile: string, gitDir: string): Promise<string> {
	const [file, dir] = await Promise.all([canonicalPath(indexFile), canonicalPath(gitDir)]);
	if (!file.startsWith(`${dir}${sep}`))
		throw new Error(`the index file ${indexFile} is not inside the repository's Git directory ${dir}`);
	const info = await stat(file).catch(() => undefined);
	if (info?.isFile() !== true) throw new Error(`the index file ${indexFile} does not exist or is not a file`);
	return file;
}

/**
 * Opens the Git worktree that contains `path`, and resolves the object HEAD names at that moment (null on an unborn
 * branch) in the same Git process: references only, no object is read (see `resolveHead`). Refuses, with an Error
 * that says what is wrong: a path that does not exist (a deleted root) or is not a directory, a path outside any Git
 * repository, a bare repository or a Git directory (nothing to review), an unknown object format and a partial clone
 * (its promisor remote could fetch).
 */
export async function openRepository(
	path: string,
	options: OpenOptions = {},
): Promise<{ repo: Repository; head: string | null }> {
	const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
		if (error.code === "ENOENT") throw new Error(`${path} does not exist (was the root deleted or moved?)`);
		throw new Error(`cannot read ${path}: ${error.message}`);
	});
	if (!info.isDirectory()) throw new Error(`${path} is not a directory`);
	const [located, config] = await Promise.all([
		git(
			path,
			[
				"rev-parse",
				"--path-format=absolute",
				"--is-bare-repository",
				"--show-object-format",
				"--git-dir",
				"--show-toplevel",
				// Last: exit code 1 and no line when HEAD names nothing (an unborn branch), after the lines above.
				"--verify",
				"-q",
				"HEAD",
			],
			{ ...options, okCodes: [0, 1, 128] },
		),
		readGuardedConfig(path, options),
	]);
	const lines = located.stdout.toString("utf8").split("\n");
	if (located.code === 128 || lines[0] === "true") {
		if (/not a git repository/i.test(located.stderr)) throw new Error(`${path} is not inside a Git repository`);
		if (lines[0] === "true" || /must be run in a work tree/i.test(located.stderr))
			throw new Error(`${path} is a bare repository or a Git directory: there is no worktree to review`);
		throw new Error(`git rev-parse failed in ${path}: ${located.stderr || `exit code ${located.code}`}`);
	}
	const [, format, gitDir, toplevel, headLine] = lines;
	if (format !== "sha1" && format !== "sha256") throw new Error(`${path}: unsupported object format ${format}`);
	if (!gitDir || !toplevel) throw new Error(`git rev-parse gave no worktree for ${path}`);
	const head = located.code === 0 && headLine ? headLine : null;
	const root = await canonicalPath(toplevel);
	const forcedConfig = forcedConfigFrom(config, root);
	return { repo: { root, gitDir, objectFormat: format, forcedConfig }, head };
}

/**
 * Reads the repository's configuration (every scope, includes followed) for promisor remotes and filter drivers.
 * A partial clone is refused: Git 2.39 ignores GIT_NO_LAZY_FETCH, so reading a missing object could fetch it.
 * Returns the configuration that empties every filter driver found.
 */
export async function guardedConfig(root: string, options: OpenOptions = {}): Promise<[string, string][]> {
	return forcedConfigFrom(await readGuardedConfig(root, options), root);
}

/** The listing of every setting `forcedConfigFrom` judges, as Git reads it in `dir`. */
async function readGuardedConfig(dir: string, options: OpenOptions): Promise<string> {
	const result = await git(dir, ["config", "-z", "--get-regexp", GUARDED_CONFIG_PATTERN], {
		...options,
		okCodes: [0, 1],
	});
	return result.stdout.toString("utf8");
}
