import { hostname } from "node:os";
import { manifestOwner, type RunManifest } from "../state/manifest.ts";
import { cancelRun } from "../state/run-cancel.ts";
import { claimOf, newOwner } from "../state/run-claim.ts";
import { interruptRun, resumeRun } from "../state/run-lifecycle.ts";
import { retryRun } from "../state/run-retry.ts";
import type { RunSnapshot, RunStore } from "../state/run-store.ts";
import { isFinalRunStatus } from "../state/status.ts";
import { CrewAccessError, endOrphanedAgents, ownedElsewhere, readOwnedRun, type SessionScope } from "./run-access.ts";
import type { CancelledRun, RunExecution } from "./scheduler.ts";

/**
 * cancel, resume and retry of a whole run. Each reads the run for a caller allowed to act on it (its own, or with
 * force one whose session has ended), then changes its state in one transaction that goes ahead only while the run
 * still has the owner that check saw (RunClaim): of two sessions that both passed the check, the slower is refused
 * and changes nothing. Left-over processes of the run are ended only after the transaction succeeded, so a run
 * another session took over meanwhile never loses its agents.
 */

/** What run control needs of the caller's runtime, for one run of the caller's workspace. */
export interface RunControl {
	store: RunStore;
	/** This runtime's execution of the run, if it has one. */
	execution: RunExecution | undefined;
	/** The run's execution, made if needed and held for the caller's session. */
	hold(run: RunSnapshot): RunExecution;
	/** Throws when another runtime of this process works on the run (refusing `action`). */
	refuseHeldElsewhere(action: string): void;
}

/** The session (and its process) that had a run before a forced request of another session took it over. */
export interface TakenOver {
	sessionId: string;
	pid: number;
}

/** A run after cancel, resume or retry; `takenOverFrom` names the previous owner when force took it over. */
export type ControlledRun = RunSnapshot & { takenOverFrom?: TakenOver };

/** A cancelled run (with what its agents left running that the cancel ended), and the owner force took it from. */
export type CancelledControlledRun = CancelledRun & { takenOverFrom?: TakenOver };

/** The previous owner of `manifest` when it was not `sessionId`'s own run (force took it over). */
function takeover(manifest: RunManifest, sessionId: string): { takenOverFrom?: TakenOver } {
	if (manifest.ownerSessionId === sessionId) return {};
	return { takenOverFrom: { sessionId: manifest.ownerSessionId, pid: manifest.ownerPid } };
}

/** Why resume interrupts a run that this process owns but no longer works on. */
const STALE_RUN_REASON =
	"no agent of this process works on the run any more (a state write failed while it ran); resume continues it";

/**
 * Cancels the run: one this runtime works on through its execution (its agents end first), any other in one
 * transaction (`cancelRun`), after which its left-over processes are ended. The caller's session owns it then.
 */
export async function cancelControlledRun(
	control: RunControl,
	scope: SessionScope & { runId: string },
): Promise<CancelledControlledRun> {
	const { store, execution } = control;
	const run = await readOwnedRun(store, scope, scope.runId, "cancel");
	control.refuseHeldElsewhere("cancel");
	const from = takeover(run.manifest, scope.sessionId);
	if (execution?.busy) return { ...(await execution.cancel()), ...from };
	if (isFinalRunStatus(run.manifest.status)) throw new Error(`Run ${scope.runId} is already ${run.manifest.status}.`);
	if (await ownedElsewhere(run)) {
		throw new CrewAccessError(`Run ${scope.runId} is being run by process ${run.manifest.ownerPid}; cancel it there.`);
	}
	const cancelled = await cancelRun(store, scope.runId, claimOf(run.manifest), await newOwner(scope.sessionId));
	await endOrphanedAgents(store, scope.runId);
	control.hold(cancelled).announce(cancelled.manifest);
	// What the sweep of a run no runtime here works on ends is in the run's events (run.leftovers-ended).
	return { ...(await store.readRun(scope.runId)), endedProcesses: [], ...from };
}

/**
 * Continues an interrupted run: the caller's session becomes its owner, then leftover agent processes of a dead
 * coordinator are ended, and unfinished tasks start again; an agent whose session file holds a conversation
 * continues it (`--session`) instead of starting over. A run that this process owns but no longer works on (its
 * state could not be written while it ran) is interrupted first and resumed the same way.
 */
export async function resumeControlledRun(
	control: RunControl,
	scope: SessionScope & { runId: string },
): Promise<ControlledRun> {
	const { store } = control;
	const run = await readOwnedRun(store, scope, scope.runId, "resume");
	control.refuseHeldElsewhere("resume");
	if (control.execution?.busy) throw new Error(`Run ${scope.runId} is running here already.`);
	const { status } = run.manifest;
	const owner = manifestOwner(run.manifest);
	if ((status === "running" || status === "pending") && owner.pid === process.pid && owner.host === hostname()) {
		await interruptRun(store, scope.runId, { reason: STALE_RUN_REASON, owner });
	} else if (status !== "interrupted") {
		throw new Error(`Run ${scope.runId} is ${status}; only an interrupted run can be resumed.`);
	}
	const resumed = await resumeRun(store, scope.runId, { ownerSessionId: scope.sessionId }, claimOf(run.manifest));
	await endOrphanedAgents(store, scope.runId);
	control.hold(resumed).start("running");
	return { ...resumed, ...takeover(run.manifest, scope.sessionId) };
}

/**
 * Runs failed tasks of a failed or interrupted run again: `taskId`, or every failed task, with each failed task
 * that depends on them (see `retriedTasks`); the caller's session becomes the run's owner as on resume.
 */
export async function retryControlledRun(
	control: RunControl,
	scope: SessionScope & { runId: string; taskId?: string },
): Promise<ControlledRun & { retried: string[] }> {
	if (scope.taskId !== undefined && (typeof scope.taskId !== "string" || scope.taskId.trim() === "")) {
		throw new Error('retry: field "taskId": expected the id of a failed task, or nothing for every failed task');
	}
	const { store } = control;
	const run = await readOwnedRun(store, scope, scope.runId, "retry");
	control.refuseHeldElsewhere("retry");
	if (control.execution?.busy) {
		throw new Error(`Run ${scope.runId} is still running here; retry its failed tasks once it has ended.`);
	}
	if (await ownedElsewhere(run)) {
		throw new CrewAccessError(`Run ${scope.runId} is being run by process ${run.manifest.ownerPid}; retry it there.`);
	}
	const owner = await newOwner(scope.sessionId);
	const retried = await retryRun(store, scope.runId, scope.taskId, claimOf(run.manifest), owner);
	await endOrphanedAgents(store, scope.runId);
	control.hold(retried).start("running");
	return { ...retried, ...takeover(run.manifest, scope.sessionId) };
}
