/**
 * Which runs the live runtimes of this process work on, and for which session. A run's manifest names its owner
 * process, but one process hosts many sessions over its life (each Pi session has its own runtime, shut down when
 * the session ends), so only this record tells whether a run owned by this process still belongs to a live session
 * or is orphaned. `force` may take over only an orphaned run (see `ownerSessionLive` in run-access.ts).
 */

/** One runtime's claim on one run, made on behalf of one session. */
interface RunHold {
	workspaceId: string;
	runId: string;
	sessionId: string;
	/** The runtime that holds the run's execution. */
	holder: object;
}

// Kept on the global object, like the live-agent registry: Pi loads each extension instance with a fresh module
// graph, and a session must see the runs that the other sessions of the process hold.
const HOLDS_KEY = Symbol.for("pi-crew:run-holds:v1");

function holds(): Set<RunHold> {
	const global = globalThis as { [HOLDS_KEY]?: Set<RunHold> };
	global[HOLDS_KEY] ??= new Set();
	return global[HOLDS_KEY];
}

function find(workspaceId: string, runId: string): RunHold[] {
	return [...holds()].filter((hold) => hold.workspaceId === workspaceId && hold.runId === runId);
}

/** Records that `holder` works on run `runId` of `workspaceId` for `sessionId` (once per runtime and session). */
export function holdRun(holder: object, workspaceId: string, runId: string, sessionId: string): void {
	const held = find(workspaceId, runId).some((hold) => hold.holder === holder && hold.sessionId === sessionId);
	if (!held) holds().add({ workspaceId, runId, sessionId, holder });
}

/** Drops every claim of `holder` (its session ended: its runs are orphaned unless another runtime holds them). */
export function releaseRuns(holder: object): void {
	for (const hold of holds()) if (hold.holder === holder) holds().delete(hold);
}

/** True when some runtime of this process holds the run for a session other than `sessionId`. */
export function heldForOtherSession(workspaceId: string, runId: string, sessionId: string): boolean {
	return find(workspaceId, runId).some((hold) => hold.sessionId !== sessionId);
}

/** True when `holder` holds the run for `sessionId`. */
export function heldFor(holder: object, workspaceId: string, runId: string, sessionId: string): boolean {
	return find(workspaceId, runId).some((hold) => hold.holder === holder && hold.sessionId === sessionId);
}

/** True when a runtime other than `holder` holds the run (for any session). */
export function heldByOtherRuntime(holder: object, workspaceId: string, runId: string): boolean {
	return find(workspaceId, runId).some((hold) => hold.holder !== holder);
}
