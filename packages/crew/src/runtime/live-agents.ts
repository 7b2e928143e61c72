import { canonicalPathSync } from "pi-fovea/canonical-path";
import type { AgentUsage } from "./agent-capture.ts";
import type { Budget } from "./budget.ts";
import type { EndedProcess } from "./leftover-processes.ts";

/**
 * Where a live agent stands: `starting` and `running` while its process works, `stopping` while it is being
 * ended; then `done`, `failed`, `stopped` (resumable from its session) or `cancelled`.
 */
export type LiveAgentStatus = "starting" | "running" | "stopping" | "done" | "failed" | "stopped" | "cancelled";

/** The statuses of an agent whose process is (still) there. */
export const ACTIVE_AGENT_STATUSES: readonly LiveAgentStatus[] = ["starting", "running", "stopping"];

/** A sub-agent that this process started: who it works for, where, and how to reach its session. */
export interface LiveAgentHandle {
	/** `<runId>:<taskId>`; stable across stop and resume. */
	agentId: string;
	runId: string;
	taskId: string;
	/** Workspace where this agent was spawned — used for session-scoped visibility. */
	workspaceId: string;
	/** The coordinator session that owns the agent's run. */
	ownerSessionId: string;
	status: LiveAgentStatus;
	/** The current (or last) process id. */
	pid: number | undefined;
	sessionFile: string;
	/** The folder the agent works in: the workspace itself, or its worktree. */
	cwd: string;
	startedAt: string;
	endedAt?: string;
	/** The tool running now, if any. */
	currentTool?: string;
	/** Model turns and tokens so far, summed over the agent's assistant messages (shown in the widget). */
	usage?: AgentUsage;
	/** The question the agent is waiting to have answered (`ask_coordinator`), if any. */
	question?: string;
	/** The agent's limits, when it has any (the widget and status show spent/limit). */
	budget?: Budget;
	/** Distinct absolute paths the agent's tools touched (metadata for the coordinator's roots, not authorship). */
	accessedPaths: string[];
	/** Records written to the agent's processes so far (prompts, steers, follow-ups, aborts). */
	sends: number;
	/** What the agent left running when it ended, which was ended then (see `endAgentProcesses`). */
	endedProcesses?: EndedProcess[];
}

/** What the live-agent operations do to an agent; supplied by whoever runs it. */
export interface LiveAgentControl {
	steer(message: string): Promise<void>;
	/** Answers the agent's open question (see `ask_coordinator`) when it has one, else queues a follow-up. */
	followUp(message: string): Promise<"answered" | undefined>;
	stop(): Promise<void>;
	/** Starts the stopped agent again from its session file, with `message` (or a request to continue). */
	resume(message?: string): Promise<void>;
	/** Records written to the agent's processes so far. */
	sends(): number;
}

interface Entry {
	handle: LiveAgentHandle;
	control: LiveAgentControl;
}

/** True while the agent's process is there. */
export function isActiveAgent(handle: Pick<LiveAgentHandle, "status">): boolean {
	return ACTIVE_AGENT_STATUSES.includes(handle.status);
}

/**
 * The key of an agent: its workspace and its id. Agent ids come from run ids, which a run directory copied (or
 * forged) into another workspace repeats, so an id alone would let one workspace's run reach another's agent.
 */
function keyOf(workspaceId: string, agentId: string): string {
	return `${workspaceId}\0${agentId}`;
}

/** A refused `register`: the agent id is held by an agent of another workspace. */
export class LiveAgentConflictError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "LiveAgentConflictError";
	}
}

/**
 * The agents this process started, by workspace and id. Handles stay after their process ends, so a stopped agent
 * can still be found and resumed; readers get copies, so only the runner of an agent changes its handle. An agent
 * id belongs to one workspace for the life of the process: `register` refuses an id that another workspace holds,
 * so `get(agentId)` is never ambiguous and a run of one workspace never replaces or reaches another's agent.
 */
export class LiveAgentRegistry {
	readonly #entries = new Map<string, Entry>();

	/**
	 * Adds the agent `handle.agentId` of workspace `handle.workspaceId`, or replaces that same agent (a resumed
	 * one). Throws a LiveAgentConflictError when another workspace already holds the id.
	 */
	register(handle: LiveAgentHandle, control: LiveAgentControl): void {
		this.assertRegistrable(handle);
		const copy = { ...handle, accessedPaths: [...handle.accessedPaths] };
		this.#entries.set(keyOf(handle.workspaceId, handle.agentId), { handle: copy, control });
	}

