import type { RunManifest } from "../state/manifest.ts";
import type { RunTask } from "../state/tasks.ts";
import type { AgentUsage } from "./agent-capture.ts";
import { type Budget, breachText, budgetBreach, checkedBudget, type Spent, spentOf } from "./budget.ts";

/** A run's budget and what its agents have spent so far (live agents included), as the scheduler knows it. */
export interface RunBudgetProbe {
	budget: Budget | undefined;
	spent(): Spent;
}

/**
 * The status text that stops an agent, or undefined to let it go on: its own budget is checked first, then its
 * run's. Checked between turns only (after an assistant message's tools ran), so a limit never cuts a tool call
 * short; one turn that asks for many tool calls may go past a tool-call limit, and is stopped after them.
 */
export function budgetStop(
	usage: AgentUsage,
	agentBudget: Budget | undefined,
	run: RunBudgetProbe | undefined,
): string | undefined {
	const own = budgetBreach(spentOf(usage), agentBudget);
	if (own) return breachText(own);
	const total = run?.budget ? budgetBreach(run.spent(), run.budget) : undefined;
	return total ? breachText(total, "run") : undefined;
}

/** The run budget a manifest carries (`meta.budget`, set when the run was planned), checked as read from disk. */
export function runBudgetOf(manifest: Pick<RunManifest, "meta">): Budget | undefined {
	return checkedBudget(manifest.meta?.budget, "meta.budget");
}

/** What a task's agent spent as tasks.json records it (its last process). */
export function recordedSpent(task: Pick<RunTask, "meta">): Spent {
	const usage = task.meta?.usage;
	return spentOf(usage !== null && typeof usage === "object" ? (usage as Partial<AgentUsage>) : undefined);
}
