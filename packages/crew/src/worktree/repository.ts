import { realpath, stat } from "node:fs/promises";
import { parseStatusV2, statusPaths } from "pi-fovea/git";
import { WorktreeError } from "./errors.ts";
import { type GitOptions, gitOut, runCrewGit } from "./git.ts";
import { parseWorktreeList, type WorktreeRecord } from "./porcelain.ts";

/** The Git repository that owns a workspace, all paths canonical (realpaths). */
export interface Repository {
	/** The top level of the working tree that contains the workspace: where `.worktrees/` goes. */
	root: string;
	/** The repository's common Git directory (shared by all its worktrees). */
	commonDir: string;
	/** The Git directory of `root` itself (the common one for the main worktree). */
	gitDir: string;
}

/**
 * Finds the repository of the workspace `cwd`. A folder that does not exist, is not inside a Git working tree, or
 * belongs to a bare repository is an error naming it; so is a partial clone, since checking one out could fetch.
 */
export async function openRepository(cwd: string, options: GitOptions = {}): Promise<Repository> {
	if (typeof cwd !== "string" || cwd === "") {
		throw new WorktreeError("invalid-input", `workspace must be a folder path, got ${JSON.stringify(cwd)}`);
	}
	const info = await stat(cwd).catch(() => undefined);
	if (!info?.isDirectory())
		throw new WorktreeError("invalid-input", `workspace ${cwd} does not exist or is not a folder`);
	const found = await runCrewGit(
		cwd,
		["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir", "--git-dir"],
		{ ...options, okCodes: [0, 128] },
	);
	const [root, commonDir, gitDir] = found.stdout.split("\n");
	if (found.code !== 0 || !root || !commonDir || !gitDir) {
		throw new WorktreeError(
			"not-a-repository",
			`workspace ${cwd} is not inside a Git working tree, so worktree mode cannot isolate its tasks (use workspace mode "single"): ${found.stderr || "no top level"}`,
		);
	}
	// A partial clone was refused by the guard of the call above (see git.ts).
	return { root: await realpath(root), commonDir: await realpath(commonDir), gitDir: await realpath(gitDir) };
}

/** Every worktree registered in the repository of `root`. */
export async function worktreeRecords(root: string, options: GitOptions = {}): Promise<WorktreeRecord[]> {
	return parseWorktreeList(await gitOut(root, ["worktree", "list", "--porcelain", "-z"], options));
}

/**
 * The uncommitted paths of the worktree at `path` (names only, compared and listed, so read as UTF-8): staged, modified, deleted and untracked files (ignored files
 * are not work), and submodules with changes of their own. With `tracked`, untracked files are left out.
 */
export async function dirtyPaths(path: string, options: GitOptions & { tracked?: boolean } = {}): Promise<string[]> {
	const untracked = options.tracked ? "--untracked-files=no" : "--untracked-files=all";
	const out = await runCrewGit(
		path,
		["status", "--porcelain=v2", "-z", untracked, "--ignore-submodules=none"],
		options,
	);
	return statusPaths(parseStatusV2(Buffer.from(out.stdout, "utf8")));
}

/** The commit a revision names, or undefined when it names none. */
export async function resolveCommit(root: string, rev: string, options: GitOptions = {}): Promise<string | undefined> {
	const out = await runCrewGit(root, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`], {
		...options,
		okCodes: [0, 1, 128],
	});
	const sha = out.stdout.trim();
	return out.code === 0 && sha !== "" ? sha : undefined;
}

/** True when `refs/heads/<branch>` exists. */
export async function branchExists(root: string, branch: string, options: GitOptions = {}): Promise<boolean> {
	const out = await runCrewGit(root, ["show-ref", "--verify", "--quiet", `refs/heads/${branch}`], {
		...options,
		okCodes: [0, 1],
	});
	return out.code === 0;
}

/** The branch checked out in the worktree at `path` (short name), or undefined when detached. */
export async function currentBranch(path: string, options: GitOptions = {}): Promise<string | undefined> {
	const out = await runCrewGit(path, ["symbolic-ref", "--quiet", "--short", "HEAD"], { ...options, okCodes: [0, 1] });
	return out.code === 0 ? out.stdout.trim() : undefined;
}

/**
 * True when the commit `tip` stays reachable once `branch` is deleted: from another branch, a tag, a
 * remote-tracking ref, or the HEAD of the worktree at `root`. Deleting the branch then loses no commit.
 */
export async function reachableWithout(
	root: string,
	branch: string,
	tip: string,
	options: GitOptions = {},
): Promise<boolean> {
	const out = await gitOut(
		root,
		["for-each-ref", "--format=%(refname)", "--contains", tip, "refs/heads", "refs/tags", "refs/remotes"],
		options,
	);
	// Ref names cannot hold a newline, so one per line is unambiguous.
	const refs = out.split("\n").filter((ref) => ref !== "" && ref !== `refs/heads/${branch}`);
	if (refs.length > 0) return true;
	const head = await resolveCommit(root, "HEAD", options);
	if (head === undefined) return false;
	const ancestor = await runCrewGit(root, ["merge-base", "--is-ancestor", tip, head], { ...options, okCodes: [0, 1] });
	return ancestor.code === 0;
}
