import { existsSync } from "node:fs";
import { manifestOwner } from "../state/manifest.ts";
import { isOwnerAlive, processStartMarker } from "../state/owner.ts";
import type { RunSnapshot, RunStore } from "../state/run-store.ts";
import { killProcessTree } from "./process-tree.ts";

/** Who asks: the caller's workspace and Pi session, and whether it overrides the session boundary. */
export interface SessionScope {
	/** The caller's workspace folder (any alias of it). */
	cwd: string;
	sessionId: string;
	/** See and control the runs of other sessions of the same workspace. Never crosses workspaces. */
	force?: boolean;
}

/** A request that the caller's workspace or session may not make. */
export class CrewAccessError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "CrewAccessError";
	}
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
 * run of another workspace is simply not found here) and belong to the caller's session unless `force`.
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
	if (run.manifest.ownerSessionId !== scope.sessionId && scope.force !== true) {
		throw new CrewAccessError(
			`Run ${runId} belongs to another session of workspace ${store.root}; pass force to ${action} it.`,
		);
	}
	return run;
}

/** True when the run's owner process is alive and is not this process. */
export async function ownedElsewhere(run: RunSnapshot): Promise<boolean> {
	const owner = manifestOwner(run.manifest);
	return owner.pid !== process.pid && (await isOwnerAlive(owner));
}

/**
 * Ends agent processes that a dead coordinator left behind (recorded per task as `meta.agentPid` and
 * `meta.agentStart`), so a resumed agent never shares its session file with the old one. A pid whose start
 * marker differs belongs to another process now and is left alone. Returns the pids it ended.
 */
export async function endOrphanedAgents(store: RunStore, runId: string): Promise<number[]> {
	const ended: number[] = [];
	const { tasks } = await store.readRun(runId);
	for (const task of tasks) {
		const pid = task.meta?.agentPid;
		const start = task.meta?.agentStart;
		if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 1) continue;
		if (typeof start === "string" && (await processStartMarker(pid)) === start) {
			await killProcessTree(pid, { group: true });
			ended.push(pid);
			await store.appendEvent(runId, { type: "agent.orphan-ended", taskId: task.id, data: { pid } });
		}
		await store.updateTask(runId, task.id, { meta: { agentPid: null, agentStart: null } });
	}
	return ended;
}
