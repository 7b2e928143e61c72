/**
 * The background observer's work counts: what its passes did, in total and per root.
 *
 * @module
 */
import type { PickReason } from "./schedule.ts";

/** Counters of one root. */
export interface RootStats {
	passes: number;
	warmed: number;
	aborted: number;
	errors: number;
	/** Clock time of the last warm that published. */
	lastWarmed: number | undefined;
}

/**
 * Work counts: each of `passes` started a warm and ended as exactly one of `warmed`, `aborted` or `errors`;
 * `skipped` counts passes that warmed nothing (disabled, stopped, busy, checkpoint held, nothing due, stale).
 */
export interface ObserverStats {
	passes: number;
	warmed: number;
	aborted: number;
	skipped: number;
	errors: number;
	perRoot: Record<string, RootStats>;
}

/** Why a pass did not warm anything. */
export type SkipReason = "disabled" | "stopped" | "busy" | "checkpoint" | "idle" | "stale";

/** How one pass ended. */
export type PassOutcome =
	| { kind: "warmed" | "aborted"; root: string; reason: PickReason }
	| { kind: "error"; root: string; reason: PickReason; error: unknown }
	| { kind: "skipped"; why: SkipReason };

/** Accumulates {@link ObserverStats}; per-root counters go with their session, totals stay. */
export class PassLedger {
	#totals = { passes: 0, warmed: 0, aborted: 0, skipped: 0, errors: 0 };
	#perRoot = new Map<string, RootStats>();
	#generation = 0;

	/** A pass started warming `root`; returns the ledger generation to hand back to {@link PassLedger.ended}. */
	started(root: string): number {
		this.#totals.passes++;
		this.#root(root).passes++;
		return this.#generation;
	}

	/**
	 * A started pass ended; `warmedAt` is the clock time of a published warm. A pass that outlived
	 * {@link PassLedger.forgetRoots} counts in the totals only, so a new session's roots start from zero.
	 */
	ended(generation: number, outcome: Exclude<PassOutcome, { kind: "skipped" }>, warmedAt?: number): PassOutcome {
		const key = outcome.kind === "error" ? "errors" : outcome.kind;
		this.#totals[key]++;
		if (generation !== this.#generation) return outcome;
		const root = this.#root(outcome.root);
		root[key]++;
		if (outcome.kind === "warmed" && warmedAt !== undefined) root.lastWarmed = warmedAt;
		return outcome;
	}

	/** A pass warmed nothing. */
	skipped(why: SkipReason): PassOutcome {
		this.#totals.skipped++;
		return { kind: "skipped", why };
	}

	/** Drops the per-root counters (session replacement forgets the previous session's roots). */
	forgetRoots(): void {
		this.#generation++;
		this.#perRoot.clear();
	}

	/** A copy of the counters. */
	snapshot(): ObserverStats {
		const perRoot: Record<string, RootStats> = {};
		for (const [root, stats] of this.#perRoot) perRoot[root] = { ...stats };
		return { ...this.#totals, perRoot };
	}

	#root(root: string): RootStats {
		let stats = this.#perRoot.get(root);
		if (stats === undefined) {
			stats = { passes: 0, warmed: 0, aborted: 0, errors: 0, lastWarmed: undefined };
			this.#perRoot.set(root, stats);
		}
		return stats;
	}
}
