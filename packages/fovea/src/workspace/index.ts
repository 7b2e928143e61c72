/**
 * `pi-fovea/workspace`: the light kernel shared by Fovea and Contour. It decides which project an accessed path
 * belongs to and keeps the recency ring of enrolled roots. It imports no parser, graph or analysis code, runs no
 * Git and does no filesystem work at module load.
 *
 * Its values are exactly the nine the seed's "Lightweight shared API" names; everything else of the kernel has a
 * subpath of its own (`pi-fovea/canonical-path`, `pi-fovea/manual-root`, `pi-fovea/session-entries`,
 * `pi-fovea/agent-access`, ...), so this surface stays the seed's.
 *
 * @module
 */
export { type AccessedPath, accessedPaths, type ToolAccessEvent } from "./accessed-paths.ts";
export type { AgentOrigin, CrewAgentAccess } from "./agent-access-check.ts";
export { canonicalPath } from "./canonical-path.ts";
export { type DiscoveryOptions, type DiscoveryStats, ProjectDiscovery, type ProjectRoot } from "./discovery.ts";
export { envInt } from "./env.ts";
export type { ManualRoot } from "./manual-root.ts";
export { peerWorkspaceRoot } from "./peer-hint-check.ts";
export { WORKSPACE_ACCESS_EVENT, type WorkspaceAccessHint, type WorkspaceSource } from "./peer-hints.ts";
export { type Admission, ExecutionRoots, OBSERVED_ROOT_LIMIT, type RootsSnapshot } from "./roots.ts";
export { latestWorkspaceEntry } from "./session-entries.ts";
export type { ShellHintOptions } from "./shell-hints.ts";
