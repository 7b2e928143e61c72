import { canonicalPath } from "pi-fovea/workspace";
import { loadDefinitions } from "../definitions/catalog.ts";
import type { RunEvent } from "../state/events.ts";
import type { OwnerLiveness } from "../state/owner.ts";
import { detectInterrupted, type InterruptedRun } from "../state/run-lifecycle.ts";
import { type RunListing, type RunSnapshot, RunStore } from "../state/run-store.ts";
import type { RunStatus } from "../state/status.ts";
import type { ModelChoice } from "./agent-launch.ts";
import { resumeAgentFromRunState } from "./agent-resume.ts";
import type { CrewEvent, CrewListener } from "./crew-events.ts";
import { type LiveAgentResult, runLiveAgentOperation } from "./live-agent-api.ts";
import { isActiveAgent, type LiveAgentHandle, type LiveAgentRegistry, liveAgents } from "./live-agents.ts";
import { type PiCommand, resolvePiCommand } from "./pi-command.ts";
import {
	CrewAccessError,
	checkScope,
	endOrphanedAgents,
	ownerSessionLive,
	readOwnedRun,
	type SessionScope,
} from "./run-access.ts";
import {
	type CancelledControlledRun,
	type ControlledRun,
	cancelControlledRun,
	type RunControl,
	resumeControlledRun,
	retryControlledRun,
} from "./run-control.ts";
import { heldByOtherRuntime, heldFor, heldForOtherSession, holdRun, releaseRuns } from "./run-holds.ts";
import { planRun, type StartRunInput } from "./run-plan.ts";
import { assertDepthAllowed, type CrewLimits, crewLimits } from "./runtime-config.ts";
import { RunExecution } from "./scheduler.ts";
import type { ExecutionDeps, FinishWorkspace, PrepareWorkspace } from "./task-runner.ts";
import { WorkerPool } from "./worker-pool.ts";

/** How a runtime starts and limits its agents. Everything is optional. */
export interface CrewRuntimeOptions {
	/** Default: the process-wide registry, shared by every runtime in the process. */
	registry?: LiveAgentRegistry;
	/** Base environment of agents, and where PI_CREW_* settings are read. Default: process.env. */
	env?: NodeJS.ProcessEnv;
	/** Overrides of PI_CREW_MAX_WORKERS, PI_CREW_MAX_DEPTH, PI_CREW_DEPTH, PI_CREW_NO_OUTPUT_TIMEOUT_MS. */
	limits?: Partial<CrewLimits>;
	/** How to start `pi`. Default: `resolvePiCommand(env)`. */
	pi?: PiCommand;
	/** Pi arguments for every agent (e.g. `-e <extension>`). */
	piArgs?: readonly string[];
	/** The model of agents whose definition names none (usually the coordinator's). */
	defaultModel?: ModelChoice;
	/** Where a task's agent works; default the run's workspace. Worktree mode plugs in here. */
	prepareWorkspace?: PrepareWorkspace;
	finishWorkspace?: FinishWorkspace;
	/** Decides whether a run's owner process lives (default: pid and start marker). */
	isOwnerAlive?: OwnerLiveness;
	/** Pi's agent directory for user definitions. Default: PI_CODING_AGENT_DIR or ~/.pi/agent. */
	agentDir?: string;
	/**
	 * Each path an agent's successful tool call touched, the first time (also an `agent.access` event). The
	 * extension publishes these so the coordinator's Fovea and Contour enroll the roots, with the agent as origin.
	 */
	onAccess?: (agentId: string, path: string, event: CrewEvent) => void;
}

/** The key of a run among a runtime's executions: its workspace and id (a copied run directory repeats the id). */
function runKey(workspaceId: string, runId: string): string {
	return `${workspaceId}\0${runId}`;
}

/** A run as `status` shows it. */
export interface RunReport extends RunSnapshot {
	agents: LiveAgentHandle[];
	/** The latest events (at most 50). */
	events: RunEvent[];
	/** True while this process works on the run. */
	active: boolean;
}

/**
 * The pi-crew runtime: the one object the extension and the CLI use. Every call names its caller (`cwd`,
 * `sessionId`): runs live in the caller's workspace, and a session sees and controls only its own runs and agents.
 * `force` lets it take over the runs of a session that has ended (see `ownerSessionLive`); it never reaches a live
 * session's runs, nor another workspace. Each Pi session has its own runtime, shut down when the session ends.
 */
