/** The channel on Pi's event bus where Fovea and Contour tell each other which root they just enrolled. */
export const WORKSPACE_ACCESS_EVENT = "pi-workspace:access:v1";

/** Which extension published a hint: exactly the seed's two sources, nothing else. */
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
