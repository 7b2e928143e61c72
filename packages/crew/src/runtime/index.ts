/**
 * `pi-crew/runtime`: sub-agents as real `pi --mode rpc` child processes, one per task, each on its own session
 * file in the run directory; a scheduler that honours dependencies and worker limits; live agent handles that
 * carry their workspace; and the live-agent operations, refused across workspaces and across live sessions
 * (force takes over only an ended session's runs and agents). `CrewRuntime` is the facade for the extension and the CLI.
 *
 * @module
 */
export { ACCESSED_PATH_LIMIT, AgentCapture, type AgentUsage, emptyUsage } from "./agent-capture.ts";
export {
	type AgentIdentity,
	type AgentSnapshot,
	agentArgs,
	agentEnv,
	agentSnapshot,
	type ModelChoice,
	readAgentSnapshot,
} from "./agent-launch.ts";
export { type AgentResumeRequest, resumeAgentFromRunState } from "./agent-resume.ts";
export {
	type AgentEnd,
	type AgentOutcome,
	ChildAgent,
	type ChildAgentOptions,
	type ChildAgentState,
} from "./child-agent.ts";
export {
	agentIdOf,
	type CrewEvent,
	type CrewEventType,
	type CrewListener,
	parseAgentId,
} from "./crew-events.ts";
export { CrewRuntime, type CrewRuntimeOptions, type RunReport } from "./crew-runtime.ts";
export {
	type AgentProcessIds,
	agentProcesses,
	type EndedProcess,
	endAgentProcesses,
	endedProcessesOf,
	endedProcessesText,
} from "./leftover-processes.ts";
export {
	foreignSessionMessage,
	foreignWorkspaceMessage,
	LIVE_AGENT_OPERATIONS,
	type LiveAgentApiOptions,
	type LiveAgentOperation,
	type LiveAgentRequest,
	type LiveAgentResult,
	liveSessionAgentMessage,
	runLiveAgentOperation,
} from "./live-agent-api.ts";
export {
	ACTIVE_AGENT_STATUSES,
	getLiveAgent,
	isActiveAgent,
	LiveAgentConflictError,
	type LiveAgentControl,
	type LiveAgentHandle,
	LiveAgentRegistry,
	type LiveAgentStatus,
	listActiveLiveAgentsByWorkspace,
	listLiveAgents,
	listLiveAgentsByWorkspace,
	liveAgents,
	processRegistry,
} from "./live-agents.ts";
export { PI_CLI_ENV, type PiCommand, resolvePiCommand } from "./pi-command.ts";
export {
	descendantPids,
	isProcessRunning,
	type KillTreeOptions,
	killProcessTree,
	processesWithEnvironment,
	readProcFile,
} from "./process-tree.ts";
export { type RpcCommand, RpcConnection, type RpcRecord, type RpcResponse } from "./rpc-connection.ts";
export {
	CrewAccessError,
	checkScope,
	endOrphanedAgents,
	LiveSessionError,
	liveSessionRunMessage,
	ownedElsewhere,
	ownerSessionLive,
	readOwnedRun,
	type SessionScope,
} from "./run-access.ts";
export type { CancelledControlledRun, ControlledRun, RunControl, TakenOver } from "./run-control.ts";
export { planRun, type StartRunInput } from "./run-plan.ts";
export { blockedTasks, readyTasks, settledRunStatus } from "./run-progress.ts";
export { assertDepthAllowed, CREW_ENV, type CrewLimits, crewLimits, DepthLimitError } from "./runtime-config.ts";
export { type CancelledRun, RunExecution } from "./scheduler.ts";
export { type StopReason, type TaskOutcome, taskOutcome } from "./task-outcome.ts";
export { CONTINUE_PROMPT, DEPENDENCY_RESULT_LIMIT, taskPrompt } from "./task-prompt.ts";
export {
	agentFiles,
	type ExecutionDeps,
	endLeftovers,
	type FinishWorkspace,
	type PrepareWorkspace,
	runTaskAgent,
	type TaskSlot,
} from "./task-runner.ts";
export { WorkerPool } from "./worker-pool.ts";
