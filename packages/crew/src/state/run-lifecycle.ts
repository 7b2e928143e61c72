import { RunStateError } from "./errors.ts";
import type { EventInput } from "./events.ts";
import { applyManifestPatch, manifestOwner } from "./manifest.ts";
import { isOwnerAlive, type OwnerLiveness, type OwnerProcess } from "./owner.ts";
import { checkClaim, newOwner, type RunClaim, withOwner } from "./run-claim.ts";
import type { RunSnapshot, RunStore } from "./run-store.ts";
import { isActiveStatus } from "./status.ts";
import { applyTaskPatch } from "./tasks.ts";

/** A run that `detectInterrupted` marked, with the tasks that were running. */
export interface InterruptedRun {
	runId: string;
	ownerSessionId: string;
	tasks: string[];
}

function sameOwner(a: OwnerProcess, b: OwnerProcess): boolean {
	return a.pid === b.pid && a.start === b.start && a.host === b.host;
}

/**
 * Marks a pending or running run `interrupted`, with its running tasks, and logs `run.interrupted`. When `owner` is
 * given the run is left alone unless that is still its owner, so a run resumed meanwhile by another process is not
 * hit by a stale decision. Returns undefined when nothing was marked.
 */
export async function interruptRun(
	store: RunStore,
	runId: string,
	options: { reason: string; owner?: OwnerProcess },
): Promise<InterruptedRun | undefined> {
	return store.transact(runId, ({ manifest, tasks }, now) => {
		if (!isActiveStatus(manifest.status)) return { change: {}, value: undefined };
		if (options.owner && !sameOwner(options.owner, manifestOwner(manifest))) return { change: {}, value: undefined };
		const running = tasks.filter((t) => t.status === "running").map((t) => t.id);
		const events: EventInput[] = [
			{
				type: "run.interrupted",
				data: { reason: options.reason, ownerPid: manifest.ownerPid, ownerSessionId: manifest.ownerSessionId },
			},
			...running.map((taskId) => ({ type: "task.status", taskId, data: { from: "running", to: "interrupted" } })),
		];
		return {
			change: {
				manifest: applyManifestPatch(manifest, { status: "interrupted" }, now),
				tasks: tasks.map((t) =>
					t.status === "running" ? applyTaskPatch(runId, t, { status: "interrupted" }, now) : t,
				),
				events,
			},
			value: { runId, ownerSessionId: manifest.ownerSessionId, tasks: running },
		};
	});
}

/**
 * On session start: every pending or running run of this workspace whose owner process is gone (or whose pid now
 * belongs to another process) is marked interrupted. Damaged runs are skipped here; `listRuns` reports them.
 * `isAlive` defaults to a pid and start-marker check on this host.
 */
export async function detectInterrupted(
	store: RunStore,
	isAlive: OwnerLiveness = isOwnerAlive,
): Promise<InterruptedRun[]> {
	const marked: InterruptedRun[] = [];
	for (const listing of await store.listRuns({ status: ["pending", "running"] })) {
		if (!listing.manifest) continue;
		const owner = manifestOwner(listing.manifest);
		if (await isAlive(owner)) continue;
		const reason = `owner process ${owner.pid} of session ${listing.manifest.ownerSessionId} is no longer running`;
		const result = await interruptRun(store, listing.runId, { reason, owner });
		if (result) marked.push(result);
	}
	return marked;
}

/**
 * Resumes an interrupted run: the caller becomes its owner, the run is running again and its interrupted tasks are
 * pending (done tasks stay done), logged as `run.resumed`. Refuses any run that is not interrupted, and, given
 * `claim` (the owner the caller's access check saw), a run that another session took over since.
 */
export async function resumeRun(
	store: RunStore,
	runId: string,
	owner: { ownerSessionId: string; ownerPid?: number },
	claim?: RunClaim,
): Promise<RunSnapshot> {
	if (typeof owner.ownerSessionId !== "string" || owner.ownerSessionId.trim() === "") {
		throw new Error("resumeRun: ownerSessionId must be a nonempty string");
	}
	const next = await newOwner(owner.ownerSessionId, owner.ownerPid);
	return store.transact(runId, ({ manifest, tasks }, now) => {
		if (claim) checkClaim(manifest, claim, "resumed");
		if (manifest.status !== "interrupted") {
			throw new RunStateError(
				store.files(runId).manifest,
				`run ${runId} is ${manifest.status}; only an interrupted run can be resumed`,
				"status",
			);
		}
		const resumed = withOwner(applyManifestPatch(manifest, { status: "running" }, now), next);
		const retried = tasks.filter((t) => t.status === "interrupted").map((t) => t.id);
		const nextTasks = tasks.map((t) =>
			t.status === "interrupted" ? applyTaskPatch(runId, t, { status: "pending" }, now) : t,
		);
		const events: EventInput[] = [
			{
				type: "run.resumed",
				data: { previousOwnerSessionId: manifest.ownerSessionId, ownerSessionId: owner.ownerSessionId, tasks: retried },
			},
		];
		return { change: { manifest: resumed, tasks: nextTasks, events }, value: { manifest: resumed, tasks: nextTasks } };
	});
}
