import { randomBytes } from "node:crypto";

/**
 * Run ids: `YYYYMMDD-HHMMSS-mmm-xxxxxxxx` in UTC with 32 random bits. They sort by creation time, are unique in
 * practice (creation also refuses an existing directory), and are safe as a file name and as part of a Git ref
 * (lower-case letters, digits and dashes only).
 */
export const RUN_ID_PATTERN = /^\d{8}-\d{6}-\d{3}-[0-9a-f]{8}$/;

/**
 * Names that become file names, folder names or parts of a branch name: task ids (session files, worktree folders,
 * `crew/<runId>-<taskId>`) and agent and team names (a task's system prompt file is named after its agent). Kept to
 * lower-case letters, digits, `-` and `_`, starting with a letter or digit.
 */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Words for error messages about a bad name. */
export const NAME_HINT = "use 1-64 lower-case letters, digits, '-' or '_', starting with a letter or digit";

/** Task ids follow {@link NAME_PATTERN}. */
export const TASK_ID_PATTERN = NAME_PATTERN;

/** Words for error messages about a bad task id. */
export const TASK_ID_HINT = NAME_HINT;

/** A new run id for `now`. */
export function newRunId(now: Date = new Date()): string {
	const iso = now.toISOString(); // 2025-01-31T12:34:56.789Z
	const stamp = `${iso.slice(0, 10).replaceAll("-", "")}-${iso.slice(11, 19).replaceAll(":", "")}-${iso.slice(20, 23)}`;
	return `${stamp}-${randomBytes(4).toString("hex")}`;
}

/** True for a string shaped like a run id (and so safe to join onto the runs directory). */
export function isRunId(value: string): boolean {
	return RUN_ID_PATTERN.test(value);
}
