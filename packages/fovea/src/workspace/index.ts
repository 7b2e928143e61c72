/**
 * `pi-fovea/workspace`: the light kernel shared by Fovea and Contour. It decides which project an accessed path
 * belongs to and keeps the recency ring of enrolled roots. It imports no parser, graph or analysis code, runs no
 * Git and does no filesystem work at module load.
 *
 * @module
 */
export { type AccessedPath, accessedPaths, type ToolAccessEvent } from "./accessed-paths.ts";
export { CREW_AGENT_ACCESS_EVENT } from "./agent-access.ts";
export { type AgentOrigin, type CrewAgentAccess, crewAgentAccess, crewAgentAccessHint } from "./agent-access-check.ts";
export { canonicalPath, canonicalPathSync } from "./canonical-path.ts";
export { type DiscoveryOptions, type DiscoveryStats, ProjectDiscovery, type ProjectRoot } from "./discovery.ts";
export { envInt } from "./env.ts";
export { excludedPathReason, excludedRootReason } from "./exclusions.ts";
export { cwdProject, gitReviewRoot, type ManualRoot } from "./manual-root.ts";
export { relativeInside } from "./path-inside.ts";
export { peerWorkspaceRoot } from "./peer-hint-check.ts";
export {
	WORKSPACE_ACCESS_EVENT,
	type WorkspaceAccessHint,
	type WorkspaceSource,
	workspaceAccessHint,
} from "./peer-hints.ts";
export { type Admission, ExecutionRoots, isRootPath, OBSERVED_ROOT_LIMIT, type RootsSnapshot } from "./roots.ts";
export { CONTOUR_WORKSPACE_ENTRY, FOVEA_WORKSPACE_ENTRY, latestWorkspaceEntry } from "./session-entries.ts";
export { type ShellHintOptions, shellCwdHints } from "./shell-hints.ts";
