import { canonicalPath } from "pi-fovea/workspace";

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
	/** Distinct absolute paths the agent's tools touched (metadata for the coordinator's roots, not authorship). */
	accessedPaths: string[];
	/** Records written to the agent's processes so far (prompts, steers, follow-ups, aborts). */
	sends: number;
}

/** What the live-agent operations do to an agent; supplied by whoever runs it. */
export interface LiveAgentControl {
	steer(message: string): Promise<void>;
	followUp(message: string): Promise<void>;
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
 * The agents this process started, by id. Handles stay after their process ends, so a stopped agent can still be
 * found and resumed; readers get copies, so only the runner of an agent changes its handle.
 */
export class LiveAgentRegistry {
	readonly #entries = new Map<string, Entry>();

	/** Adds or replaces the agent `handle.agentId`. */
	register(handle: LiveAgentHandle, control: LiveAgentControl): void {
		this.#entries.set(handle.agentId, { handle: { ...handle, accessedPaths: [...handle.accessedPaths] }, control });
	}

	/** Changes fields of a registered handle (identity and workspace stay as registered). */
	update(agentId: string, patch: Partial<Omit<LiveAgentHandle, "agentId" | "runId" | "taskId" | "workspaceId">>): void {
		const entry = this.#entries.get(agentId);
		if (entry) entry.handle = { ...entry.handle, ...patch };
	}

	/** Adds a path to the agent's accessed paths (no duplicates). */
	addAccessedPath(agentId: string, path: string): void {
		const entry = this.#entries.get(agentId);
		if (entry && !entry.handle.accessedPaths.includes(path)) entry.handle.accessedPaths.push(path);
	}

	/** Forgets an agent. */
	remove(agentId: string): boolean {
		return this.#entries.delete(agentId);
	}

	#copy(entry: Entry): LiveAgentHandle {
		return { ...entry.handle, accessedPaths: [...entry.handle.accessedPaths], sends: entry.control.sends() };
	}

	/** A copy of the handle of `agentId`. */
	get(agentId: string): LiveAgentHandle | undefined {
		const entry = this.#entries.get(agentId);
		return entry && this.#copy(entry);
	}

	/** The control of `agentId`. Callers check workspace and owner first (see `runLiveAgentOperation`). */
	control(agentId: string): LiveAgentControl | undefined {
		return this.#entries.get(agentId)?.control;
	}

	/** Every agent, oldest first. */
	list(): LiveAgentHandle[] {
		return [...this.#entries.values()].map((entry) => this.#copy(entry));
	}

	/**
	 * The agents of one workspace. `workspaceId` is canonicalized first, so a symlink alias of the folder finds
	 * the same agents, while a look-alike path (a prefix, a sibling) finds none.
	 */
	async listByWorkspace(workspaceId: string): Promise<LiveAgentHandle[]> {
		const canonical = await canonicalPath(workspaceId);
		return this.list().filter((agent) => agent.workspaceId === canonical);
	}
}

const REGISTRY_KEY = Symbol.for("pi-crew:live-agents:v1");

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

/** The agents whose workspace is `workspaceId` (compared as canonical paths). */
export function listLiveAgentsByWorkspace(workspaceId: string): Promise<LiveAgentHandle[]> {
	return liveAgents.listByWorkspace(workspaceId);
}

/** The agents of `workspaceId` whose process is still there. */
export async function listActiveLiveAgentsByWorkspace(workspaceId: string): Promise<LiveAgentHandle[]> {
	return (await liveAgents.listByWorkspace(workspaceId)).filter(isActiveAgent);
}

/** The handle of `agentId`, if this process started it. */
export function getLiveAgent(agentId: string): LiveAgentHandle | undefined {
	return liveAgents.get(agentId);
}
