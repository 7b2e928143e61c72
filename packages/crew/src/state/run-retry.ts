import { RunStateError } from "./errors.ts";
import type { EventInput } from "./events.ts";
import { applyManifestPatch } from "./manifest.ts";
import { checkClaim, type RunClaim, type RunOwner, withOwner } from "./run-claim.ts";
import type { RunSnapshot, RunStore } from "./run-store.ts";
import type { RunTask } from "./tasks.ts";
import { applyTaskPatch } from "./tasks.ts";

/**
 * The tasks a retry sends back to work: `taskId` (which must have failed), or every failed task when it is
 * omitted, and each failed task that depends on one of them, directly or not (they were failed as "not started").
 * Interrupted tasks go back to work too, as on resume. Throws with the reason when there is nothing to retry, or
 * when a chosen task depends on a task that is neither done nor retried (it could never start).
 */
export function retriedTasks(runId: string, tasks: readonly RunTask[], taskId: string | undefined): Set<string> {
	let roots: RunTask[];
	if (taskId === undefined) {
		roots = tasks.filter((t) => t.status === "failed");
		if (roots.length === 0) throw new Error(`Run ${runId} has no failed task to retry.`);
	} else {
		const task = tasks.find((t) => t.id === taskId);
		if (!task) {
			throw new Error(
				`Run ${runId} has no task ${JSON.stringify(taskId)}; its tasks: ${tasks.map((t) => t.id).join(", ")}.`,
			);
		}
		if (task.status !== "failed") {
			throw new Error(`Task ${taskId} of run ${runId} is ${task.status}; only a failed task can be retried.`);
		}
		roots = [task];
	}
	const chosen = new Set(roots.map((t) => t.id));
	for (let grew = true; grew; ) {
		grew = false;
		for (const t of tasks) {
			if (t.status === "failed" && !chosen.has(t.id) && t.dependsOn.some((d) => chosen.has(d))) {
				chosen.add(t.id);
				grew = true;
			}
		}
	}
	for (const t of tasks) if (t.status === "interrupted") chosen.add(t.id);
	const status = new Map(tasks.map((t) => [t.id, t.status]));
	for (const t of tasks) {
		const blocker = t.dependsOn.find((d) => !chosen.has(d) && status.get(d) !== "done");
		if (chosen.has(t.id) && blocker !== undefined) {
			throw new Error(
				`Task ${t.id} of run ${runId} depends on ${blocker}, which is ${status.get(blocker)}; retry ${blocker} (it brings ${t.id} along).`,
			);
		}
	}
	return chosen;
}

/**
 * Sends failed tasks of a failed or interrupted run back to work, in one transaction: the run must still have
 * the owner of `claim` (the owner the caller's access check saw); the retried tasks (see `retriedTasks`) become
 * pending with their error cleared, the run is running again and `owner` owns it, logged as `run.retried`. A
 * retried task whose agent left a session continues it; one that never started starts afresh.
 */
export async function retryRun(
	store: RunStore,
	runId: string,
	taskId: string | undefined,
	claim: RunClaim,
	owner: RunOwner,
): Promise<RunSnapshot & { retried: string[] }> {
	return store.transact(runId, ({ manifest, tasks }, now) => {
		checkClaim(manifest, claim, "retried");
		if (manifest.status !== "failed" && manifest.status !== "interrupted") {
			throw new RunStateError(
				store.files(runId).manifest,
				`run ${runId} is ${manifest.status}; retry takes a failed or interrupted run (one still running retries once it has ended)`,
				"status",
			);
		}
		const chosen = retriedTasks(runId, tasks, taskId);
		const nextTasks = tasks.map((t) =>
			chosen.has(t.id) ? applyTaskPatch(runId, t, { status: "pending", error: null, result: null }, now) : t,
		);
		const next = withOwner(applyManifestPatch(manifest, { status: "running", error: null }, now), owner);
		const retried = tasks.filter((t) => chosen.has(t.id)).map((t) => t.id);
		const events: EventInput[] = [
			{
				type: "run.retried",
				data: {
					tasks: retried,
					previousOwnerSessionId: manifest.ownerSessionId,
					ownerSessionId: owner.ownerSessionId,
				},
			},
			...retried.map((id) => ({
				type: "task.status",
				taskId: id,
				data: { from: tasks.find((t) => t.id === id)?.status, to: "pending" },
			})),
		];
		return {
			change: { manifest: next, tasks: nextTasks, events },
			value: { manifest: next, tasks: nextTasks, retried },
		};
	});
}
