/**
 * Which root Contour's background observer warms next: pure state over plain data, no timers, no Git.
 *
 * One root per pass. Passes alternate between the most recently accessed dirty root (recency) and a round-robin
 * cursor over every known root (the backstop), so a quiet root is still visited within 2N passes of N roots. A
 * root whose last activity is younger than the debounce interval waits: warming a project mid-edit would redo
 * the work on the next edit.
 *
 * @module
 */

/** What the observer knows of one root. Values are replaced, never mutated. */
export interface ScheduledRoot {
	readonly root: string;
	/** The lease the root was enrolled under; a different lease is a new observation boundary. */
	readonly lease: number;
	/** Clock time of the last successful activity, `undefined` for a root only tracked (restored, never active). */
	readonly lastAccess: number | undefined;
	/** Recency rank: the schedule's activity serial at the last activity, 0 when never active. */
	readonly accessSeq: number;
	/** Clock time of the last warm that published, `undefined` before the first. */
	readonly lastWarmed: number | undefined;
	/** Whether activity happened since the last published warm. */
	readonly dirty: boolean;
	/** Activity count, so a warm that overlapped new activity leaves the root dirty. */
	readonly touches: number;
}

/** Why a pass chose its root. */
export type PickReason = "recent" | "backstop";

/** The observer's schedule: known roots in round-robin order, the backstop cursor and whose turn is next. */
export interface Schedule {
	readonly maxRoots: number;
	readonly roots: readonly ScheduledRoot[];
	/** Index into `roots` where the backstop looks first. */
	readonly cursor: number;
	/** What the next picking pass prefers. */
	readonly turn: PickReason;
	/** Activity serial; strictly increasing, so recency never ties. */
	readonly seq: number;
	/** The root the previous picking pass chose; the backstop passes over it when another root is due. */
	readonly lastPick: string | undefined;
}

/** The root one pass warms, with the lease and activity count it must still match when the warm finishes. */
export interface Pick {
	readonly root: string;
	readonly lease: number;
	readonly touches: number;
	readonly reason: PickReason;
}

/** A schedule update that may have evicted roots to stay within `maxRoots`. */
export interface Admitted {
	readonly schedule: Schedule;
	readonly evicted: string[];
}

/** An empty schedule holding at most `maxRoots` roots; recency takes the first pass. */
export function createSchedule(maxRoots: number): Schedule {
	if (!Number.isSafeInteger(maxRoots) || maxRoots < 1) {
		throw new Error(`schedule: maxRoots must be a positive integer, got ${String(maxRoots)}`);
	}
	return { maxRoots, roots: [], cursor: 0, turn: "recent", seq: 0, lastPick: undefined };
}

/**
 * Records successful activity in `root` under `lease` at `now`: the root becomes the most recent and dirty. A new
 * root beyond `maxRoots` evicts the least recently accessed one.
 */
export function recordActivity(schedule: Schedule, root: string, lease: number, now: number): Admitted {
	return admit(schedule, root, lease, now);
}

/**
 * Makes `root` known without activity (a root restored with the session ring): only the backstop visits it until
 * it is used. A lease change still starts a new observation boundary.
 */
export function trackRoot(schedule: Schedule, root: string, lease: number): Admitted {
	return admit(schedule, root, lease, undefined);
}

function admit(schedule: Schedule, root: string, lease: number, now: number | undefined): Admitted {
	const active = now !== undefined;
	const seq = active ? schedule.seq + 1 : schedule.seq;
	const index = schedule.roots.findIndex((r) => r.root === root);
	const known = schedule.roots[index];
	if (known !== undefined) {
		const boundary = known.lease !== lease;
		const next: ScheduledRoot = {
			root,
			lease,
			lastAccess: active ? now : boundary ? undefined : known.lastAccess,
			accessSeq: active ? seq : boundary ? 0 : known.accessSeq,
			lastWarmed: boundary ? undefined : known.lastWarmed,
			dirty: active || (!boundary && known.dirty),
			touches: known.touches + (active ? 1 : 0),
		};
		const roots = schedule.roots.with(index, next);
		return { schedule: { ...schedule, roots, seq }, evicted: [] };
	}
	const fresh: ScheduledRoot = {
		root,
		lease,
		lastAccess: now,
		accessSeq: active ? seq : 0,
		lastWarmed: undefined,
		dirty: active,
		touches: active ? 1 : 0,
	};
	let next: Schedule = { ...schedule, seq };
	const evicted: string[] = [];
	while (next.roots.length >= next.maxRoots) {
		const oldest = leastRecent(next.roots);
		evicted.push(oldest.root);
		next = retireRoots(next, [oldest.root]);
	}
	return { schedule: { ...next, roots: [...next.roots, fresh] }, evicted };
}

