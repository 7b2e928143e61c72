/**
 * The one error type of worktree mode. Its `code` lets the runtime react (for example keep a task pending when its
 * branch already exists) without parsing messages; the message itself always names the path, branch, run or task
 * involved and says what was left untouched.
 */

/** What went wrong, for callers that branch on it. */
export type WorktreeErrorCode =
	| "git-missing"
	| "git-failed"
	| "invalid-input"
	| "not-a-repository"
	| "no-commits"
	| "partial-clone"
	| "unsafe-layout"
	| "branch-exists"
	| "path-exists"
	| "locked"
	| "not-registered"
	| "verification-failed"
	| "dirty"
	| "conflicts"
	| "not-checked-out";

/** A refusal or failure of a worktree operation. Nothing was lost when one is thrown. */
export class WorktreeError extends Error {
	readonly code: WorktreeErrorCode;

	constructor(code: WorktreeErrorCode, message: string, options?: { cause?: unknown }) {
		super(message, options);
		this.name = "WorktreeError";
		this.code = code;
	}
}

/** True when `error` is a WorktreeError with `code`. */
export function isWorktreeError(error: unknown, code?: WorktreeErrorCode): error is WorktreeError {
	return error instanceof WorktreeError && (code === undefined || error.code === code);
}
