/**
 * `pi-crew/worktree`: worktree mode. Each task gets its own Git worktree at
 * `<repo-root>/.worktrees/<runId>/<taskId>/` on branch `crew/<runId>-<taskId>`, created with no hook running and
 * verified before an agent may start in it; cleanup never loses work; a merge is previewed before anything moves.
 * Every Git call is hardened (see `git.ts`). Functions return plain data and throw `WorktreeError`s whose messages
 * name the path, branch, run or task involved.
 *
 * @module
 */
export {
	type CleanupResult,
	type CleanupTaskWorktreeInput,
	type CommittedWork,
	cleanupTaskWorktree,
} from "./cleanup.ts";
export { type CreateTaskWorktreeInput, createTaskWorktree, type TaskWorktree } from "./create.ts";
export { isWorktreeError, WorktreeError, type WorktreeErrorCode } from "./errors.ts";
export { crewGitCommand, type GitOptions } from "./git.ts";
export {
	BRANCH_PREFIX,
	EXCLUDE_LINE,
	ID_SEGMENT_PATTERN,
	mergeCommand,
	parseTaskWorktreePath,
	taskBranchName,
	taskWorktreePath,
	WORKTREES_DIR,
} from "./layout.ts";
export { formatTaskWorktrees, listTaskWorktrees, type TaskWorktreeEntry } from "./list.ts";
export {
	type MergeBackResult,
	type MergePreview,
	type MergePreviewInput,
	mergeBack,
	previewMerge,
} from "./merge-back.ts";
export { openRepository, type Repository } from "./repository.ts";
export { verifyTaskWorktree } from "./verify.ts";
