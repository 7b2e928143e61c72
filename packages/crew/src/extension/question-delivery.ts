import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { CrewEvent } from "../runtime/crew-events.ts";
import { shownText } from "./run-text.ts";

/** The custom message type of an agent's question to its coordinator. */
export const QUESTION_MESSAGE = "pi-crew-question";

/** Who may be told a question: the session (and workspace) that owns the asking agent's run. */
export interface QuestionAudience {
	sessionId: string;
	workspace: string;
}

/** What the coordinator's model reads: who asks, the question, and how to answer. */
export function questionText(event: Pick<CrewEvent, "agentId" | "runId" | "taskId">, question: string): string {
	const agentId = event.agentId ?? "";
	return shownText(
		[
			`[pi-crew] Agent ${agentId} (task ${event.taskId ?? "?"} of run ${event.runId}) asks you:`,
			question.trim() || "(an empty question)",
			"",
			`Answer with team {action: "follow-up-agent", agentId: "${agentId}", message: "<your answer>"}; the agent waits until you do (or until its question times out).`,
		].join("\n"),
	);
}

/**
 * Delivers an open question of a sub-agent to the coordinator as a `pi-crew-question` message tied to that agent
 * (its id, run and task in `details`), starting a turn when the coordinator is idle and steering it otherwise.
 * Only the owning session's own questions are delivered: the runtime already scopes events to workspace and
 * session, and this checks again, so a question can never reach another session or workspace. Returns whether it
 * was delivered.
 */
export function deliverQuestion(pi: Pick<ExtensionAPI, "sendMessage">, audience: QuestionAudience, event: CrewEvent) {
	if (event.type !== "agent.question" || event.data?.open !== true) return false;
	if (event.ownerSessionId !== audience.sessionId || event.workspaceId !== audience.workspace) return false;
	const question = typeof event.data.question === "string" ? event.data.question : "";
	const details = {
		agentId: event.agentId,
		runId: event.runId,
		taskId: event.taskId,
		toolCallId: event.data.toolCallId,
		question,
	};
	pi.sendMessage(
		{ customType: QUESTION_MESSAGE, content: questionText(event, question), display: true, details },
		{ triggerTurn: true, deliverAs: "steer" },
	);
	return true;
}
