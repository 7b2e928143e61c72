import type { RunManifest } from "../state/manifest.ts";
import { CANCELLED_RUN_ERROR, CANCELLED_TASK_ERROR } from "../state/run-cancel.ts";
import { claimOf, type RunClaim } from "../state/run-claim.ts";
import { resumeRun } from "../state/run-lifecycle.ts";
import type { RunSnapshot } from "../state/run-store.ts";
import { isFinalRunStatus, type RunStatus, type TaskStatus } from "../state/status.ts";
import { addSpent, breachText, budgetBreach, type Spent, spentOf } from "./budget.ts";
import { type RunBudgetProbe, recordedSpent, runBudgetOf } from "./budget-guard.ts";
import { agentIdOf } from "./crew-events.ts";
import type { EndedProcess } from "./leftover-processes.ts";
import type { LiveAgentControl } from "./live-agents.ts";
import { blockedTasks, readyTasks, settledRunStatus } from "./run-progress.ts";
import type { StopReason } from "./task-outcome.ts";
import { CONTINUE_PROMPT } from "./task-prompt.ts";
import { type ExecutionDeps, endLeftovers, runTaskAgent, type TaskSlot } from "./task-runner.ts";

/** A cancelled run, and what its agents left running that the cancel ended with them. */
export interface CancelledRun extends RunSnapshot {
	endedProcesses: EndedProcess[];
}

/** Why a task marked running whose agent is gone became interrupted. */
const ORPHANED_TASK_ERROR =
	"its agent ended but the outcome could not be recorded (a state write failed); resume continues it from its session";

/**
 * A scheduling pass that failed (its state could not be read or written: disk full, a damaged file) is tried
 * again after this long, doubling up to RETRY_MAX_MS, while no agent of the run works here: once the state can
 * be written again, the run settles (a task that lost its agent becomes interrupted) instead of staying running.
 */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 30_000;

interface ActiveTask extends TaskSlot {
	finished: Promise<void>;
}

/**
 * The execution of one run in this process. It starts every pending task whose dependencies are done, up to the
 * run's concurrency (min of the team's and the runtime's worker limit; the worker pool caps all runs together),
 * hands finished results to dependents through their prompts, fails the dependents of failed tasks, and settles
 * the run as done, failed or interrupted (a stopped task can be resumed). All state goes through the RunStore.
 */
export class RunExecution {
	readonly runId: string;
	readonly workspaceId: string;
	readonly #deps: ExecutionDeps;
	readonly #active = new Map<string, ActiveTask>();
	/** Sends of the earlier processes of each task's agent (a resumed agent is a new process). */
	readonly #earlierSends = new Map<string, number>();
	readonly #lastSlot = new Map<string, TaskSlot>();
	#ownerSessionId: string;
	#pumping = false;
	#again = false;
	#halted: StopReason | undefined;
	#error: Error | undefined;
	#retryTimer: NodeJS.Timeout | undefined;
	#retryMs = RETRY_FIRST_MS;
	#idle: (() => void)[] = [];
	/** What each task's agent spent as tasks.json last said (the run budget adds the live agents' usage). */
	#recorded = new Map<string, Spent>();
	#runBudget: RunBudgetProbe = { budget: undefined, spent: () => this.#spent() };

	constructor(deps: ExecutionDeps, manifest: RunManifest) {
		this.#deps = deps;
		this.runId = manifest.runId;
		this.workspaceId = manifest.cwd;
		this.#ownerSessionId = manifest.ownerSessionId;
	}

	/** True while a task is being started or worked on, or scheduling is under way. */
	get busy(): boolean {
		return this.#active.size > 0 || this.#pumping;
	}

	/** Starts (or continues) scheduling; `announce` reports the run's status to subscribers first (after a resume). */
	start(announce?: RunStatus): void {
		if (announce) this.#emitRun(announce);
		this.#halted = undefined;
		this.#schedule();
	}

	/** Tells subscribers where the run stands after a change made outside this execution (cancel, takeover). */
	announce(manifest: RunManifest): void {
		this.#ownerSessionId = manifest.ownerSessionId;
		this.#emitRun(manifest.status, manifest.error);
	}

