/**
 * `pi-crew/state`: runs on disk. A run is `<workspace>/.pi/crew/runs/<runId>/` holding manifest.json (owner,
 * canonical workspace root, team, goal, mode, status), tasks.json and an append-only events.jsonl, each with a
 * schema version, written atomically under a per-run lock. Damaged files are reported, never reset.
 *
 * @module
 */
export { IllegalTransitionError, RunLockedError, RunStateError, RunTakenError, SchemaVersionError } from "./errors.ts";
export { EVENT_TYPE_PATTERN, type EventInput, type EventLog, type EventProblem, type RunEvent } from "./events.ts";
export {
	type ManifestPatch,
	manifestOwner,
	type RunManifest,
	type RunMeta,
	WORKSPACE_MODES,
	type WorkspaceMode,
} from "./manifest.ts";
export { isOwnerAlive, type OwnerLiveness, type OwnerProcess, ownerProcess, processStartMarker } from "./owner.ts";
export { CANCELLED_RUN_ERROR, CANCELLED_TASK_ERROR, cancelRun } from "./run-cancel.ts";
export { claimOf, newOwner, type RunClaim, type RunOwner, sameClaim } from "./run-claim.ts";
export { isRunId, newRunId, RUN_ID_PATTERN, TASK_ID_PATTERN } from "./run-id.ts";
export { RUNS_SUBDIR, type RunFiles, runsDirOf } from "./run-layout.ts";
export { detectInterrupted, type InterruptedRun, interruptRun, resumeRun } from "./run-lifecycle.ts";
export { LOCK_NAME, STALE_MS } from "./run-lock.ts";
export { retriedTasks, retryRun } from "./run-retry.ts";
export {
	type CreateRunInput,
	type RunChange,
	type RunFilter,
	type RunListing,
	type RunSnapshot,
	RunStore,
	type RunStoreOptions,
} from "./run-store.ts";
export { SCHEMA_VERSION } from "./schema-version.ts";
export {
	assertRunTransition,
	assertTaskTransition,
	isActiveStatus,
	isFinalRunStatus,
	type RunStatus,
	STATUSES,
	type TaskStatus,
} from "./status.ts";
export type { RunTask, TaskPatch, TaskSpec } from "./tasks.ts";
