import { CANCELLED_TASK_ERROR } from "../state/run-cancel.ts";
import type { TaskPatch } from "../state/tasks.ts";
import type { AgentOutcome } from "./child-agent.ts";
import type { LiveAgentStatus } from "./live-agents.ts";

/** Why the runtime ended an agent: stop-agent, a cancelled run, or the coordinator shutting down. */
export type StopReason = "stopped" | "cancelled" | "shutdown";

/** The task change and the agent status that follow from how an agent's prompt ended. */
export interface TaskOutcome {
	patch: TaskPatch;
	agentStatus: LiveAgentStatus;
}

/**
 * An agent that completed without a model error is done, whatever was requested meanwhile (the work exists); a
 * cancelled agent's task is cancelled; a stopped one (or one ended by shutdown) is interrupted and can be resumed
 * from its session, and so is one whose process was killed by a signal without a model error (a crash or an OOM
 * kill is no verdict on the work: resume or resume-agent continues it); anything else (timeout, an exit of its
 * own, model error, a foreign abort) fails with the reason, and `retry` may run it again. An agent stopped by its
 * budget (`budgetStop`, e.g. `budget-exceeded: turns 12/12`) fails with that status and keeps its last text as
 * the task's (partial) result.
 */
export function taskOutcome(
	outcome: AgentOutcome,
	stop: StopReason | undefined,
	extraChanged: readonly string[] = [],
	budgetStop?: string,
): TaskOutcome {
	const changedFiles = [...new Set([...outcome.changedFiles, ...extraChanged])];
	const meta = { usage: outcome.usage, changedFiles, accessedPaths: outcome.accessedPaths, end: outcome.end };
	if (outcome.end === "completed" && outcome.error === undefined) {
		const result = outcome.text ?? "(the agent gave no text)";
		return { patch: { status: "done", result, error: null, meta }, agentStatus: "done" };
	}
	if (stop === "cancelled")
		return { patch: { status: "cancelled", error: CANCELLED_TASK_ERROR, meta }, agentStatus: "cancelled" };
	if (stop !== undefined) {
		const error = stop === "stopped" ? "stopped by stop-agent" : "the coordinator shut down";
		return { patch: { status: "interrupted", error, meta }, agentStatus: "stopped" };
	}
	if (budgetStop !== undefined) {
		const partial = outcome.text === undefined ? {} : { result: outcome.text };
		const patch = {
			status: "failed" as const,
			error: budgetStop,
			...partial,
			meta: { ...meta, budgetExceeded: budgetStop },
		};
		return { patch, agentStatus: "failed" };
	}
	if (outcome.end === "exited" && outcome.signal !== undefined) {
		const error = `the agent's process was killed (signal ${outcome.signal}); resume or resume-agent continues it from its session`;
		return { patch: { status: "interrupted", error, meta }, agentStatus: "stopped" };
	}
	const error =
		outcome.error ??
		(outcome.end === "aborted" ? "the agent's run was aborted" : `the agent ended (${outcome.end}) without finishing`);
	return { patch: { status: "failed", error, meta }, agentStatus: "failed" };
}
