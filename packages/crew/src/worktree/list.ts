import { lstat } from "node:fs/promises";
import { relative } from "node:path";
import { printable } from "pi-fovea/printable";
import type { GitOptions } from "./git.ts";
import { parseTaskWorktreePath, shortBranch } from "./layout.ts";
import { dirtyPaths, openRepository, worktreeRecords } from "./repository.ts";
import { verifyTaskWorktree } from "./verify.ts";

/** One task worktree as `/team worktrees` shows it. */
export interface TaskWorktreeEntry {
	path: string;
	runId: string;
	taskId: string;
	/** The checked-out branch (short name); null when detached. */
	branch: string | null;
	head: string | null;
	/** True when its folder exists. */
	exists: boolean;
	/** Uncommitted or untracked work; null when it could not be looked at (folder gone, or verification failed). */
	dirty: boolean | null;
	dirtyFiles: string[];
	locked: boolean;
	lockReason: string;
	/** Git considers the registration stale (its folder is gone); the next create or cleanup drops it. */
	prunable: boolean;
	prunableReason: string;
	/** Why the worktree could not be looked at, when it could not. */
	problem?: string;
}

/**
 * The task worktrees of the repository that holds `cwd`: every registered worktree under `<root>/.worktrees/`,
 * sorted by path, optionally only those of `runId`. Each existing one is verified before its status is read, so a
 * tampered `.git` file is reported instead of describing the parent repository.
 */
export async function listTaskWorktrees(
	cwd: string,
	options: GitOptions & { runId?: string } = {},
): Promise<TaskWorktreeEntry[]> {
	const repo = await openRepository(cwd, options);
	const entries: TaskWorktreeEntry[] = [];
	for (const record of await worktreeRecords(repo.root, options)) {
		const ids = parseTaskWorktreePath(repo.root, record.path);
		if (ids === undefined || (options.runId !== undefined && ids.runId !== options.runId)) continue;
		const exists = (await lstat(record.path).catch(() => undefined))?.isDirectory() === true;
		const entry: TaskWorktreeEntry = {
			path: record.path,
			...ids,
			branch: record.branch === null ? null : shortBranch(record.branch),
			head: record.head,
			exists,
			dirty: null,
			dirtyFiles: [],
			locked: record.locked,
			lockReason: record.lockReason,
			prunable: record.prunable,
			prunableReason: record.prunableReason,
		};
		if (exists) {
			try {
				await verifyTaskWorktree(record.path, repo, options);
				entry.dirtyFiles = await dirtyPaths(record.path, options);
				entry.dirty = entry.dirtyFiles.length > 0;
			} catch (error) {
				entry.problem = (error as Error).message;
			}
		} else {
			entry.problem = `folder is missing${record.prunableReason ? ` (${record.prunableReason})` : ""}`;
		}
		entries.push(entry);
	}
	return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Readable lines for `/team worktrees` and `crew worktrees`: one per worktree, paths relative to `root`, each made
 * printable (a lock reason or Git's message may hold anything).
 */
export function formatTaskWorktrees(entries: readonly TaskWorktreeEntry[], root: string): string {
	if (entries.length === 0) return "No task worktrees.";
	return entries
		.map((e) => {
			const state = [
				e.dirty === true ? `dirty (${e.dirtyFiles.length} file${e.dirtyFiles.length === 1 ? "" : "s"})` : "",
				e.dirty === false ? "clean" : "",
				e.locked ? `locked${e.lockReason ? `: ${e.lockReason}` : ""}` : "",
				e.prunable ? "stale" : "",
				e.problem && !e.prunable ? `unverified: ${e.problem}` : "",
			].filter((s) => s !== "");
			const head = e.head ? e.head.slice(0, 12) : "no commit";
			return printable(
				`${relative(root, e.path)}  ${e.branch ?? "(detached)"} @ ${head}  run ${e.runId} task ${e.taskId}  ${state.join(", ")}`,
			);
		})
		.join("\n");
}
