import type { RunManifest } from "../state/manifest.ts";
import type { RunTask } from "../state/tasks.ts";

/** A dependency result longer than this is cut, with a note, so one chatty task cannot flood the next. */
export const DEPENDENCY_RESULT_LIMIT = 20_000;

/** The first message of an agent's session: the run's goal, its task, and the results of the tasks it depends on. */
export function taskPrompt(
	manifest: Pick<RunManifest, "runId" | "team" | "goal">,
	task: RunTask,
	done: readonly RunTask[],
): string {
	const lines = [
		`[pi-crew] Run ${manifest.runId} of team ${manifest.team}: task "${task.id}", role ${task.role}.`,
		"",
		"Goal of the run:",
		manifest.goal.trim(),
		"",
		"Your task:",
		task.instructions?.trim() || `Work on the goal as the team's ${task.role}.`,
	];
	const dependencies = task.dependsOn
		.map((id) => done.find((candidate) => candidate.id === id))
		.filter((dep): dep is RunTask => dep !== undefined);
	if (dependencies.length > 0) {
		lines.push("", "Results of the tasks yours depends on:");
		for (const dep of dependencies) {
			let result = dep.result?.trim() || "(no report)";
			if (result.length > DEPENDENCY_RESULT_LIMIT) {
				result = `${result.slice(0, DEPENDENCY_RESULT_LIMIT)}\n[… ${result.length - DEPENDENCY_RESULT_LIMIT} more characters cut]`;
			}
			lines.push("", `### ${dep.id} (${dep.role})`, result);
			const changed = dep.meta?.changedFiles;
			if (Array.isArray(changed) && changed.length > 0) lines.push(`Changed files: ${changed.join(", ")}`);
		}
	}
	lines.push(
		"",
		"End with a self-contained report of what you did and found: it is handed to the tasks that depend on yours.",
	);
	return lines.join("\n");
}

/** What a resumed agent is told when nobody gave it a message: its session already holds the task. */
export const CONTINUE_PROMPT =
	"[pi-crew] Your work on this task was interrupted. Continue where you left off, then end with your report.";
