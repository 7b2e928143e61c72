import { lstat, realpath } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { WorktreeError } from "./errors.ts";
import { type GitOptions, gitOptionsOf, gitOut, identityEnv, runCrewGit } from "./git.ts";
import { type IgnoredFiles, ignoredFiles, ignoredFilesText } from "./ignored-files.ts";
import { mergeCommand, parseTaskWorktreePath, shortBranch, WORKTREES_DIR } from "./layout.ts";
import { deleteBranch, removeWorktree } from "./removal.ts";
import { serialized } from "./repo-queue.ts";
import { dirtyPaths, openRepository, type Repository, reachableWithout, worktreeRecords } from "./repository.ts";
import { hasSubmodules, submodulesWithLocalCommits } from "./submodules.ts";
import { verifyTaskWorktree } from "./verify.ts";

/** What to do with a task worktree once its task is over. */
export interface CleanupTaskWorktreeInput extends GitOptions {
	/** The worktree folder, `<repo-root>/.worktrees/<runId>/<taskId>`. */
	path: string;
	/**
	 * Remove it even when it holds uncommitted work or ignored files written by the task, discarding them (`/team
	 * cleanup --discard`, `crew cleanup --discard`).
	 */
	force?: boolean;
	/** Commit uncommitted work to the task branch (no hooks), then remove the worktree and keep the branch. */
	commitDirty?: boolean;
	/** The message of that commit (default names the run and task). */
	message?: string;
	/**
	 * Remove it even when it is locked: the explicit second "force" Git itself asks for. It lifts the lock only;
	 * uncommitted work still follows `force` and `commitDirty`, so unlocking never discards work by itself.
	 */
	forceLocked?: boolean;
}

/** A commit pi-crew made of a task's uncommitted work, and how to bring it in. */
export interface CommittedWork {
	branch: string;
	commit: string;
	files: string[];
	/** Run in the worktree that should receive the work, e.g. `git merge --no-ff crew/<runId>-<taskId>`. */
	mergeCommand: string;
}

/** What cleanup did. Nothing was lost unless `discarded` or `ignored` lists files and `force` was given. */
export interface CleanupResult {
	path: string;
	runId: string;
	taskId: string;
	branch: string | null;
	/** `removed`: worktree gone. `kept`: left as it was, see `reason`. `pruned`: its folder was already gone, so only the registration was dropped. */
	action: "removed" | "kept" | "pruned";
	reason?: string;
	/** The uncommitted files found (kept, committed or discarded). */
	dirtyFiles: string[];
	/** Files whose uncommitted changes `force` threw away. */
	discarded: string[];
	/**
	 * Files Git ignores that the task wrote (`.env`, `build/`): a worktree holding any is kept unless `force`, since
	 * removing it would delete them. Some named, all counted; with `force` they went with the worktree.
	 */
	ignored: IgnoredFiles;
	committed?: CommittedWork;
	/** The task branch was deleted: its commits are all on another branch, a tag, or HEAD (merged, or never moved). */
	branchDeleted: boolean;
	/** Why the branch was kept, with `mergeCommand` to bring its commits in. */
	branchKeptReason?: string;
	mergeCommand?: string;
}

/**
 * Finishes a task's worktree without losing work. Clean: the worktree is removed, and its branch deleted only when
 * every commit of it is reachable from elsewhere. Dirty: kept and reported (default); with `commitDirty`,
 * committed to the task branch and removed, the branch kept with the command that merges it; with `force`,
 * removed anyway. Holding ignored files the task wrote (never committed, not even by `commitDirty`): kept and
 * reported unless `force`. Locked: a `locked` error unless `forceLocked`. Folder gone: its registration is dropped
 * (`pruned`). A worktree that fails verification is never touched.
 */
export async function cleanupTaskWorktree(input: CleanupTaskWorktreeInput): Promise<CleanupResult> {
	const options = gitOptionsOf(input);
	const given = resolve(String(input.path));
	const guessedRoot = dirname(dirname(dirname(given)));
	if (basename(dirname(dirname(given))) !== WORKTREES_DIR || !parseTaskWorktreePath(guessedRoot, given)) {
		throw new WorktreeError(
			"invalid-input",
			`${given} is not a task worktree path (<repo-root>/${WORKTREES_DIR}/<runId>/<taskId>)`,
		);
	}
	const repo = await openRepository(guessedRoot, options);
	const realRoot = await realpath(guessedRoot);
	if (repo.root !== realRoot) {
		throw new WorktreeError(
			"invalid-input",
			`${given}: ${guessedRoot} is not the top level of a Git working tree (that is ${repo.root})`,
		);
	}
	const path = join(repo.root, given.slice(guessedRoot.length));
	return serialized(repo.commonDir, () => cleanup(repo, path, input, options));
}

