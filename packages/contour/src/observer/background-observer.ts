/**
 * Contour's silent background observer: the timer-driven shell around {@link nextRoot}.
 *
 * It only warms caches through the injected `warm`; it never shows, injects or steers anything, and it imports
 * nothing of Pi. One pass runs at a time and warms one root. Work that lost its lease, its session or its root
 * while it ran is aborted and publishes nothing.
 *
 * @module
 */

import { type ObserverStats, PassLedger, type PassOutcome, type SkipReason } from "./pass-ledger.ts";
import {
	createSchedule,
	nextRoot,
	type Pick,
	type PickReason,
	recencyOrder,
	recordActivity,
	recordWarm,
	retireRoots,
	type Schedule,
	trackRoot,
} from "./schedule.ts";
import {
	CONTOUR_ROOT_LIMIT,
	contourMaxRoots,
	DEFAULT_DEBOUNCE_MS,
	DEFAULT_TICK_MS,
	observerEnabled,
} from "./settings.ts";

/** Cancels a timer armed by {@link BackgroundObserverOptions.setTimer}. */
export type CancelTimer = () => void;

/** What a warm knows about the pass that started it. */
export interface WarmContext {
	readonly lease: number;
	readonly reason: PickReason;
}

/** How an observer is built; everything but `warm` has a default. */
export interface BackgroundObserverOptions<T> {
	/** Warms one root's caches. It should stop early once `signal` fires and must not publish on its own after that. */
	warm: (root: string, signal: AbortSignal, context: WarmContext) => Promise<T>;
	/** Receives a warm's result, only while its root, lease and session are still current. */
	publish?: (root: string, value: T, context: WarmContext) => void;
	/** An outside lease check (the roaming ring), consulted before and after each warm. */
	isCurrent?: (root: string, lease: number) => boolean;
	/** Scheduling tick, default 5000 ms. */
	tickMs?: number;
	/** Quiet time after activity before a root is warmed, default 1500 ms. */
	debounceMs?: number;
	/** Whether passes run at all; default `observerEnabled` (CONTOUR_BACKGROUND, else the settings file). */
	enabled?: boolean;
	/** Roots tracked at most (1–32); default `CONTOUR_MAX_ROOTS`. */
	maxRoots?: number;
	/** Environment for the defaults above. */
	env?: Record<string, string | undefined>;
	/** Clock, default `Date.now`. */
	now?: () => number;
	/** Arms a one-shot timer; the default is an unref'd `setTimeout`, so an idle observer never holds a process open. */
	setTimer?: (fn: () => void, ms: number) => CancelTimer;
}

interface Flight {
	pick: Pick;
	epoch: number;
	controller: AbortController;
	done: Promise<PassOutcome>;
}

function boundedInt(name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
	if (!Number.isSafeInteger(value) || value < min || value > max) {
		throw new Error(`BackgroundObserver: ${name} must be an integer in ${min}–${max}, got ${String(value)}`);
	}
	return value;
}

function unrefTimer(fn: () => void, ms: number): CancelTimer {
	const timer = setTimeout(fn, ms);
	timer.unref();
	return () => clearTimeout(timer);
}

/** The silent background observer of one Contour extension instance. */
export class BackgroundObserver<T = void> {
	/** Whether passes run; when false no timer is ever armed but roots are still tracked for selection. */
	readonly enabled: boolean;
	readonly tickMs: number;
	readonly debounceMs: number;
	readonly maxRoots: number;
	readonly #options: BackgroundObserverOptions<T>;
	readonly #now: () => number;
	readonly #setTimer: (fn: () => void, ms: number) => CancelTimer;
	#schedule: Schedule;
	#epoch = 0;
	#session: string | undefined;
	#flight: Flight | undefined;
	#holds = 0;
	#stopped = false;
	#cancelTimer: CancelTimer | undefined;
	readonly #ledger = new PassLedger();

	constructor(options: BackgroundObserverOptions<T>) {
		if (typeof options?.warm !== "function") throw new Error("BackgroundObserver: options.warm must be a function");
		this.#options = options;
		this.enabled = options.enabled ?? observerEnabled(options.env);
		this.tickMs = boundedInt("tickMs", options.tickMs ?? DEFAULT_TICK_MS, 1);
		this.debounceMs = boundedInt("debounceMs", options.debounceMs ?? DEFAULT_DEBOUNCE_MS, 0);
		this.maxRoots = boundedInt("maxRoots", options.maxRoots ?? contourMaxRoots(options.env), 1, CONTOUR_ROOT_LIMIT);
		this.#now = options.now ?? Date.now;
		this.#setTimer = options.setTimer ?? unrefTimer;
		this.#schedule = createSchedule(this.maxRoots);
	}

	/** Records successful tool activity in `root` under its ring lease; returns roots evicted to stay within bounds. */
	noteActivity(root: string, lease: number): string[] {
		this.#checkRoot(root, lease);
		return this.#admit(recordActivity(this.#schedule, root, lease, this.#now()));
	}

	/** Makes a root known without activity (restored with the session): only the backstop visits it. */
	track(root: string, lease: number): string[] {
		this.#checkRoot(root, lease);
		return this.#admit(trackRoot(this.#schedule, root, lease));
	}

