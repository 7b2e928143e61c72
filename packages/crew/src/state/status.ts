import { IllegalTransitionError } from "./errors.ts";

/** Where a task stands. `interrupted` means its owner process died while it ran; resume makes it pending again. */
export type TaskStatus = "pending" | "running" | "done" | "failed" | "cancelled" | "interrupted";

/** Where a run stands; the same words as for tasks. */
export type RunStatus = TaskStatus;

/** Every status, in lifecycle order. */
export const STATUSES: readonly TaskStatus[] = ["pending", "running", "done", "failed", "cancelled", "interrupted"];

// A failed task may be retried (back to pending). A failed run has ended, but `retry` may send it back to work.
const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
	pending: ["running", "failed", "cancelled", "interrupted"],
	running: ["done", "failed", "cancelled", "interrupted"],
	interrupted: ["pending", "running", "failed", "cancelled"],
	failed: ["pending"],
	done: [],
	cancelled: [],
};

const RUN_TRANSITIONS: Readonly<Record<RunStatus, readonly RunStatus[]>> = {
	pending: ["running", "failed", "cancelled", "interrupted"],
	running: ["done", "failed", "cancelled", "interrupted"],
	interrupted: ["running", "failed", "cancelled"],
	failed: ["running"],
	done: [],
	cancelled: [],
};

/** True for a run that has ended: done, cancelled or failed (a failed run comes back only through `retry`). */
export function isFinalRunStatus(status: RunStatus): boolean {
	return status === "done" || status === "failed" || status === "cancelled";
}

/** True while a run or task still has work ahead or under way. */
export function isActiveStatus(status: TaskStatus): boolean {
	return status === "pending" || status === "running";
}

/** Throws IllegalTransitionError unless a task may go from `from` to `to`; staying put is always allowed. */
export function assertTaskTransition(subject: string, from: TaskStatus, to: TaskStatus): void {
	if (from !== to && !TASK_TRANSITIONS[from].includes(to)) {
		throw new IllegalTransitionError(subject, from, to, TASK_TRANSITIONS[from]);
	}
}

/** Throws IllegalTransitionError unless a run may go from `from` to `to`; staying put is always allowed. */
export function assertRunTransition(subject: string, from: RunStatus, to: RunStatus): void {
	if (from !== to && !RUN_TRANSITIONS[from].includes(to)) {
		throw new IllegalTransitionError(subject, from, to, RUN_TRANSITIONS[from]);
	}
}
