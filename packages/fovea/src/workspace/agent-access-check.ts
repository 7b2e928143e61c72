import { isRootPath } from "./roots.ts";

export { CREW_AGENT_ACCESS_EVENT } from "./agent-access.ts";

/** The sub-agent that accessed a root: metadata for the coordinator, never authorship. */
export interface AgentOrigin {
	kind: "crew-agent";
	agentId: string;
	runId: string;
	taskId: string;
}

/** A version-1 report on `CREW_AGENT_ACCESS_EVENT` of a root one of the session's sub-agents accessed. */
export interface CrewAgentAccess {
	version: 1;
	root: string;
	sessionId: string;
	origin: AgentOrigin;
}

/** Builds the report Crew publishes on `CREW_AGENT_ACCESS_EVENT` when one of its agents accessed `root`. */
export function crewAgentAccessHint(root: string, sessionId: string, origin: AgentOrigin): CrewAgentAccess {
	return { version: 1, root, sessionId, origin: { ...origin } };
}

/**
 * The root and agent origin of a `CREW_AGENT_ACCESS_EVENT` payload, if it may enroll in `self`'s session: version 1,
 * a canonical absolute root, a nonempty session id equal to ours and a well-formed crew-agent origin; anything else
 * gives undefined. Kept off the startup path: the roaming layer loads it with enrollment, on the first report.
 */
export function crewAgentAccess(
	payload: unknown,
	self: { sessionId: string },
): { root: string; origin: AgentOrigin } | undefined {
	if (payload === null || typeof payload !== "object") return undefined;
	const { version, root, sessionId, origin } = payload as Partial<Record<keyof CrewAgentAccess, unknown>>;
	if (version !== 1) return undefined;
	if (typeof sessionId !== "string" || sessionId.length === 0 || sessionId !== self.sessionId) return undefined;
	if (!isRootPath(root) || !isAgentOrigin(origin)) return undefined;
	const { agentId, runId, taskId } = origin;
	return { root, origin: { kind: "crew-agent", agentId, runId, taskId } };
}

function isAgentOrigin(value: unknown): value is AgentOrigin {
	if (value === null || typeof value !== "object") return false;
	const { kind, agentId, runId, taskId } = value as Record<string, unknown>;
	const text = (field: unknown) => typeof field === "string" && field.length > 0 && field.length <= 200;
	return kind === "crew-agent" && text(agentId) && text(runId) && text(taskId);
}