	/** The run as it stands once nothing of it is working here; throws the error that stopped scheduling, if any. */
	async whenIdle(): Promise<RunSnapshot> {
		if (this.busy) await new Promise<void>((resolve) => this.#idle.push(resolve));
		if (this.#error) throw this.#error;
		return this.#deps.store.readRun(this.runId);
	}

	#emitRun(status: RunStatus, error?: string): void {
		const base = { runId: this.runId, workspaceId: this.workspaceId, ownerSessionId: this.#ownerSessionId };
		this.#deps.emit({ ...base, type: "run.status", data: { status, ...(error === undefined ? {} : { error }) } });
	}

	async #setTask(taskId: string, status: TaskStatus, error: string): Promise<void> {
		await this.#deps.store.updateTask(this.runId, taskId, { status, error });
		const base = { runId: this.runId, workspaceId: this.workspaceId, ownerSessionId: this.#ownerSessionId };
		this.#deps.emit({
			...base,
			type: "task.status",
			taskId,
			agentId: agentIdOf(this.runId, taskId),
			data: { status, error },
		});
	}

	async #setRun(status: RunStatus, error?: string): Promise<RunManifest> {
		const manifest = await this.#deps.store.updateManifest(this.runId, { status, error: error ?? null });
		this.#emitRun(status, error);
		return manifest;
	}

	#schedule(): void {
		if (this.#pumping) {
			this.#again = true;
			return;
		}
		this.#pumping = true;
		// Only the latest pass's failure is reported: a later pass that succeeds clears it.
		this.#error = undefined;
		void (async () => {
			try {
				do {
					this.#again = false;
					await this.#pump();
				} while (this.#again);
			} catch (error) {
				this.#error = error instanceof Error ? error : new Error(String(error));
			} finally {
				this.#pumping = false;
				if (this.#error === undefined) this.#retryMs = RETRY_FIRST_MS;
				else if (!this.busy && !this.#halted) this.#retryLater();
				if (!this.busy) for (const wake of this.#idle.splice(0)) wake();
			}
		})();
	}

	#retryLater(): void {
		if (this.#retryTimer) return;
		const ms = this.#retryMs;
		this.#retryMs = Math.min(ms * 2, RETRY_MAX_MS);
		this.#retryTimer = setTimeout(() => {
			this.#retryTimer = undefined;
			if (!this.busy && !this.#halted) this.#schedule();
		}, ms);
		this.#retryTimer.unref();
	}

	async #pump(): Promise<void> {
		if (this.#halted) return;
		const store = this.#deps.store;
		let { manifest, tasks } = await store.readRun(this.runId);
		this.#ownerSessionId = manifest.ownerSessionId;
		if (manifest.status === "pending") manifest = await this.#setRun("running");
		if (manifest.status !== "running") return;
		for (const task of tasks) this.#recorded.set(task.id, recordedSpent(task));
		this.#runBudget.budget = runBudgetOf(manifest);
		const blocked = blockedTasks(tasks);
		for (const { task, dependency } of blocked) {
			await this.#setTask(task.id, "failed", `not started: task ${dependency.id} ${dependency.status}`);
		}
		if (blocked.length > 0) {
			// Their own dependents are blocked now too; look again.
			this.#again = true;
			return;
		}
		const limit = Math.min(
			this.#deps.limits.maxWorkers,
			Number(manifest.meta?.concurrency) || Number.POSITIVE_INFINITY,
		);
		const ready = readyTasks(tasks, new Set(this.#active.keys()));
		const spentUp = ready.length > 0 ? budgetBreach(this.#spent(), this.#runBudget.budget) : undefined;
		if (spentUp) {
			// The run has spent its budget: no further agent starts, and the tasks that need these fail with them.
			for (const task of ready) await this.#setTask(task.id, "failed", `${breachText(spentUp, "run")}; not started`);
			this.#again = true;
			return;
		}
		for (const task of ready) {
			if (this.#active.size >= limit) break;
			this.#launch(task.id, undefined);
		}
		if (this.#active.size > 0) return;
		({ tasks } = await store.readRun(this.runId));
		if (manifest.ownerPid === process.pid) {
			// This process owns the run and no agent of it works here: a task still marked running lost its agent
			// when its outcome could not be recorded (a failed state write). Its session holds the work; resume it.
			const orphaned = tasks.filter((task) => task.status === "running");
			for (const task of orphaned) await this.#setTask(task.id, "interrupted", ORPHANED_TASK_ERROR);
			if (orphaned.length > 0) ({ tasks } = await store.readRun(this.runId));
		}
		const settled = settledRunStatus(tasks);
		await this.#setRun(settled.status, settled.error);
	}

	/** What the run's agents spent: the live ones' usage so far, the others' as recorded. */
	#spent(): Spent {
		const all = [...this.#recorded].map(([taskId, recorded]) => {
			const child = this.#active.get(taskId)?.child;
			return child ? spentOf(child.capture.usage) : recorded;
		});
		return addSpent(...all);
	}

	#control(taskId: string): LiveAgentControl {
		return {
			steer: async (message) => {
				await this.#liveChild(taskId).steer(message);
				await this.#noteMessage(taskId, "steer", message);
			},
			followUp: async (message) => {
				const child = this.#liveChild(taskId);
				// An agent waiting on its question gets the message as the answer: a follow-up would wait for it to stop.
				if (child.answer(message) !== undefined) {
					this.#deps.registry.update(this.workspaceId, agentIdOf(this.runId, taskId), { question: undefined });
					await this.#noteMessage(taskId, "answer", message);
					return "answered";
				}
				await child.followUp(message);
				await this.#noteMessage(taskId, "follow-up", message);
				return undefined;
			},
			stop: () => this.stopTask(taskId),
			resume: (message) => this.resumeTask(taskId, message),
			sends: () => (this.#earlierSends.get(taskId) ?? 0) + (this.#lastSlot.get(taskId)?.child?.sends ?? 0),
		};
	}

	#liveChild(taskId: string): NonNullable<TaskSlot["child"]> {
		const child = this.#active.get(taskId)?.child;
		if (!child) throw new Error(`task ${taskId} has no running agent`);
		return child;
	}

	async #noteMessage(taskId: string, kind: string, message: string): Promise<void> {
		await this.#deps.store.appendEvent(this.runId, {
			type: "agent.message",
			taskId,
			data: { kind, chars: message.length },
		});
		const agentId = agentIdOf(this.runId, taskId);
		const base = { runId: this.runId, workspaceId: this.workspaceId, ownerSessionId: this.#ownerSessionId };
		this.#deps.emit({ ...base, type: "agent.message", taskId, agentId, data: { kind } });
	}

	#launch(taskId: string, resumeMessage: string | undefined): void {
		const previous = this.#lastSlot.get(taskId)?.child;
		if (previous) this.#earlierSends.set(taskId, (this.#earlierSends.get(taskId) ?? 0) + previous.sends);
		const slot: ActiveTask = {
			taskId,
			stop: undefined,
			child: undefined,
			abort: new AbortController(),
			finished: Promise.resolve(),
		};
		this.#lastSlot.set(taskId, slot);
		this.#active.set(taskId, slot);
		slot.finished = runTaskAgent(this.#deps, this.runId, slot, resumeMessage, this.#control(taskId), this.#runBudget)
			.catch(async (error: unknown) => {
				if (slot.stop && slot.child === undefined) return; // stopped while waiting for a worker
				if (slot.child) {
					await slot.child.stop();
					// The sweep is what matters; a store that cannot take its event must not keep the task running.
					await endLeftovers(this.#deps, this.runId, slot, this.workspaceId).catch(() => []);
				}
				const message = error instanceof Error ? error.message : String(error);
				await this.#setTask(taskId, "failed", `the runtime could not run the agent: ${message}`).catch(() => {});
				this.#deps.registry.update(this.workspaceId, agentIdOf(this.runId, taskId), { status: "failed" });
			})
			.finally(() => {
				this.#active.delete(taskId);
				this.#schedule();
			});
	}

	/** Ends the agent of `taskId` (abort, then its process tree); the task becomes interrupted and resumable. */
	async stopTask(taskId: string): Promise<void> {
		const slot = this.#active.get(taskId);
		if (!slot) throw new Error(`task ${taskId} of run ${this.runId} is not running here`);
		slot.stop ??= "stopped";
		this.#deps.registry.update(this.workspaceId, agentIdOf(this.runId, taskId), { status: "stopping" });
		slot.abort.abort(new Error("stopped"));
		await slot.child?.stop();
		await slot.finished;
	}

	/**
	 * Starts the stopped agent of `taskId` again on its session file with `message` (default: a request to
	 * continue), and continues the run. A run interrupted by a dead owner, or one that `caller` (another session)
	 * takes over, is resumed first, by the caller's session and only while it still has the owner the caller's
	 * access check saw (`caller.claim`); `beforeLaunch` runs after that and before the agent starts (it ends what
	 * the previous owner left).
	 */
	async resumeTask(
		taskId: string,
		message?: string,
		caller?: { sessionId: string; claim: RunClaim; beforeLaunch?: () => Promise<unknown> },
	): Promise<void> {
		if (this.#active.has(taskId)) throw new Error(`task ${taskId} is already running`);
		const store = this.#deps.store;
		const { manifest, tasks } = await store.readRun(this.runId);
		const task = tasks.find((t) => t.id === taskId);
		if (!task) throw new Error(`run ${this.runId} has no task ${taskId}`);
		if (task.status !== "interrupted") {
			throw new Error(`task ${taskId} is ${task.status}; only a stopped (interrupted) task can be resumed`);
		}
		if (isFinalRunStatus(manifest.status)) throw new Error(`run ${this.runId} is ${manifest.status}`);
		const takeOver = caller !== undefined && caller.sessionId !== manifest.ownerSessionId;
		if (takeOver && manifest.status !== "interrupted") {
			throw new Error(`run ${this.runId} is ${manifest.status}; another session takes over only an interrupted run`);
		}
		if (manifest.status === "interrupted") {
			if (!takeOver && manifest.ownerPid === process.pid) await this.#setRun("running");
			else {
				const owner = caller?.sessionId ?? manifest.ownerSessionId;
				const resumed = await resumeRun(
					store,
					this.runId,
					{ ownerSessionId: owner },
					caller?.claim ?? claimOf(manifest),
				);
				this.announce(resumed.manifest);
			}
		}
		await caller?.beforeLaunch?.();
		this.#halted = undefined;
		await this.#noteMessage(taskId, "resume", message ?? CONTINUE_PROMPT);
		this.#launch(taskId, message ?? CONTINUE_PROMPT);
		this.#schedule();
	}

	/** Ends every agent of the run for `reason`; returns what they left running, which was ended with them. */
	async #haltAll(reason: StopReason): Promise<EndedProcess[]> {
		this.#halted = reason;
		clearTimeout(this.#retryTimer);
		this.#retryTimer = undefined;
		const slots = [...this.#active.values()];
		for (const slot of slots) {
			slot.stop ??= reason;
			slot.abort.abort(new Error(reason));
			this.#deps.registry.update(this.workspaceId, agentIdOf(this.runId, slot.taskId), { status: "stopping" });
		}
		await Promise.all(slots.map((slot) => slot.child?.stop()));
		await Promise.all(slots.map((slot) => slot.finished));
		return slots.flatMap((slot) => slot.endedProcesses ?? []);
	}

	/**
	 * Ends every agent of the run (process trees included, and what they left running) and marks the run and its
	 * unfinished tasks cancelled.
	 */
	async cancel(): Promise<CancelledRun> {
		const endedProcesses = await this.#haltAll("cancelled");
		const store = this.#deps.store;
		const { manifest, tasks } = await store.readRun(this.runId);
		for (const task of tasks) {
			if (["pending", "running", "interrupted"].includes(task.status)) {
				await this.#setTask(task.id, "cancelled", CANCELLED_TASK_ERROR);
			}
		}
		if (!isFinalRunStatus(manifest.status)) await this.#setRun("cancelled", CANCELLED_RUN_ERROR);
		return { ...(await store.readRun(this.runId)), endedProcesses };
	}

	/** Ends every agent (they become resumable) and marks the run interrupted, for a coordinator that is leaving. */
	async shutdown(): Promise<void> {
		await this.#haltAll("shutdown");
		const manifest = await this.#deps.store.readManifest(this.runId);
		if (manifest.status === "running" || manifest.status === "pending") {
			await this.#setRun("interrupted", "the coordinator shut down; resume continues the run");
		}
	}
}