async function cleanup(
	repo: Repository,
	path: string,
	input: CleanupTaskWorktreeInput,
	options: GitOptions,
): Promise<CleanupResult> {
	const { runId, taskId } = parseTaskWorktreePath(repo.root, path) as { runId: string; taskId: string };
	const who = `run ${runId}, task ${taskId}`;
	const record = (await worktreeRecords(repo.root, options)).find((r) => r.path === path);
	const exists = (await lstat(path).catch(() => undefined)) !== undefined;
	if (!record) {
		throw new WorktreeError(
			"not-registered",
			`${who}: no worktree is registered at ${path}${exists ? "; the folder there was left alone" : ""}`,
		);
	}
	const branch = record.branch === null ? null : shortBranch(record.branch);
	const result: CleanupResult = {
		path,
		runId,
		taskId,
		branch,
		action: "removed",
		dirtyFiles: [],
		discarded: [],
		ignored: { named: [], count: 0 },
		branchDeleted: false,
	};
	if (record.locked && !input.forceLocked) {
		throw new WorktreeError(
			"locked",
			`${who}: worktree ${path} is locked (${record.lockReason || "no reason given"}); nothing was changed. Unlock it ("git worktree unlock ${path}") or pass forceLocked`,
		);
	}
	const lockForce = record.locked ? 2 : 0;
	if (!exists) {
		await removeWorktree(repo.root, path, lockForce || 1, options);
		return settleBranch(repo, { ...result, action: "pruned" }, options);
	}
	await verifyTaskWorktree(path, repo, options);
	const force = input.force === true;
	const keep = (reason: string): CleanupResult => ({ ...result, action: "kept", reason });
	result.dirtyFiles = await dirtyPaths(path, options);
	result.ignored = await ignoredFiles(path, options);
	const localSubmodules = await submodulesWithLocalCommits(path, options);
	if (localSubmodules.length > 0 && !force) {
		return keep(
			`submodule${localSubmodules.length > 1 ? "s" : ""} ${localSubmodules.join(", ")} hold commits found on no remote branch or tag; removing the worktree would delete them`,
		);
	}
	if (result.dirtyFiles.length > 0 && !force) {
		if (!input.commitDirty)
			return keep(
				`it has uncommitted work in ${result.dirtyFiles.length} file(s); commit it, pass commitDirty, or pass force to discard it`,
			);
		if (branch === null)
			return keep("it has uncommitted work on a detached HEAD, so there is no task branch to commit it to");
		const commit = await commitAll(path, input.message ?? `pi-crew: uncommitted work of ${who}`, options);
		result.committed = { branch, commit, files: result.dirtyFiles, mergeCommand: mergeCommand(branch) };
		const left = await dirtyPaths(path, options);
		if (left.length > 0)
			return keep(
				`after committing, ${left.join(", ")} still differ (changes inside a submodule are not committed by the superproject)`,
			);
	}
	if (
		branch === null &&
		record.head !== null &&
		!force &&
		!(await reachableWithout(repo.root, "", record.head, options))
	) {
		return keep(`its detached HEAD ${record.head.slice(0, 12)} has commits on no branch`);
	}
	if (result.ignored.count > 0 && !force) {
		return keep(
			`it holds ${result.ignored.count} ignored file(s) the task wrote (${ignoredFilesText(result.ignored)}), which are not in Git and would be deleted with it; copy what you need, or pass force (--discard) to delete them`,
		);
	}
	if (force) result.discarded = result.dirtyFiles;
	// A worktree holding submodules is refused by a plain remove even when clean; its state was checked above.
	const level = lockForce || (force || (await hasSubmodules(path)) ? 1 : 0);
	await removeWorktree(repo.root, path, level as 0 | 1 | 2, options);
	return settleBranch(repo, result, options);
}

/** Stages everything in the worktree at `path` and commits it without hooks; returns the new commit. */
async function commitAll(path: string, message: string, options: GitOptions): Promise<string> {
	await runCrewGit(path, ["add", "--all", "--", "."], options);
	const identity = await identityEnv(path, options);
	await runCrewGit(path, ["commit", "--quiet", "--no-verify", "--no-edit", "-m", message], { ...options, identity });
	return (await gitOut(path, ["rev-parse", "HEAD"], options)).trim();
}

/** Deletes the task branch when nothing would be lost, else keeps it and says how to merge it. */
async function settleBranch(repo: Repository, result: CleanupResult, options: GitOptions): Promise<CleanupResult> {
	const { branch } = result;
	if (branch === null) return result;
	const tip = (
		await runCrewGit(repo.root, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], {
			...options,
			okCodes: [0, 1],
		})
	).stdout.trim();
	if (tip === "") return result;
	if (await reachableWithout(repo.root, branch, tip, options)) {
		await deleteBranch(repo.root, branch, options);
		return { ...result, branchDeleted: true };
	}
	return {
		...result,
		branchKeptReason: `branch ${branch} has commits that are on no other branch; it was kept`,
		mergeCommand: mergeCommand(branch),
	};
}
