import type { WorkspaceAccessHint, WorkspaceSource } from "./peer-hints.ts";
import { isRootPath } from "./roots.ts";

const SOURCES: readonly string[] = ["fovea", "contour"];

/**
 * The root hinted by a bus payload, if it may steer `self`: a well-formed version-1 hint whose source is the *other*
 * of "fovea" | "contour" (never our own echo, never a third source), carrying a canonical absolute root and a
 * nonempty session id equal to ours. Kept off the startup path: the roaming layer loads it with enrollment, on the
 * first hint.
 */
export function peerWorkspaceRoot(
	payload: unknown,
	self: { source: WorkspaceSource; sessionId: string },
): string | undefined {
	if (payload === null || typeof payload !== "object") return undefined;
	const { version, source, root, sessionId } = payload as Partial<Record<keyof WorkspaceAccessHint, unknown>>;
	if (version !== 1) return undefined;
	if (typeof source !== "string" || !SOURCES.includes(source) || source === self.source) return undefined;
	if (typeof sessionId !== "string" || sessionId.length === 0 || sessionId !== self.sessionId) return undefined;
	return isRootPath(root) ? root : undefined;
}
