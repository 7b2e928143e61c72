import { mkdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import type { RunManifest } from "../state/manifest.ts";
import { processStartMarker } from "../state/owner.ts";
import type { RunStore } from "../state/run-store.ts";
import type { RunTask } from "../state/tasks.ts";
import { agentArgs, agentEnv, type ModelChoice, readAgentSnapshot } from "./agent-launch.ts";
import { budgetStop, type RunBudgetProbe } from "./budget-guard.ts";
import { type AgentOutcome, ChildAgent } from "./child-agent.ts";
import { agentIdOf, type CrewEvent } from "./crew-events.ts";
import { type EndedProcess, endAgentProcesses } from "./leftover-processes.ts";
import type { LiveAgentControl, LiveAgentRegistry } from "./live-agents.ts";
import type { PiCommand } from "./pi-command.ts";
import type { CrewLimits } from "./runtime-config.ts";
import { type StopReason, taskOutcome } from "./task-outcome.ts";
import { CONTINUE_PROMPT, taskPrompt } from "./task-prompt.ts";
import type { WorkerPool } from "./worker-pool.ts";

/**
 * Where a task's agent works. The default is the run's workspace (`manifest.cwd`); worktree mode supplies a hook
 * that creates the task's worktree and returns its folder.
 */
export type PrepareWorkspace = (context: { manifest: RunManifest; task: RunTask }) => Promise<string>;

/** Called after a task's agent ended; may report changed files it knows of (e.g. a worktree's diff). */
export type FinishWorkspace = (context: {
	manifest: RunManifest;
	task: RunTask;
	cwd: string;
	outcome: AgentOutcome;
}) => Promise<{ changedFiles?: string[] } | undefined>;

/** Everything a run's execution needs from its runtime. */
export interface ExecutionDeps {
	store: RunStore;
	registry: LiveAgentRegistry;
	pool: WorkerPool;
	limits: CrewLimits;
	pi: PiCommand;
	/** Pi arguments for every agent (e.g. extensions to load). */
	piArgs: readonly string[];
	/** The base environment of agent processes. */
	env: NodeJS.ProcessEnv;
	defaultModel?: ModelChoice;
	prepareWorkspace?: PrepareWorkspace;
	finishWorkspace?: FinishWorkspace;
	emit(event: CrewEvent): void;
}

/** One task being started or worked on. */
export interface TaskSlot {
	taskId: string;
	/** Set when the runtime wants the agent ended, and why. */
	stop: StopReason | undefined;
	child: ChildAgent | undefined;
	/** Aborts the wait for a worker slot. */
	abort: AbortController;
	/** What its agent left running, ended when the agent ended (see `endLeftovers`). */
	endedProcesses?: EndedProcess[];
	/** Set when the agent was stopped for reaching a budget: the task's status text. */
	budgetStop?: string;
}

/** The session file and system prompt file of a task's agent, inside the run directory. */
export function agentFiles(
	runDir: string,
	task: Pick<RunTask, "id" | "agent">,
): { sessionFile: string; systemPromptFile: string } {
	return {
		sessionFile: join(runDir, "sessions", `${task.id}.jsonl`),
		systemPromptFile: join(runDir, "agents", `${task.agent}.md`),
	};
}

async function hasConversation(sessionFile: string): Promise<boolean> {
	try {
		return (await stat(sessionFile)).size > 0;
	} catch {
		return false;
	}
}

/**
 * Ends what the slot's agent left running (every process carrying its run's and task's ids, see
 * `endAgentProcesses`), adds it to the slot's and, when there was any, records an `agent.leftovers-ended` event.
 * Call it once the agent process is gone. Returns what this call ended.
 */
export async function endLeftovers(
	deps: Pick<ExecutionDeps, "store">,
	runId: string,
	slot: TaskSlot,
	workspace: string,
): Promise<EndedProcess[]> {
	const ended = await endAgentProcesses({ workspace, runId, taskId: slot.taskId });
	// Added to: a second sweep after a failure (see the scheduler) must not hide what the first one ended.
	slot.endedProcesses = [...(slot.endedProcesses ?? []), ...ended];
	if (ended.length > 0) {
		const data = { count: ended.length, processes: ended };
		await deps.store.appendEvent(runId, { type: "agent.leftovers-ended", taskId: slot.taskId, data });
	}
	return ended;
}

/**
 * Runs the agent of one task to its end: waits for a worker slot, prepares the workspace, starts `pi` on the
 * task's session file (continuing it when it already holds a conversation), registers the live handle, and
 * records the outcome (result text, usage, changed and accessed files) in tasks.json and events.jsonl.
 */
export async function runTaskAgent(
	deps: ExecutionDeps,
	runId: string,
	slot: TaskSlot,
	resumeMessage: string | undefined,
	control: LiveAgentControl,
	runBudget?: RunBudgetProbe,
): Promise<void> {
	const release = await deps.pool.acquire(slot.abort.signal);
	try {
		if (slot.stop) return;
		const { store, registry } = deps;
		const { manifest, tasks } = await store.readRun(runId);
		const task = tasks.find((t) => t.id === slot.taskId);
		if (!task || (task.status !== "pending" && task.status !== "interrupted")) return;
		const agentId = agentIdOf(runId, task.id);
		const base = {
			runId,
			workspaceId: manifest.cwd,
			ownerSessionId: manifest.ownerSessionId,
			taskId: task.id,
			agentId,
		};
		// Before anything starts: an id another workspace's agent holds is refused, never taken over.
		registry.assertRegistrable({ agentId, workspaceId: manifest.cwd });
		const agent = readAgentSnapshot(manifest.meta, task.agent, store.files(runId).manifest);
		const cwd = deps.prepareWorkspace ? await deps.prepareWorkspace({ manifest, task }) : manifest.cwd;
		const { sessionFile, systemPromptFile } = agentFiles(store.files(runId).dir, task);
		await mkdir(dirname(sessionFile), { recursive: true });
		await mkdir(dirname(systemPromptFile), { recursive: true });
		// Atomic: another task of the same agent may be starting `pi` on this file right now.
		await writeFileAtomic(systemPromptFile, `${agent.systemPrompt}\n`);
		const resumed = await hasConversation(sessionFile);
		const prompt =
			resumeMessage ??
			(resumed
				? CONTINUE_PROMPT
				: taskPrompt(
						manifest,
						task,
						tasks.filter((t) => t.status === "done"),
					));
		const startMeta = { agentId, sessionFile, cwd, endedProcesses: null };
		await store.updateTask(runId, task.id, { status: "running", error: null, meta: startMeta });
		deps.emit({ ...base, type: "task.status", data: { status: "running" } });
		const child = ChildAgent.spawn({
			pi: deps.pi,
			cwd,
			sessionFile,
			args: agentArgs(agent, { systemPromptFile, defaultModel: deps.defaultModel, extra: deps.piArgs }),
			env: agentEnv(deps.env, deps.limits.depth, { runId, taskId: task.id, agentId, workspace: manifest.cwd }),
			noOutputTimeoutMs: deps.limits.noOutputTimeoutMs,
			onRecord: (record) => {
				if (record.type === "tool_execution_start" && typeof record.toolName === "string") {
					registry.update(manifest.cwd, agentId, { currentTool: record.toolName });
					deps.emit({ ...base, type: "agent.tool", data: { toolName: record.toolName } });
				} else if (record.type === "tool_execution_end") {
					registry.update(manifest.cwd, agentId, { currentTool: undefined });
				} else if (record.type === "message_end") {
					// The capture has summed this message already (onRecord runs after it).
					registry.update(manifest.cwd, agentId, { usage: { ...child.capture.usage } });
				} else if (record.type === "turn_end" && child.capture.lastStopReason === "toolUse" && !slot.stop) {
					// The agent goes on to another model call: not when a budget says it has spent enough.
					slot.budgetStop ??= budgetStop(child.capture.usage, agent.budget, runBudget);
					if (slot.budgetStop !== undefined) {
						registry.update(manifest.cwd, agentId, { status: "stopping" });
						void child.stop();
					}
				}
			},
			onQuestion: (question) => {
				registry.update(manifest.cwd, agentId, { question: question.text });
				const data = { question: question.text, toolCallId: question.toolCallId, open: true };
				void store.appendEvent(runId, { type: "agent.question", taskId: task.id, data }).catch(() => {});
				deps.emit({ ...base, type: "agent.question", data });
			},
			onQuestionClosed: (toolCallId) => {
				registry.update(manifest.cwd, agentId, { question: undefined });
				deps.emit({ ...base, type: "agent.question", data: { toolCallId, open: false } });
			},
			onAccess: (access) => {
				registry.addAccessedPath(manifest.cwd, agentId, access.path);
				deps.emit({ ...base, type: "agent.access", data: { path: access.path, kind: access.kind, via: access.via } });
			},
		});
		slot.child = child;
		const handle = {
			agentId,
			runId,
			taskId: task.id,
			workspaceId: manifest.cwd,
			ownerSessionId: manifest.ownerSessionId,
		};
		const where = {
			pid: child.pid,
			sessionFile,
			cwd,
			startedAt: store.now(),
			accessedPaths: [],
			sends: 0,
			...(agent.budget ? { budget: agent.budget } : {}),
		};
		registry.register({ ...handle, ...where, status: "starting" }, control);
		// The prompt goes first, so a steer can never reach Pi before the task it steers.
		const running = child.run(prompt);
		registry.update(manifest.cwd, agentId, { status: "running" });
		if (slot.stop) void child.stop();
		const pid = child.pid;
		const agentStart = pid === undefined ? null : await processStartMarker(pid);
		await store.updateTask(runId, task.id, { meta: { agentPid: pid ?? null, agentStart } });
		await store.appendEvent(runId, {
			type: "agent.started",
			taskId: task.id,
			data: { agentId, pid: pid ?? null, resumed },
		});
		deps.emit({ ...base, type: "agent.started", data: { pid, sessionFile, cwd, resumed } });
		const outcome = await running;
		await child.close();
		// Before the workspace is finished (a worktree's diff) and before the task may be resumed: nothing the agent
		// left may keep writing, nor be taken for the next agent's.
		const endedProcesses = await endLeftovers(deps, runId, slot, manifest.cwd);
		const finished = await deps.finishWorkspace?.({ manifest, task, cwd, outcome });
		const { patch, agentStatus } = taskOutcome(outcome, slot.stop, finished?.changedFiles, slot.budgetStop);
		const meta = {
			...patch.meta,
			agentPid: null,
			agentStart: null,
			endedProcesses: endedProcesses.length > 0 ? endedProcesses : null,
		};
		await store.updateTask(runId, task.id, { ...patch, meta });
		await store.appendEvent(runId, {
			type: "agent.exited",
			taskId: task.id,
			data: { agentId, end: outcome.end, status: agentStatus },
		});
		registry.update(manifest.cwd, agentId, {
			status: agentStatus,
			endedAt: store.now(),
			currentTool: undefined,
			endedProcesses,
		});
		deps.emit({ ...base, type: "task.status", data: { status: patch.status, error: patch.error ?? undefined } });
		const exited = { end: outcome.end, status: agentStatus, endedProcesses: endedProcesses.length };
		deps.emit({ ...base, type: "agent.exited", data: exited });
	} finally {
		release();
	}
}
