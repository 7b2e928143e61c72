import { isAbsolute, join, relative, sep } from "node:path";
import { WorktreeError } from "./errors.ts";

/**
 * Where task worktrees live and what their branches are called. Pure: no filesystem, no Git. A task's worktree is
 * `<repo-root>/.worktrees/<runId>/<taskId>/` on branch `crew/<runId>-<taskId>`.
 */

/** The folder under the repository root that holds every task worktree. */
export const WORKTREES_DIR = ".worktrees";

/** The line pi-crew adds to `info/exclude` so task worktrees never show in the user's `git status`. */
export const EXCLUDE_LINE = `/${WORKTREES_DIR}/`;

/** The prefix of every task branch. */
export const BRANCH_PREFIX = "crew/";

/**
 * Run and task ids become one folder name each, so they are a single safe path segment: a letter or digit, then
 * letters, digits, `.`, `_` or `-` (no separators, never `.` or `..`). pi-crew's own ids always fit.
 */
export const ID_SEGMENT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Throws an `invalid-input` error unless `value` is a safe id segment; `what` names it ("run id", "task id"). */
export function checkIdSegment(what: string, value: unknown): string {
	if (typeof value !== "string" || !ID_SEGMENT_PATTERN.test(value)) {
		throw new WorktreeError(
			"invalid-input",
			`${what} ${JSON.stringify(value)} cannot name a worktree folder: use 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit`,
		);
	}
	return value;
}

/** The worktree folder of task `taskId` of run `runId` under the repository root `root`. */
export function taskWorktreePath(root: string, runId: string, taskId: string): string {
	return join(root, WORKTREES_DIR, checkIdSegment("run id", runId), checkIdSegment("task id", taskId));
}

/**
 * The branch of a task: `crew/<runId>-<taskId>`, with every character outside letters, digits, `_` and `-`
 * turned into `-` so that the name is always a valid ref (no `..`, no `.lock` ending, no leading dot). Two ids
 * that differ only there share a branch name; creation then refuses the second with a `branch-exists` error.
 */
export function taskBranchName(runId: string, taskId: string): string {
	const clean = (id: string) => id.replace(/[^A-Za-z0-9_-]+/g, "-");
	return `${BRANCH_PREFIX}${clean(checkIdSegment("run id", runId))}-${clean(checkIdSegment("task id", taskId))}`;
}

/** The run and task of a worktree path under `root`, or undefined when the path is not a task worktree folder. */
export function parseTaskWorktreePath(root: string, path: string): { runId: string; taskId: string } | undefined {
	const rel = relative(join(root, WORKTREES_DIR), path);
	if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return undefined;
	const parts = rel.split(sep);
	const [runId, taskId] = parts;
	if (parts.length !== 2 || runId === undefined || taskId === undefined) return undefined;
	if (!ID_SEGMENT_PATTERN.test(runId) || !ID_SEGMENT_PATTERN.test(taskId)) return undefined;
	return { runId, taskId };
}

/** `refs/heads/x` → `x`; other refs are returned as they are. */
export function shortBranch(ref: string): string {
	return ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : ref;
}

/** A revision argument that can never be read as an option or a pathspec (`HEAD`, `main`, `v1.2^`, a sha). */
export function checkRevision(what: string, value: unknown): string {
	if (typeof value !== "string" || !/^[A-Za-z0-9._/~^@{}][A-Za-z0-9._/~^@{}:+-]*$/.test(value)) {
		throw new WorktreeError("invalid-input", `${what} ${JSON.stringify(value)} is not a revision name`);
	}
	return value;
}

/** The shell-ready command that merges a task branch into the current branch. */
export function mergeCommand(branch: string): string {
	return `git merge --no-ff ${branch}`;
}
