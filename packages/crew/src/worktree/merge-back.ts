import { nulSplit } from "pi-fovea/git";
import { WorktreeError } from "./errors.ts";
import { type GitOptions, gitOptionsOf, gitOut, identityEnv, runCrewGit } from "./git.ts";
import { checkRevision, shortBranch } from "./layout.ts";
import { parseMergeTree } from "./porcelain.ts";
import { serialized } from "./repo-queue.ts";
import {
	currentBranch,
	dirtyPaths,
	openRepository,
	type Repository,
	resolveCommit,
	worktreeRecords,
} from "./repository.ts";

/** Which branch to bring in, and where. */
export interface MergePreviewInput extends GitOptions {
	/** A folder of the workspace (its repository is used). */
	cwd?: string;
	/** Same as `cwd`. */
	repoRoot?: string;
	/** The local branch to merge, usually a task branch `crew/<runId>-<taskId>`. */
	branch: string;
	/** The local branch that receives it (default: the branch checked out at the workspace's top level). */
	into?: string;
}

/** What merging `branch` into `into` would do, computed without touching any worktree, index or ref. */
export interface MergePreview {
	branch: string;
	into: string;
	branchCommit: string;
	intoCommit: string;
	/** Commits of `branch` not yet in `into`; 0 means there is nothing to merge. */
	commits: number;
	/** True when the merge has no conflict. */
	clean: boolean;
	/** Conflicted paths, each once. */
	conflicts: string[];
	/** Git's messages about the merge, such as `CONFLICT (content): Merge conflict in src/a.ts`. */
	messages: string[];
	/** Paths whose content in `into` the merge would change (conflicted ones included). */
	changedFiles: string[];
}

/** What `mergeBack` did. */
export interface MergeBackResult {
	preview: MergePreview;
	/** False when there was nothing to merge. */
	merged: boolean;
	/** The worktree where `into` is checked out and the merge was made. */
	worktree: string;
	/** The tip of `into` afterwards. */
	commit: string;
}

/**
 * Previews merging `branch` into `into` with `git merge-tree --write-tree`, which merges in memory and writes only
 * the resulting blobs and trees to the object store (unreferenced objects that gc removes later): no worktree,
 * index, HEAD or ref changes, and no hook runs.
 */
export async function previewMerge(input: MergePreviewInput): Promise<MergePreview> {
	const options = gitOptionsOf(input);
	const repo = await openRepository(workspaceOf(input), options);
	return preview(repo, input, options);
}

/**
 * Merges `branch` into `into` in the worktree where `into` is checked out, with `--no-ff` and no hooks, only after
 * a clean preview: conflicts give a `conflicts` error listing them, uncommitted changes to tracked files of that
 * worktree a `dirty` error, and nothing is touched in either case. Untracked files the merge would overwrite make
 * Git itself refuse before it changes anything.
 */
export async function mergeBack(input: MergePreviewInput & { message?: string }): Promise<MergeBackResult> {
	const options = gitOptionsOf(input);
	const repo = await openRepository(workspaceOf(input), options);
	return serialized(repo.commonDir, async () => {
		const plan = await preview(repo, input, options);
		const target = (await worktreeRecords(repo.root, options)).find(
			(r) => r.branch === `refs/heads/${plan.into}` && !r.bare && !r.prunable,
		);
		if (!target) {
			throw new WorktreeError(
				"not-checked-out",
				`cannot merge ${plan.branch} into ${plan.into}: ${plan.into} is not checked out in any worktree of ${repo.root}; check it out first`,
			);
		}
		if (plan.commits === 0) return { preview: plan, merged: false, worktree: target.path, commit: plan.intoCommit };
		if (!plan.clean) {
			throw new WorktreeError(
				"conflicts",
				`merging ${plan.branch} into ${plan.into} would conflict in ${plan.conflicts.join(", ") || "(see messages)"}; nothing was changed. ${plan.messages.filter((m) => m.startsWith("CONFLICT")).join("; ")}`,
			);
		}
		const dirty = await dirtyPaths(target.path, { ...options, tracked: true });
		if (dirty.length > 0) {
			throw new WorktreeError(
				"dirty",
				`cannot merge ${plan.branch} into ${plan.into}: the worktree ${target.path} has uncommitted changes in ${dirty.join(", ")}; commit or stash them first. Nothing was changed`,
			);
		}
		const identity = await identityEnv(target.path, options);
		const message = input.message ?? `Merge ${plan.branch} into ${plan.into}`;
		const args = [
			"merge",
			"--no-ff",
			"--no-edit",
			"--no-verify",
			"--no-autostash",
			"--quiet",
			"-m",
			message,
			plan.branchCommit,
		];
		const merge = await runCrewGit(target.path, args, { ...options, identity, okCodes: [0, 1, 2, 128] });
		if (merge.code !== 0) {
			// The branches moved since the preview; put the worktree back as it was.
			await runCrewGit(target.path, ["merge", "--abort"], { ...options, okCodes: [0, 128] });
			throw new WorktreeError(
				"conflicts",
				`merging ${plan.branch} into ${plan.into} in ${target.path} failed and was aborted: ${merge.stderr || merge.stdout}`,
			);
		}
		const commit = (await gitOut(target.path, ["rev-parse", "HEAD"], options)).trim();
		return { preview: plan, merged: true, worktree: target.path, commit };
	});
}

async function preview(repo: Repository, input: MergePreviewInput, options: GitOptions): Promise<MergePreview> {
	const branch = shortBranch(checkRevision("branch", input.branch));
	const into =
		input.into === undefined ? await currentBranch(repo.root, options) : shortBranch(checkRevision("into", input.into));
	if (into === undefined) {
		throw new WorktreeError(
			"not-checked-out",
			`${repo.root} is on a detached HEAD; name the branch to merge ${branch} into`,
		);
	}
	const branchCommit = await resolveCommit(repo.root, `refs/heads/${branch}`, options);
	if (branchCommit === undefined)
		throw new WorktreeError("invalid-input", `branch ${branch} does not exist in ${repo.root}`);
	const intoCommit = await resolveCommit(repo.root, `refs/heads/${into}`, options);
	if (intoCommit === undefined)
		throw new WorktreeError("invalid-input", `branch ${into} does not exist in ${repo.root}`);
	const commits = Number(
		(await gitOut(repo.root, ["rev-list", "--count", `${intoCommit}..${branchCommit}`], options)).trim(),
	);
	const base = { branch, into, branchCommit, intoCommit, commits };
	if (commits === 0) return { ...base, clean: true, conflicts: [], messages: [], changedFiles: [] };
	const out = await runCrewGit(
		repo.root,
		["merge-tree", "--write-tree", "-z", "--name-only", intoCommit, branchCommit],
		{
			...options,
			okCodes: [0, 1],
		},
	);
	const merged = parseMergeTree(out.stdout);
	const changed = await gitOut(
		repo.root,
		["diff-tree", "-r", "-z", "--name-only", "--no-renames", intoCommit, merged.tree],
		options,
	);
	return {
		...base,
		clean: out.code === 0,
		conflicts: merged.conflicts,
		messages: merged.messages,
		changedFiles: nulSplit(changed),
	};
}

function workspaceOf(input: MergePreviewInput): string {
	const workspace = input.repoRoot ?? input.cwd;
	if (workspace === undefined) throw new WorktreeError("invalid-input", "a merge needs cwd or repoRoot");
	return workspace;
}
