import type { EventInput } from "./events.ts";
import { applyManifestPatch } from "./manifest.ts";
import { checkClaim, type RunClaim, type RunOwner, withOwner } from "./run-claim.ts";
import type { RunSnapshot, RunStore } from "./run-store.ts";
import { isFinalRunStatus } from "./status.ts";
import { applyTaskPatch } from "./tasks.ts";

/** Why a cancelled task did not finish. */
export const CANCELLED_TASK_ERROR = "the run was cancelled";

/** Why a cancelled run did not finish. */
export const CANCELLED_RUN_ERROR = "cancelled by the coordinator";

/**
 * Cancels a run that no runtime of this process works on, in one transaction: the run must still have the owner
 * of `claim` (the owner the caller's access check saw) and not have ended; its unfinished tasks and the run become
 * cancelled and `owner` owns it. Only after this may the caller end the run's left-over processes: a run that
 * another session resumed meanwhile is refused here, before anything of it is ended.
 */
export async function cancelRun(
	store: RunStore,
	runId: string,
	claim: RunClaim,
	owner: RunOwner,
): Promise<RunSnapshot> {
	return store.transact(runId, ({ manifest, tasks }, now) => {
		checkClaim(manifest, claim, "cancelled");
		if (isFinalRunStatus(manifest.status)) throw new Error(`Run ${runId} is already ${manifest.status}.`);
		const events: EventInput[] = [];
		const nextTasks = tasks.map((task) => {
			if (!["pending", "running", "interrupted"].includes(task.status)) return task;
			events.push({ type: "task.status", taskId: task.id, data: { from: task.status, to: "cancelled" } });
			return applyTaskPatch(runId, task, { status: "cancelled", error: CANCELLED_TASK_ERROR }, now);
		});
		const cancelled = withOwner(
			applyManifestPatch(manifest, { status: "cancelled", error: CANCELLED_RUN_ERROR }, now),
			owner,
		);
		events.push({ type: "run.status", data: { from: manifest.status, to: "cancelled" } });
		if (manifest.ownerSessionId !== owner.ownerSessionId) {
			events.push({
				type: "run.taken-over",
				data: {
					action: "cancel",
					previousOwnerSessionId: manifest.ownerSessionId,
					ownerSessionId: owner.ownerSessionId,
				},
			});
		}
		return {
			change: { manifest: cancelled, tasks: nextTasks, events },
			value: { manifest: cancelled, tasks: nextTasks },
		};
	});
}
