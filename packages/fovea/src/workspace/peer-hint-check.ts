import type { AgentOrigin, WorkspaceAccessHint, WorkspaceSource } from "./peer-hints.ts";
import { isRootPath } from "./roots.ts";

const SOURCES: readonly string[] = ["fovea", "contour", "crew"];

/**
 * The root and agent origin hinted by a bus payload, if it may steer `self`: a well-formed version-1 hint from
 * another extension (never our own echo), carrying a canonical absolute root and a nonempty session id equal to
 * ours. A malformed `origin` is dropped, not trusted; the root still counts. Kept off the startup path: the roaming
 * layer loads it with enrollment, on the first hint.
 */
export function peerWorkspaceHint(
	payload: unknown,
	self: { source: WorkspaceSource; sessionId: string },
): { root: string; origin?: AgentOrigin } | undefined {
	if (payload === null || typeof payload !== "object") return undefined;
	const { version, source, root, sessionId, origin } = payload as Partial<Record<keyof WorkspaceAccessHint, unknown>>;
	if (version !== 1) return undefined;
	if (typeof source !== "string" || !SOURCES.includes(source) || source === self.source) return undefined;
	if (typeof sessionId !== "string" || sessionId.length === 0 || sessionId !== self.sessionId) return undefined;
	if (!isRootPath(root)) return undefined;
	return source === "crew" && isAgentOrigin(origin) ? { root, origin } : { root };
}

/** The root of `peerWorkspaceHint`, for callers that need only the root. */
export function peerWorkspaceRoot(
	payload: unknown,
	self: { source: WorkspaceSource; sessionId: string },
): string | undefined {
	return peerWorkspaceHint(payload, self)?.root;
}

function isAgentOrigin(value: unknown): value is AgentOrigin {
	if (value === null || typeof value !== "object") return false;
	const { kind, agentId, runId, taskId } = value as Record<string, unknown>;
	const text = (field: unknown) => typeof field === "string" && field.length > 0 && field.length <= 200;
	return kind === "crew-agent" && text(agentId) && text(runId) && text(taskId);
}
