import type { RunStatus } from "../state/status.ts";
import type { RunTask } from "../state/tasks.ts";

/** Pending tasks whose dependencies are all done and that are not already being started, in task order. */
export function readyTasks(tasks: readonly RunTask[], active: ReadonlySet<string>): RunTask[] {
	const status = new Map(tasks.map((task) => [task.id, task.status]));
	return tasks.filter(
		(task) =>
			task.status === "pending" && !active.has(task.id) && task.dependsOn.every((id) => status.get(id) === "done"),
	);
}

/** Pending tasks that can never start because a dependency failed or was cancelled, with that dependency. */
export function blockedTasks(tasks: readonly RunTask[]): { task: RunTask; dependency: RunTask }[] {
	const byId = new Map(tasks.map((task) => [task.id, task]));
	const blocked: { task: RunTask; dependency: RunTask }[] = [];
	for (const task of tasks) {
		if (task.status !== "pending") continue;
		const dependency = task.dependsOn
			.map((id) => byId.get(id))
			.find((dep) => dep?.status === "failed" || dep?.status === "cancelled");
		if (dependency) blocked.push({ task, dependency });
	}
	return blocked;
}

/**
 * Where a run stands once nothing of it is working: `done` when every task is; `interrupted` while a stopped
 * task could still be resumed; otherwise `failed`, naming the failed tasks and why.
 */
export function settledRunStatus(tasks: readonly RunTask[]): {
	status: Extract<RunStatus, "done" | "failed" | "interrupted">;
	error?: string;
} {
	if (tasks.every((task) => task.status === "done")) return { status: "done" };
	const stopped = tasks.filter((task) => task.status === "interrupted");
	if (stopped.length > 0) {
		const ids = stopped.map((task) => task.id).join(", ");
		return { status: "interrupted", error: `stopped: ${ids}; resume-agent or resume continues from their sessions` };
	}
	const failed = tasks.filter((task) => task.status === "failed" || task.status === "cancelled");
	if (failed.length > 0) {
		return {
			status: "failed",
			error: failed.map((task) => `${task.id}: ${task.error ?? task.status}`).join("; "),
		};
	}
	const waiting = tasks.filter((task) => task.status !== "done").map((task) => task.id);
	return { status: "failed", error: `nothing can run, yet tasks remain: ${waiting.join(", ")}` };
}