	/** Forgets retired roots and aborts their work in flight; they are not picked again unless re-enrolled. */
	retire(roots: Iterable<string>): void {
		const gone = new Set(roots);
		this.#schedule = retireRoots(this.#schedule, gone);
		if (this.#flight !== undefined && gone.has(this.#flight.pick.root)) this.#abortFlight("retired");
		this.#disarmIfEmpty();
	}

	/** Session replacement: a different id aborts work in flight and forgets every root of the previous session. */
	setSession(id: string): void {
		if (typeof id !== "string") throw new Error("BackgroundObserver.setSession: id must be a string");
		if (id === this.#session) return;
		this.#session = id;
		this.#epoch++;
		this.#abortFlight("session replaced");
		this.#schedule = createSchedule(this.maxRoots);
		this.#ledger.forgetRoots();
		this.#disarmIfEmpty();
	}

	/**
	 * An explicit checkpoint of `root` is starting: speculative work in flight is aborted and no pass starts until
	 * every returned release has been called (each is idempotent). Pinning the root is the review's job.
	 */
	checkpoint(root: string): () => void {
		if (typeof root !== "string" || root === "") throw new Error("BackgroundObserver.checkpoint: root is required");
		this.#holds++;
		this.#abortFlight(`checkpoint of ${root}`);
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.#holds--;
		};
	}

	/** Stops for good: disarms the timer and aborts work in flight. Activity is still tracked for selection. */
	stop(): void {
		this.#stopped = true;
		this.#cancelTimer?.();
		this.#cancelTimer = undefined;
		this.#abortFlight("observer stopped");
	}

	/** Known roots, most recently accessed first: the order an explicit review falls back on. */
	selectionOrder(): string[] {
		return recencyOrder(this.#schedule);
	}

	/** A copy of the work counters. */
	stats(): ObserverStats {
		return this.#ledger.snapshot();
	}

	/** Resolves once no pass is in flight. */
	async idle(): Promise<void> {
		while (this.#flight !== undefined) await this.#flight.done;
	}

	/** One scheduling pass, what each tick does: picks at most one root and warms it. Never throws. */
	runPass(): Promise<PassOutcome> {
		const why: SkipReason | undefined = !this.enabled
			? "disabled"
			: this.#stopped
				? "stopped"
				: this.#flight !== undefined
					? "busy"
					: this.#holds > 0
						? "checkpoint"
						: undefined;
		if (why !== undefined) return Promise.resolve(this.#ledger.skipped(why));
		const chosen = nextRoot(this.#schedule, this.#now(), this.debounceMs);
		this.#schedule = chosen.schedule;
		const pick = chosen.pick;
		if (pick === undefined) return Promise.resolve(this.#ledger.skipped("idle"));
		if (!this.#externallyCurrent(pick)) {
			this.retire([pick.root]);
			return Promise.resolve(this.#ledger.skipped("stale"));
		}
		const flight: Flight = {
			pick,
			epoch: this.#epoch,
			controller: new AbortController(),
			done: Promise.resolve({ kind: "skipped", why: "busy" }),
		};
		this.#flight = flight;
		flight.done = this.#fly(flight);
		return flight.done;
	}

	async #fly(flight: Flight): Promise<PassOutcome> {
		const { pick, controller } = flight;
		const context: WarmContext = { lease: pick.lease, reason: pick.reason };
		const ended = { root: pick.root, reason: pick.reason };
		const generation = this.#ledger.started(pick.root);
		try {
			let value: T;
			try {
				value = await this.#options.warm(pick.root, controller.signal, context);
			} catch (error) {
				if (controller.signal.aborted) return this.#ledger.ended(generation, { kind: "aborted", ...ended });
				throw error;
			}
			// The root may have been retired, re-leased or the session replaced while the warm ran without noticing.
			if (controller.signal.aborted || !this.#isCurrent(flight)) {
				controller.abort(new Error("contour observer: stale pass"));
				return this.#ledger.ended(generation, { kind: "aborted", ...ended });
			}
			this.#options.publish?.(pick.root, value, context);
			const now = this.#now();
			this.#schedule = recordWarm(this.#schedule, pick, now);
			return this.#ledger.ended(generation, { kind: "warmed", ...ended }, now);
		} catch (error) {
			return this.#ledger.ended(generation, { kind: "error", ...ended, error });
		} finally {
			if (this.#flight === flight) this.#flight = undefined;
		}
	}

	#isCurrent(flight: Flight): boolean {
		const { pick } = flight;
		return (
			!this.#stopped &&
			flight.epoch === this.#epoch &&
			this.#schedule.roots.some((r) => r.root === pick.root && r.lease === pick.lease) &&
			this.#externallyCurrent(pick)
		);
	}

	#externallyCurrent(pick: Pick): boolean {
		try {
			return this.#options.isCurrent?.(pick.root, pick.lease) ?? true;
		} catch {
			return false;
		}
	}

	#checkRoot(root: string, lease: number): void {
		if (typeof root !== "string" || root === "") throw new Error("BackgroundObserver: root must be a nonempty string");
		if (!Number.isSafeInteger(lease)) throw new Error(`BackgroundObserver: lease of ${root} must be an integer`);
	}

	#admit(admitted: { schedule: Schedule; evicted: string[] }): string[] {
		this.#schedule = admitted.schedule;
		const flight = this.#flight;
		if (flight !== undefined) {
			const held = this.#schedule.roots.find((r) => r.root === flight.pick.root);
			if (held === undefined || held.lease !== flight.pick.lease) this.#abortFlight("lease changed");
		}
		this.#arm();
		return admitted.evicted;
	}

	#abortFlight(reason: string): void {
		this.#flight?.controller.abort(new Error(`contour observer: ${reason}`));
	}

	#arm(): void {
		if (!this.enabled || this.#stopped || this.#cancelTimer !== undefined || this.#schedule.roots.length === 0) return;
		this.#cancelTimer = this.#setTimer(() => {
			this.#cancelTimer = undefined;
			void this.runPass();
			this.#arm();
		}, this.tickMs);
	}

	#disarmIfEmpty(): void {
		if (this.#schedule.roots.length > 0) return;
		this.#cancelTimer?.();
		this.#cancelTimer = undefined;
	}
}
