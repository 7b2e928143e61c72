import type { PrepareWorkspace } from "../runtime/task-runner.ts";
import { RunStore } from "../state/run-store.ts";
import { createTaskWorktree } from "../worktree/create.ts";
import { WorktreeError } from "../worktree/errors.ts";
import type { GitOptions } from "../worktree/git.ts";
import { openRepository, resolveCommit } from "../worktree/repository.ts";

/**
 * Worktree mode for the runtime: before a task's agent starts, its verified Git worktree is created (or, for a
 * resumed task, reused or reattached) and the agent works there; single-mode runs work in the workspace itself.
 * Each worktree is recorded in the run's events (`worktree.ready`, with path, branch, origin and warnings).
 */
export function worktreePrepareHook(git: GitOptions = {}): PrepareWorkspace {
	return async ({ manifest, task }) => {
		if (manifest.workspaceMode !== "worktree") return manifest.cwd;
		const worktree = await createTaskWorktree({ ...git, cwd: manifest.cwd, runId: manifest.runId, taskId: task.id });
		const store = await RunStore.open(manifest.cwd);
		await store.appendEvent(manifest.runId, {
			type: "worktree.ready",
			taskId: task.id,
			data: {
				path: worktree.path,
				branch: worktree.branch,
				head: worktree.head,
				origin: worktree.origin,
				warnings: worktree.warnings,
			},
		});
		return worktree.path;
	};
}

/**
 * Checks, before a worktree-mode run is created, that its workspace is in a Git repository worktree mode can use,
 * so a missing Git, a folder outside Git, a partial clone or a repository without a commit is refused with the
 * worktree layer's clear error and no run is left behind.
 */
export async function assertWorktreeReady(workspace: string, git: GitOptions = {}): Promise<void> {
	const repo = await openRepository(workspace, git);
	if ((await resolveCommit(repo.root, "HEAD", git)) === undefined) {
		throw new WorktreeError(
			"no-commits",
			`${repo.root} has no commit yet, so worktree mode has nothing to branch from; commit once, or use workspace mode "single"`,
		);
	}
}
