import { rm } from "node:fs/promises";
import { type GitOptions, runCrewGit } from "./git.ts";

/**
 * The ways worktree mode takes a worktree away. Callers decide first whether anything would be lost; these only
 * carry the decision out.
 */

/**
 * Removes the worktree registered at `path` in the repository of `root`. `force` 0 lets Git refuse a dirty one,
 * 1 discards uncommitted changes (and is needed for a worktree holding submodules), 2 also overrides a lock.
 * For a registration whose folder is gone this drops just that registration: unlike `git worktree prune`, it
 * leaves alone the user's other worktrees that are missing only for now (an unmounted drive, say).
 */
export async function removeWorktree(
	root: string,
	path: string,
	force: 0 | 1 | 2,
	options: GitOptions = {},
): Promise<void> {
	const flags = force === 0 ? [] : force === 1 ? ["--force"] : ["--force", "--force"];
	await runCrewGit(root, ["worktree", "remove", ...flags, path], options);
}

/**
 * Throws away a worktree pi-crew has just checked out (nothing in it is anyone's work yet), even when its `.git`
 * file was tampered with so that Git refuses to validate it: the folder is deleted without following symbolic
 * links, then the registration that pointed at it is dropped.
 */
export async function discardFreshWorktree(root: string, path: string, options: GitOptions = {}): Promise<void> {
	const removed = await runCrewGit(root, ["worktree", "remove", "--force", "--force", path], {
		...options,
		okCodes: [0, 128],
	});
	if (removed.code === 0) return;
	await rm(path, { recursive: true, force: true });
	await runCrewGit(root, ["worktree", "remove", "--force", "--force", path], { ...options, okCodes: [0, 128] });
}

/** Deletes the branch `branch` (callers have checked that its commits stay reachable or are unchanged). */
export async function deleteBranch(root: string, branch: string, options: GitOptions = {}): Promise<void> {
	await runCrewGit(root, ["branch", "-D", "--", branch], options);
}