export class CrewRuntime {
	readonly registry: LiveAgentRegistry;
	readonly limits: CrewLimits;
	readonly pool: WorkerPool;
	readonly #options: CrewRuntimeOptions;
	readonly #env: NodeJS.ProcessEnv;
	readonly #executions = new Map<string, RunExecution>();
	readonly #stores = new Map<string, RunStore>();
	readonly #listeners = new Set<{ workspace: string; sessionId: string; force: boolean; listener: CrewListener }>();
	#pi: PiCommand | undefined;

	constructor(options: CrewRuntimeOptions = {}) {
		this.#options = options;
		this.#env = options.env ?? process.env;
		this.registry = options.registry ?? liveAgents;
		this.limits = crewLimits(this.#env, options.limits);
		this.pool = new WorkerPool(this.limits.maxWorkers);
		this.#pi = options.pi;
	}

	async #store(cwd: string): Promise<RunStore> {
		const root = await canonicalPath(cwd);
		let store = this.#stores.get(root);
		if (!store) {
			store = await RunStore.open(root);
			this.#stores.set(root, store);
		}
		return store;
	}

	#emit = (event: CrewEvent): void => {
		if (event.type === "agent.access" && event.agentId && typeof event.data?.path === "string") {
			try {
				this.#options.onAccess?.(event.agentId, event.data.path, event);
			} catch {
				// A failing observer must not stop a run.
			}
		}
		for (const { workspace, sessionId, force, listener } of this.#listeners) {
			if (event.workspaceId !== workspace) continue;
			// A forced subscriber also gets the events of an orphaned run it took over, never a live session's.
			const taken = force && heldFor(this, event.workspaceId, event.runId, sessionId);
			if (event.ownerSessionId !== sessionId && !taken) continue;
			try {
				listener(event);
			} catch {
				// A failing subscriber must not stop a run.
			}
		}
	};

	/**
	 * The execution of run `runId` of the store's workspace, if this runtime has one. Keyed by workspace and run id,
	 * and its workspace checked again: a run directory copied into another workspace repeats the run id, and must
	 * never reach (wait for, cancel, report on) the original's execution.
	 */
	#executionOf(store: RunStore, runId: string): RunExecution | undefined {
		const execution = this.#executions.get(runKey(store.root, runId));
		return execution?.workspaceId === store.root ? execution : undefined;
	}

	/**
	 * The execution of the run, made if needed, and held for `sessionId` so that other sessions of the process see
	 * the run as live (a forced request of theirs is refused) until this runtime shuts down.
	 */
	#execution(store: RunStore, snapshot: RunSnapshot, sessionId: string): RunExecution {
		if (snapshot.manifest.cwd !== store.root) {
			throw new CrewAccessError(
				`Run ${snapshot.manifest.runId} belongs to workspace ${snapshot.manifest.cwd}, not ${store.root}.`,
			);
		}
		let execution = this.#executionOf(store, snapshot.manifest.runId);
		if (!execution) {
			this.#pi ??= resolvePiCommand(this.#env);
			const o = this.#options;
			const deps: ExecutionDeps = {
				store,
				registry: this.registry,
				pool: this.pool,
				limits: this.limits,
				pi: this.#pi,
				piArgs: o.piArgs ?? [],
				env: this.#env,
				emit: this.#emit,
				...(o.defaultModel ? { defaultModel: o.defaultModel } : {}),
				...(o.prepareWorkspace ? { prepareWorkspace: o.prepareWorkspace } : {}),
				...(o.finishWorkspace ? { finishWorkspace: o.finishWorkspace } : {}),
			};
			execution = new RunExecution(deps, snapshot.manifest);
			this.#executions.set(runKey(store.root, snapshot.manifest.runId), execution);
		}
		holdRun(this, store.root, snapshot.manifest.runId, sessionId);
		return execution;
	}

	/**
	 * Refuses to act on a run that another runtime of this process works on: its agents are that runtime's children,
	 * and ending them "as orphans" from here would pull them from under a live session.
	 */
	#refuseHeldElsewhere(store: RunStore, runId: string | undefined, action: string): void {
		if (runId !== undefined && heldByOtherRuntime(this, store.root, runId)) {
			throw new CrewAccessError(`Run ${runId} is being run by another session of this process; ${action} it there.`);
		}
	}

	/**
	 * Creates a run of `team` for `goal` in the caller's workspace, owned by the caller's session, and starts its
	 * tasks. Refuses beyond PI_CREW_MAX_DEPTH, and worktree mode without a workspace hook. Returns at once.
	 */
	async startRun(input: StartRunInput): Promise<RunSnapshot> {
		checkScope(input, "startRun");
		assertDepthAllowed(this.limits);
		const store = await this.#store(input.cwd);
		const agentDir = this.#options.agentDir;
		const catalog =
			input.catalog ?? (await loadDefinitions({ root: store.root, env: this.#env, ...(agentDir ? { agentDir } : {}) }));
		const plan = planRun(input, catalog, {
			depth: this.limits.depth,
			hasWorktreeHook: !!this.#options.prepareWorkspace,
		});
		const snapshot = await store.createRun(plan);
		this.#execution(store, snapshot, input.sessionId).start();
		return snapshot;
	}

	/** Waits until this process has nothing left to do for the run, then returns it. */
	async waitForRun(scope: SessionScope & { runId: string }): Promise<RunSnapshot> {
		checkScope(scope, "waitForRun");
		const store = await this.#store(scope.cwd);
		const run = await readOwnedRun(store, scope, scope.runId, "wait for");
		return (await this.#executionOf(store, scope.runId)?.whenIdle()) ?? run;
	}

	/** The run, its agents and latest events. */
	async status(scope: SessionScope & { runId: string }): Promise<RunReport> {
		checkScope(scope, "status");
		const store = await this.#store(scope.cwd);
		const run = await readOwnedRun(store, scope, scope.runId, "see");
		const events = (await store.readEvents(scope.runId)).events.slice(-50);
		const agents = this.registry.list().filter((a) => a.runId === scope.runId && a.workspaceId === store.root);
		return { ...run, agents, events, active: this.#executionOf(store, scope.runId)?.busy ?? false };
	}

	/**
	 * The runs of the caller's session; with `force` also those of ended sessions (see `ownerSessionLive`) and damaged
	 * runs, whose owner is unknown, unless a runtime of this process works on them for another session.
	 */
	async list(scope: SessionScope & { status?: readonly RunStatus[] }): Promise<RunListing[]> {
		checkScope(scope, "list");
		const store = await this.#store(scope.cwd);
		const listings = await store.listRuns(scope.status ? { status: scope.status } : {});
		const visible: RunListing[] = [];
		for (const l of listings) {
			if (l.manifest?.ownerSessionId === scope.sessionId) visible.push(l);
			else if (scope.force && !(await this.#liveElsewhere(store, l, scope.sessionId))) visible.push(l);
		}
		return visible;
	}

	/**
	 * The id of every run directory of the caller's workspace, whichever session owns it (ids only, nothing of the
	 * runs): cleanup uses it to tell a worktree whose run is gone from one of a run it may not see.
	 */
	async runIds(scope: SessionScope): Promise<Set<string>> {
		checkScope(scope, "runIds");
		const store = await this.#store(scope.cwd);
		return new Set((await store.listRuns()).map((l) => l.runId));
	}

	/** True when the run (or the damaged run directory) belongs to a live session other than `sessionId`. */
	async #liveElsewhere(store: RunStore, run: Pick<RunListing, "runId" | "manifest">, sessionId: string) {
		if (run.manifest) return ownerSessionLive(run.manifest, sessionId);
		return heldForOtherSession(store.root, run.runId, sessionId);
	}

	/** The run's manifest, or undefined when it cannot be read. */
	async #manifestOf(store: RunStore, runId: string): Promise<RunListing["manifest"]> {
		try {
			return await store.readManifest(runId);
		} catch {
			return undefined;
		}
	}

	/** True when agent `agent` may be seen and controlled by `sessionId`: its own, or, forced, an ended session's. */
	async #mayReach(store: RunStore, agent: LiveAgentHandle, sessionId: string, force: boolean): Promise<boolean> {
		if (agent.ownerSessionId === sessionId) return true;
		if (!force) return false;
		const manifest = await this.#manifestOf(store, agent.runId);
		return manifest !== undefined && !(await ownerSessionLive(manifest, sessionId));
	}

	/** What a widget shows: the caller's unfinished runs and active agents. */
	async overview(scope: SessionScope): Promise<{ runs: RunListing[]; agents: LiveAgentHandle[] }> {
		const runs = await this.list({ ...scope, status: ["pending", "running", "interrupted"] });
		const store = await this.#store(scope.cwd);
		const agents: LiveAgentHandle[] = [];
		for (const agent of this.registry.listByWorkspace(store.root).filter(isActiveAgent)) {
			if (await this.#mayReach(store, agent, scope.sessionId, scope.force === true)) agents.push(agent);
		}
		return { runs, agents };
	}

	/** The run control context of the caller's workspace and run `runId` (see run-control.ts). */
	async #control(scope: SessionScope & { runId: string }): Promise<RunControl> {
		const store = await this.#store(scope.cwd);
		return {
			store,
			execution: this.#executionOf(store, scope.runId),
			hold: (run) => this.#execution(store, run, scope.sessionId),
			refuseHeldElsewhere: (action) => this.#refuseHeldElsewhere(store, scope.runId, action),
		};
	}

	/**
	 * Ends the run's agents (process trees included) and marks it and its unfinished tasks cancelled; see
	 * `cancelControlledRun` for how a run no runtime of this process works on is cancelled.
	 */
	async cancel(scope: SessionScope & { runId: string }): Promise<CancelledControlledRun> {
		checkScope(scope, "cancel");
		return cancelControlledRun(await this.#control(scope), scope);
	}

	/** Continues an interrupted run under the caller's session (see `resumeControlledRun`). */
	async resume(scope: SessionScope & { runId: string }): Promise<ControlledRun> {
		checkScope(scope, "resume");
		return resumeControlledRun(await this.#control(scope), scope);
	}

	/** Runs failed tasks of a failed or interrupted run again (see `retryControlledRun`). */
	async retry(
		scope: SessionScope & { runId: string; taskId?: string },
	): Promise<ControlledRun & { retried: string[] }> {
		checkScope(scope, "retry");
		return retryControlledRun(await this.#control(scope), scope);
	}

	/**
	 * For session_start: marks the workspace's runs whose owner process died as interrupted and ends the agent
	 * processes they left. Returns the caller's session's marked runs (with `force` also other sessions': their owner
	 * process died, so those sessions have ended).
	 */
	async recoverInterrupted(scope: SessionScope): Promise<InterruptedRun[]> {
		checkScope(scope, "recoverInterrupted");
		const store = await this.#store(scope.cwd);
		const marked = await detectInterrupted(store, this.#options.isOwnerAlive);
		for (const run of marked) await endOrphanedAgents(store, run.runId);
		return marked.filter((run) => scope.force || run.ownerSessionId === scope.sessionId);
	}

	/** Runs a live-agent operation (list-active-live-agents, steer-agent, follow-up-agent, stop-agent, resume-agent). */
	agentOperation(operation: string, request: unknown): Promise<LiveAgentResult> {
		return runLiveAgentOperation(operation, request, {
			registry: this.registry,
			mayReach: async (agent, caller) => {
				const store = await this.#store(caller.cwd);
				return this.#mayReach(store, agent, caller.sessionId, caller.force);
			},
			resumeUnknown: async (request) => {
				const store = await this.#store(request.cwd);
				const execution = (run: RunSnapshot) => this.#execution(store, run, request.sessionId);
				const heldElsewhere = (runId: string) => heldByOtherRuntime(this, store.root, runId);
				return resumeAgentFromRunState(store, request, { registry: this.registry, execution, heldElsewhere });
			},
		});
	}

	/**
	 * Calls `listener` with the events of the caller's workspace and session (with `force`, also of the runs of ended
	 * sessions that this runtime took over for the caller; never a live session's). Returns unsubscribe.
	 */
	async subscribe(scope: SessionScope, listener: CrewListener): Promise<() => void> {
		checkScope(scope, "subscribe");
		const entry = {
			workspace: await canonicalPath(scope.cwd),
			sessionId: scope.sessionId,
			force: scope.force === true,
			listener,
		};
		this.#listeners.add(entry);
		return () => this.#listeners.delete(entry);
	}

	/** For session_shutdown: ends every agent of this runtime; their runs become interrupted and resumable. */
	async shutdown(): Promise<void> {
		await Promise.all([...this.#executions.values()].map((execution) => execution.shutdown()));
		this.#listeners.clear();
		// The session has ended: its runs are orphaned now, and another session may take them over with force.
		releaseRuns(this);
	}
}