function leastRecent(roots: readonly ScheduledRoot[]): ScheduledRoot {
	let oldest = roots[0];
	if (oldest === undefined) throw new Error("schedule: no root to evict");
	for (const r of roots) if (r.accessSeq < oldest.accessSeq) oldest = r;
	return oldest;
}

/** Forgets `roots`; the backstop cursor keeps its place among the roots that remain. */
export function retireRoots(schedule: Schedule, roots: Iterable<string>): Schedule {
	const gone = new Set(roots);
	if (!schedule.roots.some((r) => gone.has(r.root))) return schedule;
	let cursor = schedule.cursor;
	const kept: ScheduledRoot[] = [];
	schedule.roots.forEach((r, i) => {
		if (!gone.has(r.root)) kept.push(r);
		else if (i < schedule.cursor) cursor--;
	});
	return {
		...schedule,
		roots: kept,
		cursor: cursor >= kept.length ? 0 : cursor,
		lastPick: schedule.lastPick !== undefined && gone.has(schedule.lastPick) ? undefined : schedule.lastPick,
	};
}

/**
 * Records that the warm chosen by `pick` published at `now`. The root stays dirty if activity arrived while it
 * ran; a root retired or re-leased meanwhile is left alone.
 */
export function recordWarm(schedule: Schedule, pick: Pick, now: number): Schedule {
	const index = schedule.roots.findIndex((r) => r.root === pick.root && r.lease === pick.lease);
	const known = schedule.roots[index];
	if (known === undefined) return schedule;
	const dirty = known.dirty && known.touches !== pick.touches;
	return { ...schedule, roots: schedule.roots.with(index, { ...known, lastWarmed: now, dirty }) };
}

/** Whether `root` is past its debounce interval at `now`. */
export function isDue(root: ScheduledRoot, now: number, debounceMs: number): boolean {
	return root.lastAccess === undefined || now - root.lastAccess >= debounceMs;
}

/**
 * Chooses the one root this pass warms, or none when no root is due. On a recency turn that is the most recently
 * accessed dirty root past its debounce; otherwise (or when no dirty root is due) the next due root from the
 * round-robin cursor. Only a pass that picks a root moves the turn and the cursor.
 */
export function nextRoot(
	schedule: Schedule,
	now: number,
	debounceMs: number,
): { schedule: Schedule; pick: Pick | undefined } {
	const turn: PickReason = schedule.turn === "recent" ? "backstop" : "recent";
	if (schedule.turn === "recent") {
		let best: ScheduledRoot | undefined;
		for (const r of schedule.roots) {
			if (r.dirty && isDue(r, now, debounceMs) && (best === undefined || r.accessSeq > best.accessSeq)) best = r;
		}
		if (best !== undefined) {
			return { schedule: { ...schedule, turn, lastPick: best.root }, pick: pickOf(best, "recent") };
		}
	}
	const index = backstopIndex(schedule, now, debounceMs);
	const chosen = index === undefined ? undefined : schedule.roots[index];
	if (index === undefined || chosen === undefined) return { schedule, pick: undefined };
	const cursor = (index + 1) % schedule.roots.length;
	return { schedule: { ...schedule, turn, cursor, lastPick: chosen.root }, pick: pickOf(chosen, "backstop") };
}

function backstopIndex(schedule: Schedule, now: number, debounceMs: number): number | undefined {
	const n = schedule.roots.length;
	let repeat: number | undefined;
	for (let k = 0; k < n; k++) {
		const i = (schedule.cursor + k) % n;
		const r = schedule.roots[i];
		if (r === undefined || !isDue(r, now, debounceMs)) continue;
		// The root the previous pass just warmed is the backstop's last resort, not its next stop.
		if (r.root !== schedule.lastPick) return i;
		repeat = i;
	}
	return repeat;
}

function pickOf(root: ScheduledRoot, reason: PickReason): Pick {
	return { root: root.root, lease: root.lease, touches: root.touches, reason };
}

/** Known roots, most recently accessed first; roots never active follow in round-robin order. */
export function recencyOrder(schedule: Schedule): string[] {
	return schedule.roots
		.map((r, i) => ({ r, i }))
		.sort((a, b) => b.r.accessSeq - a.r.accessSeq || a.i - b.i)
		.map(({ r }) => r.root);
}
