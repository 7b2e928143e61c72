import { canonicalPath } from "pi-fovea/workspace";
import { loadDefinitions } from "../definitions/catalog.ts";
import type { RunEvent } from "../state/events.ts";
import type { OwnerLiveness } from "../state/owner.ts";
import { detectInterrupted, type InterruptedRun, resumeRun } from "../state/run-lifecycle.ts";
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
	ownedElsewhere,
	readOwnedRun,
	type SessionScope,
} from "./run-access.ts";
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
 * `sessionId`): runs live in the caller's workspace, and a session sees and controls only its own runs and agents
 * unless it passes `force` (which never crosses workspaces). One runtime per process is the intended use.
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
			if (event.workspaceId !== workspace || (!force && event.ownerSessionId !== sessionId)) continue;
			try {
				listener(event);
			} catch {
				// A failing subscriber must not stop a run.
			}
		}
	};

	#execution(store: RunStore, snapshot: RunSnapshot): RunExecution {
		let execution = this.#executions.get(snapshot.manifest.runId);
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
			this.#executions.set(snapshot.manifest.runId, execution);
		}
		return execution;
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
		this.#execution(store, snapshot).start();
		return snapshot;
	}

	/** Waits until this process has nothing left to do for the run, then returns it. */
	async waitForRun(scope: SessionScope & { runId: string }): Promise<RunSnapshot> {
		checkScope(scope, "waitForRun");
		const store = await this.#store(scope.cwd);
		const run = await readOwnedRun(store, scope, scope.runId, "wait for");
		return (await this.#executions.get(scope.runId)?.whenIdle()) ?? run;
	}

	/** The run, its agents and latest events. */
	async status(scope: SessionScope & { runId: string }): Promise<RunReport> {
		checkScope(scope, "status");
		const store = await this.#store(scope.cwd);
		const run = await readOwnedRun(store, scope, scope.runId, "see");
		const events = (await store.readEvents(scope.runId)).events.slice(-50);
		const agents = this.registry.list().filter((a) => a.runId === scope.runId && a.workspaceId === store.root);
		return { ...run, agents, events, active: this.#executions.get(scope.runId)?.busy ?? false };
	}

	/** The runs of the caller's session (all sessions' with `force`; damaged runs, whose owner is unknown, only then). */
	async list(scope: SessionScope & { status?: readonly RunStatus[] }): Promise<RunListing[]> {
		checkScope(scope, "list");
		const store = await this.#store(scope.cwd);
		const listings = await store.listRuns(scope.status ? { status: scope.status } : {});
		return listings.filter((l) =>
			l.manifest ? scope.force || l.manifest.ownerSessionId === scope.sessionId : scope.force,
		);
	}

	/** What a widget shows: the caller's unfinished runs and active agents. */
	async overview(scope: SessionScope): Promise<{ runs: RunListing[]; agents: LiveAgentHandle[] }> {
		const runs = await this.list({ ...scope, status: ["pending", "running", "interrupted"] });
		const agents = (await this.registry.listByWorkspace(scope.cwd))
			.filter(isActiveAgent)
			.filter((a) => scope.force || a.ownerSessionId === scope.sessionId);
		return { runs, agents };
	}

	/** Ends the run's agents (process trees included) and marks it and its unfinished tasks cancelled. */
	async cancel(scope: SessionScope & { runId: string }): Promise<RunSnapshot> {
		checkScope(scope, "cancel");
		const store = await this.#store(scope.cwd);
		const run = await readOwnedRun(store, scope, scope.runId, "cancel");
		const execution = this.#executions.get(scope.runId);
		if (!execution?.busy) {
			if (run.manifest.status === "done" || run.manifest.status === "failed" || run.manifest.status === "cancelled") {
				throw new Error(`Run ${scope.runId} is already ${run.manifest.status}.`);
			}
			if (await ownedElsewhere(run))
				throw new CrewAccessError(
					`Run ${scope.runId} is being run by process ${run.manifest.ownerPid}; cancel it there.`,
				);
			await endOrphanedAgents(store, scope.runId);
		}
		return (execution ?? this.#execution(store, run)).cancel();
	}

	/**
	 * Continues an interrupted run: the caller's session becomes its owner, leftover agent processes of a dead
	 * coordinator are ended, and unfinished tasks start again; an agent whose session file holds a conversation
	 * continues it (`--session`) instead of starting over.
	 */
	async resume(scope: SessionScope & { runId: string }): Promise<RunSnapshot> {
		checkScope(scope, "resume");
		const store = await this.#store(scope.cwd);
		const run = await readOwnedRun(store, scope, scope.runId, "resume");
		if (this.#executions.get(scope.runId)?.busy) throw new Error(`Run ${scope.runId} is running here already.`);
		if (run.manifest.status !== "interrupted") {
			throw new Error(`Run ${scope.runId} is ${run.manifest.status}; only an interrupted run can be resumed.`);
		}
		await endOrphanedAgents(store, scope.runId);
		const resumed = await resumeRun(store, scope.runId, { ownerSessionId: scope.sessionId });
		this.#execution(store, resumed).start("running");
		return resumed;
	}

	/**
	 * For session_start: marks the workspace's runs whose owner process died as interrupted and ends the agent
	 * processes they left. Returns the caller's session's marked runs (all with `force`).
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
			resumeUnknown: async (request) => {
				const store = await this.#store(request.cwd);
				const execution = (run: RunSnapshot) => this.#execution(store, run);
				return resumeAgentFromRunState(store, request, { registry: this.registry, execution });
			},
		});
	}

	/** Calls `listener` with the events of the caller's workspace (and session, unless `force`). Returns unsubscribe. */
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
	}
}
