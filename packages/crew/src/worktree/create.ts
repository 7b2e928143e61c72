import { readdir } from "node:fs/promises";
import { WorktreeError } from "./errors.ts";
import { ensureExcluded, prepareWorktreesFolder, refuseLinkedTaskFolder, requireWorktreeInPlace } from "./exclude.ts";
import { type GitOptions, gitOptionsOf, gitOut, runCrewGit } from "./git.ts";
import { checkIdSegment, checkRevision, parseTaskWorktreePath, taskBranchName, taskWorktreePath } from "./layout.ts";
import type { WorktreeRecord } from "./porcelain.ts";
import { deleteBranch, discardFreshWorktree, removeWorktree } from "./removal.ts";
import { serialized } from "./repo-queue.ts";
import { branchExists, openRepository, type Repository, resolveCommit, worktreeRecords } from "./repository.ts";
import { initSubmodules } from "./submodules.ts";
import { verifyTaskWorktree } from "./verify.ts";

/** What `createTaskWorktree` needs: the workspace (any folder in the repository) and the run and task. */
export interface CreateTaskWorktreeInput extends GitOptions {
	/** A folder of the workspace; the repository's top level is found from it. */
	cwd?: string;
	/** Same as `cwd`, for callers that already hold the repository root. */
	repoRoot?: string;
	runId: string;
	taskId: string;
	/** The revision the new branch starts from (default `HEAD` of the workspace's worktree). */
	base?: string;
}

/** A task's worktree, ready for its agent. */
export interface TaskWorktree {
	/** The worktree folder, `<repoRoot>/.worktrees/<runId>/<taskId>` (canonical). */
	path: string;
	/** The task branch checked out there (short name, `crew/<runId>-<taskId>`). */
	branch: string;
	/** The commit checked out now. */
	head: string;
	/** The repository top level that holds `.worktrees/` (canonical). */
	repoRoot: string;
	runId: string;
	taskId: string;
	/**
	 * `created`: new branch and worktree from `base`. `reused`: this task's worktree already existed (a resumed
	 * run) and was verified again. `reattached`: its folder had vanished, the stale registration was dropped and
	 * the task's existing branch was checked out again, so its commits carry on.
	 */
	origin: "created" | "reused" | "reattached";
	/** True when this call added `/.worktrees/` to `info/exclude`. */
	excludeAdded: boolean;
	/** Things the caller should show the user, such as submodules that were not initialized. */
	warnings: string[];
}

/**
 * Prepares the Git worktree of one task before its agent starts: resolves the repository, checks the ids and the
 * branch name, drops stale registrations under `.worktrees/`, excludes `.worktrees/` from status, adds the worktree
 * on a new branch with no hook running, initializes local submodules, and verifies that the worktree's `.git`
 * file leads to its own admin folder (a worktree that fails is removed again and the call throws). An existing
 * branch is refused with an error naming it, unless it is this task's own branch being resumed.
 */
export async function createTaskWorktree(input: CreateTaskWorktreeInput): Promise<TaskWorktree> {
	const workspace = input.repoRoot ?? input.cwd;
	if (workspace === undefined) throw new WorktreeError("invalid-input", "createTaskWorktree needs cwd or repoRoot");
	const runId = checkIdSegment("run id", input.runId);
	const taskId = checkIdSegment("task id", input.taskId);
	const base = checkRevision("base", input.base ?? "HEAD");
	const options = gitOptionsOf(input);
	const repo = await openRepository(workspace, options);
	const branch = taskBranchName(runId, taskId);
	const valid = await runCrewGit(repo.root, ["check-ref-format", "--branch", branch], {
		...options,
		okCodes: [0, 1, 128],
	});
	if (valid.code !== 0) {
		throw new WorktreeError("invalid-input", `run ${runId}, task ${taskId}: ${branch} is not a valid branch name`);
	}
	return serialized(repo.commonDir, () => create(repo, { runId, taskId, base, branch }, options));
}

