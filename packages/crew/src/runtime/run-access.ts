import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { manifestOwner, type RunManifest } from "../state/manifest.ts";
import { isOwnerAlive, processStartMarker } from "../state/owner.ts";
import type { RunSnapshot, RunStore } from "../state/run-store.ts";
import { agentProcesses, endAgentProcesses } from "./leftover-processes.ts";
import { killProcessTree } from "./process-tree.ts";
import { heldForOtherSession } from "./run-holds.ts";

/** Who asks: the caller's workspace and Pi session, and whether it overrides the session boundary. */
export interface SessionScope {
	/** The caller's workspace folder (any alias of it). */
	cwd: string;
	sessionId: string;
	/**
	 * Take over the runs of other sessions of the same workspace whose session has ended (owner process dead, or
	 * no runtime of this process holds the run any more). Never reaches a live session, nor another workspace.
	 */
	force?: boolean;
}

/** A request that the caller's workspace or session may not make. */
export class CrewAccessError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "CrewAccessError";
	}
}

/**
 * The refusal of a forced request for a run whose owning session is still live (a live process of its own, or a
 * runtime of this process that works on it for another session).
 */
export class LiveSessionError extends CrewAccessError {
	constructor(message: string) {
		super(message);
		this.name = "LiveSessionError";
	}
}

/** The refusal of a forced request for another live session's run. */
export function liveSessionRunMessage(runId: string, workspace: string, action: string): string {
	return `Run ${runId} belongs to another live session of workspace ${workspace}; force only takes over a run whose session has ended, so it cannot ${action} it.`;
}

/**
 * True while the session that owns the run may still work on it, as `sessionId` sees it: a runtime of this process
 * holds the run for another session, or the owner is another process that is alive (one on another host counts as
 * alive). A run owned by this process that no runtime holds for another session is orphaned: its session ended.
 */
export async function ownerSessionLive(manifest: RunManifest, sessionId: string): Promise<boolean> {
	if (heldForOtherSession(manifest.cwd, manifest.runId, sessionId)) return true;
	const owner = manifestOwner(manifest);
	if (owner.pid === process.pid && owner.host === hostname()) return false;
	return isOwnerAlive(owner);
}

/** Throws unless `scope` names a workspace folder and a session as nonempty strings. */
export function checkScope(scope: unknown, what: string): asserts scope is SessionScope {
	const s = scope as Partial<Record<keyof SessionScope, unknown>> | null;
	if (s === null || typeof s !== "object") throw new Error(`${what}: expected an object with cwd and sessionId`);
	if (typeof s.cwd !== "string" || s.cwd.trim() === "") throw new Error(`${what}: field "cwd": expected a folder path`);
	if (typeof s.sessionId !== "string" || s.sessionId.trim() === "") {
		throw new Error(`${what}: field "sessionId": expected a nonempty string`);
	}
	if (s.force !== undefined && typeof s.force !== "boolean")
		throw new Error(`${what}: field "force": expected true or false`);
}

/**
 * Run `runId` of the store's workspace, for a caller allowed to `action` it: it must live in this workspace (a
 * run of another workspace is simply not found here) and belong to the caller's session, or, with `force`, to a
 * session that has ended (a live session's run is refused with a LiveSessionError even then).
 */
export async function readOwnedRun(
	store: RunStore,
	scope: SessionScope,
	runId: string,
	action: string,
): Promise<RunSnapshot> {
	if (typeof runId !== "string" || !existsSync(store.files(runId).dir)) {
		throw new CrewAccessError(`No run ${runId} in workspace ${store.root}.`);
	}
	const run = await store.readRun(runId);
	if (run.manifest.ownerSessionId === scope.sessionId) return run;
	if (scope.force !== true) {
		throw new CrewAccessError(
			`Run ${runId} belongs to another session of workspace ${store.root}; pass force to ${action} it.`,
		);
	}
	if (await ownerSessionLive(run.manifest, scope.sessionId)) {
		throw new LiveSessionError(liveSessionRunMessage(runId, store.root, action));
	}
	return run;
}

/** True when the run's owner process is alive and is not this process. */
export async function ownedElsewhere(run: RunSnapshot): Promise<boolean> {
	const owner = manifestOwner(run.manifest);
	return owner.pid !== process.pid && (await isOwnerAlive(owner));
}

/**
 * Ends the processes a dead coordinator's agents left behind, so a resumed agent never shares its session file with
 * the old one and nothing of the old run keeps changing the workspace: each recorded agent (`meta.agentPid` and
 * `meta.agentStart`, whose start marker still matches) with its tree, and every other process that carries the run's
 * environment (a command an agent detached, or one it left when it exited). A process not started for this run of
 * this workspace is left alone, whatever pid tasks.json records (tasks.json is only a file in the workspace: a copy
 * of another workspace's run directory carries that workspace's agent pids, and must not end its agents). Returns
 * the pids it ended.
 */
export async function endOrphanedAgents(store: RunStore, runId: string): Promise<number[]> {
	const ended: number[] = [];
	const ofRun = new Set(await agentProcesses({ workspace: store.root, runId }));
	const { tasks } = await store.readRun(runId);
	for (const task of tasks) {
		const pid = task.meta?.agentPid;
		const start = task.meta?.agentStart;
		if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 1) continue;
		const same = typeof start === "string" && (await processStartMarker(pid)) === start;
		if (same && ofRun.has(pid)) {
			await killProcessTree(pid, { group: true });
			ended.push(pid);
			await store.appendEvent(runId, { type: "agent.orphan-ended", taskId: task.id, data: { pid } });
		}
		await store.updateTask(runId, task.id, { meta: { agentPid: null, agentStart: null } });
	}
	const leftovers = await endAgentProcesses({ workspace: store.root, runId });
	if (leftovers.length > 0) {
		const pids = leftovers.map((p) => p.pid);
		await store.appendEvent(runId, { type: "run.leftovers-ended", data: { pids, processes: leftovers } });
		ended.push(...pids);
	}
	return ended;
}
