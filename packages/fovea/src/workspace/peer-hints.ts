import { isRootPath } from "./roots.ts";

/** The channel on Pi's event bus where Fovea and Contour tell each other which root they just enrolled. */
export const WORKSPACE_ACCESS_EVENT = "pi-workspace:access:v1";

/** Which extension published a hint. */
export type WorkspaceSource = "fovea" | "contour";

/** A version-1 hint: target metadata only, never content, heat, trust or authorship. */
export interface WorkspaceAccessHint {
	version: 1;
	source: WorkspaceSource;
	root: string;
	sessionId: string;
}

/** Builds the hint an extension publishes when it enrolls `root`. */
export function workspaceAccessHint(source: WorkspaceSource, root: string, sessionId: string): WorkspaceAccessHint {
	return { version: 1, source, root, sessionId };
}

/**
 * The root hinted by a bus payload, if it may steer `self`: a well-formed version-1 hint from the *other* extension
 * (never our own echo), carrying a canonical absolute root and a nonempty session id equal to ours.
 */
export function peerWorkspaceRoot(
	payload: unknown,
	self: { source: WorkspaceSource; sessionId: string },
): string | undefined {
	if (payload === null || typeof payload !== "object") return undefined;
	const { version, source, root, sessionId } = payload as Partial<Record<keyof WorkspaceAccessHint, unknown>>;
	if (version !== 1) return undefined;
	if (source !== "fovea" && source !== "contour") return undefined;
	if (source === self.source) return undefined;
	if (typeof sessionId !== "string" || sessionId.length === 0 || sessionId !== self.sessionId) return undefined;
	return isRootPath(root) ? root : undefined;
}