	/** Throws what `register` would throw for `handle`, so a caller can refuse before starting a process. */
	assertRegistrable(handle: Pick<LiveAgentHandle, "agentId" | "workspaceId">): void {
		const holder = this.#byId(handle.agentId).find((entry) => entry.handle.workspaceId !== handle.workspaceId);
		if (holder) {
			throw new LiveAgentConflictError(
				`Live agent '${handle.agentId}' already belongs to workspace ${holder.handle.workspaceId}; it cannot be registered for workspace ${handle.workspaceId} (was a run directory copied between workspaces?)`,
			);
		}
	}

	#byId(agentId: string): Entry[] {
		return [...this.#entries.values()].filter((entry) => entry.handle.agentId === agentId);
	}

	/** Changes fields of the agent of `workspaceId` (identity and workspace stay as registered). */
	update(
		workspaceId: string,
		agentId: string,
		patch: Partial<Omit<LiveAgentHandle, "agentId" | "runId" | "taskId" | "workspaceId">>,
	): void {
		const entry = this.#entries.get(keyOf(workspaceId, agentId));
		if (entry) entry.handle = { ...entry.handle, ...patch };
	}

	/** Adds a path to the accessed paths of the agent of `workspaceId` (no duplicates). */
	addAccessedPath(workspaceId: string, agentId: string, path: string): void {
		const entry = this.#entries.get(keyOf(workspaceId, agentId));
		if (entry && !entry.handle.accessedPaths.includes(path)) entry.handle.accessedPaths.push(path);
	}

	/** Forgets the agent of `workspaceId`. */
	remove(workspaceId: string, agentId: string): boolean {
		return this.#entries.delete(keyOf(workspaceId, agentId));
	}

	#copy(entry: Entry): LiveAgentHandle {
		return { ...entry.handle, accessedPaths: [...entry.handle.accessedPaths], sends: entry.control.sends() };
	}

	/**
	 * A copy of the handle of `agentId`: of workspace `workspaceId` (canonical) when given, else of whichever
	 * workspace holds the id (at most one does). Callers that act on the agent compare its workspaceId first.
	 */
	get(agentId: string, workspaceId?: string): LiveAgentHandle | undefined {
		const entry = workspaceId === undefined ? this.#byId(agentId)[0] : this.#entries.get(keyOf(workspaceId, agentId));
		return entry && this.#copy(entry);
	}

	/** The control of the agent of `workspaceId`. Callers check owner first (see `runLiveAgentOperation`). */
	control(workspaceId: string, agentId: string): LiveAgentControl | undefined {
		return this.#entries.get(keyOf(workspaceId, agentId))?.control;
	}

	/** Every agent, oldest first. */
	list(): LiveAgentHandle[] {
		return [...this.#entries.values()].map((entry) => this.#copy(entry));
	}

	/**
	 * The agents of one workspace. `workspaceId` is canonicalized first, so a symlink alias of the folder finds
	 * the same agents, while a look-alike path (a prefix, a sibling) finds none.
	 */
	listByWorkspace(workspaceId: string): LiveAgentHandle[] {
		// No agent has an empty workspace.
		if (workspaceId === "") return [];
		const canonical = canonicalPathSync(workspaceId);
		return this.list().filter((agent) => agent.workspaceId === canonical);
	}
}

// v2: keyed by workspace and id (v1 was keyed by id alone and has other method signatures).
const REGISTRY_KEY = Symbol.for("pi-crew:live-agents:v2");

/**
 * The registry of this process: every runtime in it shares one view of live agents. Pi loads each extension
 * instance with a fresh module graph, so a module-level registry would be one per session; it is kept on the global
 * object instead, so a session of another workspace finds an agent and is refused with the isolation message rather
 * than not finding it at all.
 */
export function processRegistry(): LiveAgentRegistry {
	const global = globalThis as { [REGISTRY_KEY]?: LiveAgentRegistry };
	global[REGISTRY_KEY] ??= new LiveAgentRegistry();
	return global[REGISTRY_KEY];
}

/** The registry of this process (see `processRegistry`). */
export const liveAgents = processRegistry();

/** Every agent this process started. */
export function listLiveAgents(): LiveAgentHandle[] {
	return liveAgents.list();
}

/** The agents whose workspace is `workspaceId` (compared as canonical paths; see the isolation seed). */
export function listLiveAgentsByWorkspace(workspaceId: string): LiveAgentHandle[] {
	return liveAgents.listByWorkspace(workspaceId);
}

/** The agents of `workspaceId` whose process is still there. */
export function listActiveLiveAgentsByWorkspace(workspaceId: string): LiveAgentHandle[] {
	return liveAgents.listByWorkspace(workspaceId).filter(isActiveAgent);
}

/**
 * The handle of `agentId`, if this process started it: of workspace `workspaceId` when given, else of the one
 * workspace that holds the id. The seed's callers compare `workspaceId` with theirs and refuse another's.
 */
export function getLiveAgent(agentId: string, workspaceId?: string): LiveAgentHandle | undefined {
	return liveAgents.get(agentId, workspaceId);
}
