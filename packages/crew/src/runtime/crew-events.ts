/** What the runtime tells its subscribers (a widget, a status line, the coordinator's roots). */
export type CrewEventType =
	| "run.status"
	| "task.status"
	| "agent.started"
	| "agent.tool"
	| "agent.access"
	| "agent.message"
	| "agent.question"
	| "agent.exited";

/**
 * One change in a run. Every event names the run's workspace and owner session, so a subscriber sees only its
 * own workspace's and its own session's events (with force also those of an ended session's run it took over).
 */
export interface CrewEvent {
	type: CrewEventType;
	runId: string;
	workspaceId: string;
	ownerSessionId: string;
	taskId?: string;
	agentId?: string;
	/** run.status / task.status: `status`, `error?`; agent.tool: `toolName`; agent.access: `path`, `kind`, `via`;
	 * agent.message: `kind` (steer | follow-up | answer | resume); agent.question: `question`, `toolCallId`, `open`
	 * (false once the question's tool call ended unanswered); agent.started: `pid`, `sessionFile`, `cwd`, `resumed`;
	 * agent.exited: `end`, `status`. */
	data?: Record<string, unknown>;
}

/** Receives runtime events. */
export type CrewListener = (event: CrewEvent) => void;

/** The id of the agent that works on `taskId` of `runId`; stable across stop and resume. */
export function agentIdOf(runId: string, taskId: string): string {
	return `${runId}:${taskId}`;
}

/** The run and task of an agent id, or undefined when `agentId` is not shaped like one. */
export function parseAgentId(agentId: string): { runId: string; taskId: string } | undefined {
	const match = /^(\d{8}-\d{6}-\d{3}-[0-9a-f]{8}):([a-z0-9][a-z0-9_-]{0,63})$/.exec(agentId);
	return match ? { runId: match[1] as string, taskId: match[2] as string } : undefined;
}
