/** The channel on Pi's event bus where the extensions tell each other which root they just enrolled. */
export const WORKSPACE_ACCESS_EVENT = "pi-workspace:access:v1";

/** Which extension published a hint: Fovea, Contour, or Crew relaying what one of its agents accessed. */
export type WorkspaceSource = "fovea" | "contour" | "crew";

/** The sub-agent that accessed a root, carried by Crew's hints: metadata for the coordinator, never authorship. */
export interface AgentOrigin {
	kind: "crew-agent";
	agentId: string;
	runId: string;
	taskId: string;
}

/** A version-1 hint: target metadata only, never content, heat, trust or authorship. */
export interface WorkspaceAccessHint {
	version: 1;
	source: WorkspaceSource;
	root: string;
	sessionId: string;
	origin?: AgentOrigin;
}

/** Builds the hint an extension publishes when it enrolls `root`. */
export function workspaceAccessHint(source: WorkspaceSource, root: string, sessionId: string): WorkspaceAccessHint {
	return { version: 1, source, root, sessionId };
}
