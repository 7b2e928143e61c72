/** Crew's own bus channel for roots its sub-agents accessed; `WORKSPACE_ACCESS_EVENT` carries Fovea and Contour only. */
export const CREW_AGENT_ACCESS_EVENT = "pi-crew:agent-access:v1";