async function create(
	repo: Repository,
	task: { runId: string; taskId: string; base: string; branch: string },
	options: GitOptions,
): Promise<TaskWorktree> {
	const { runId, taskId, branch } = task;
	const path = taskWorktreePath(repo.root, runId, taskId);
	const who = `run ${runId}, task ${taskId}`;
	await prepareWorktreesFolder(repo, runId, options);
	await refuseLinkedTaskFolder(path);
	const excludeAdded = await ensureExcluded(repo);
	const { reattach, records } = await pruneStale(repo, path, branch, options);
	const result = (origin: TaskWorktree["origin"], head: string, warnings: string[] = []): TaskWorktree => ({
		path,
		branch,
		head,
		repoRoot: repo.root,
		runId,
		taskId,
		origin,
		excludeAdded,
		warnings,
	});

	const mine = records.find((r) => r.path === path);
	if (mine?.locked) {
		throw new WorktreeError(
			"locked",
			`${who}: worktree ${path} is locked (${mine.lockReason || "no reason given"}); unlock it with "git worktree unlock ${path}" first`,
		);
	}
	if (mine) {
		if (mine.branch !== `refs/heads/${branch}`) {
			throw new WorktreeError(
				"path-exists",
				`${who}: ${path} is already a worktree on ${mine.branch ?? "a detached HEAD"}, not on ${branch}; it was left as it is`,
			);
		}
		await verifyTaskWorktree(path, repo, options);
		return result("reused", (await gitOut(path, ["rev-parse", "HEAD"], options)).trim());
	}
	const leftovers = await readdir(path).catch(() => []);
	if (leftovers.length > 0) {
		throw new WorktreeError(
			"path-exists",
			`${who}: ${path} exists and is not a registered worktree (it holds ${leftovers.length} entries); move it away first, pi-crew does not overwrite it`,
		);
	}

	const existed = await branchExists(repo.root, branch, options);
	if (existed && !reattach) {
		const tip = await resolveCommit(repo.root, branch, options);
		throw new WorktreeError(
			"branch-exists",
			`${who}: branch ${branch} already exists (at ${tip?.slice(0, 12) ?? "?"}) and is not this task's worktree branch; pi-crew neither reuses nor overwrites it. Merge or delete it ("git branch -D ${branch}") if it holds nothing you need, or start a new run`,
		);
	}
	let baseCommit: string | undefined;
	if (!existed) {
		baseCommit = await resolveCommit(repo.root, task.base, options);
		if (baseCommit === undefined) {
			throw task.base === "HEAD"
				? new WorktreeError(
						"no-commits",
						`${who}: ${repo.root} has no commit yet; commit once before using worktree mode`,
					)
				: new WorktreeError("invalid-input", `${who}: base ${task.base} names no commit in ${repo.root}`);
		}
	}
	const addArgs = existed ? [path, branch] : ["--no-track", "-b", branch, path, baseCommit as string];
	try {
		await runCrewGit(repo.root, ["worktree", "add", "--quiet", ...addArgs], options);
	} catch (error) {
		if (!existed && (await resolveCommit(repo.root, branch, options)) === baseCommit) {
			await deleteBranch(repo.root, branch, options).catch(() => undefined);
		}
		throw new WorktreeError("git-failed", `${who}: could not add worktree ${path}: ${(error as Error).message}`, {
			cause: error,
		});
	}
	try {
		await requireWorktreeInPlace(repo, path);
	} catch (error) {
		// Not `discardFreshWorktree`: it would delete the checkout wherever the link led, outside the repository.
		if (!existed && (await resolveCommit(repo.root, branch, options)) === baseCommit) {
			await deleteBranch(repo.root, branch, options).catch(() => undefined);
		}
		throw error;
	}
	try {
		const warnings = await initSubmodules(path, options);
		await verifyTaskWorktree(path, repo, options);
		const head = (await gitOut(path, ["rev-parse", "HEAD"], options)).trim();
		return result(existed ? "reattached" : "created", head, warnings);
	} catch (error) {
		await discardFreshWorktree(repo.root, path, options).catch(() => undefined);
		if (!existed && (await resolveCommit(repo.root, branch, options)) === baseCommit) {
			await deleteBranch(repo.root, branch, options).catch(() => undefined);
		}
		throw error;
	}
}

/**
 * Drops registrations under `.worktrees/` whose folders are gone (locked ones stay: a lock says "keep"). Returns
 * the registrations left, and whether one of those dropped was this task's worktree on its own branch, whose
 * branch may then be checked out again.
 */
async function pruneStale(
	repo: Repository,
	path: string,
	branch: string,
	options: GitOptions,
): Promise<{ reattach: boolean; records: WorktreeRecord[] }> {
	let reattach = false;
	const records: WorktreeRecord[] = [];
	for (const record of await worktreeRecords(repo.root, options)) {
		if (!record.prunable || record.locked || parseTaskWorktreePath(repo.root, record.path) === undefined) {
			records.push(record);
			continue;
		}
		await removeWorktree(repo.root, record.path, 1, options);
		if (record.path === path && record.branch === `refs/heads/${branch}`) reattach = true;
	}
	return { reattach, records };
}
