import { readAgentSnapshot } from "../runtime/agent-launch.ts";
import { addSpent, budgetText, type Spent, spentOf } from "../runtime/budget.ts";
import { recordedSpent, runBudgetOf } from "../runtime/budget-guard.ts";
import type { LiveAgentHandle } from "../runtime/live-agents.ts";
import type { RunSnapshot } from "../state/run-store.ts";
import type { RunTask } from "../state/tasks.ts";

/** What a task's agent spent: its live agent's usage while this process has one, else what tasks.json recorded. */
function taskSpent(task: RunTask, agent: LiveAgentHandle | undefined): Spent {
	return agent?.usage ? spentOf(agent.usage) : recordedSpent(task);
}

/** `budget: turns 3/12, tokens 1200/50000` for a task whose agent has a budget; undefined otherwise. */
export function taskBudgetLine(
	run: Pick<RunSnapshot, "manifest">,
	task: RunTask,
	agent: LiveAgentHandle | undefined,
): string | undefined {
	let budget = agent?.budget;
	try {
		budget ??= readAgentSnapshot(run.manifest.meta, task.agent, "manifest.json").budget;
	} catch {
		// A damaged snapshot: the run's own errors say so; no budget line here.
	}
	const text = budgetText(taskSpent(task, agent), budget);
	return text === undefined ? undefined : `  budget: ${text}`;
}

/** `run budget: tokens 5200/20000` for a run with a budget (all its agents together); undefined otherwise. */
export function runBudgetLine(
	run: Pick<RunSnapshot, "manifest" | "tasks">,
	agents: readonly LiveAgentHandle[],
): string | undefined {
	let budget: ReturnType<typeof runBudgetOf>;
	try {
		budget = runBudgetOf(run.manifest);
	} catch (error) {
		return `run budget: unreadable (${(error as Error).message})`;
	}
	const spent = addSpent(
		...run.tasks.map((t) =>
			taskSpent(
				t,
				agents.find((a) => a.taskId === t.id),
			),
		),
	);
	const text = budgetText(spent, budget);
	return text === undefined ? undefined : `run budget: ${text}`;
}
