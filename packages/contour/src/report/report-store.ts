/**
 * Where reports are kept: bounded per root and across roots, and independent of the code maps' residency. The two
 * hot graph generations Fovea keeps in memory page in and out; reports stay until their root is retired or pushed
 * out by newer roots, so an agent can still read the review of a root whose graph was evicted long ago.
 */
import { envInt } from "pi-fovea/env";
import type { ReviewReport } from "./report.ts";

/** Reports kept per root by default: the latest few distinct analyses. */
export const DEFAULT_REPORTS_PER_ROOT = 8;

/** Bounds of a store. */
export interface ReportStoreOptions {
	/** Reports kept per root, newest first (default 8, at least 1). */
	perRoot?: number;
	/** Roots kept, least recently used dropped first (default `CONTOUR_MAX_ROOTS`: 32, clamped 1–32). */
	maxRoots?: number;
}

/**
 * Immutable reports by root. A root's list holds one report per analysis key (a repeated analysis replaces the
 * earlier report of the same key), newest first. Adding a report makes its root the most recently used.
 */
export class ReportStore {
	readonly perRoot: number;
	readonly maxRoots: number;
	/** Root → its reports, newest first; Map order is root recency, least recent first. */
	readonly #byRoot = new Map<string, ReviewReport[]>();
	readonly #byId = new Map<string, ReviewReport>();
	/** Bumped when a root is forgotten, so work begun before cannot publish into the new boundary. */
	readonly #epochs = new Map<string, number>();
	#nextEpoch = 1;

	constructor(options: ReportStoreOptions = {}) {
		this.perRoot = Math.max(1, Math.floor(options.perRoot ?? DEFAULT_REPORTS_PER_ROOT));
		this.maxRoots = Math.max(1, Math.min(32, Math.floor(options.maxRoots ?? envInt("CONTOUR_MAX_ROOTS", 32, 1, 32))));
	}

	/**
	 * The retention epoch of `root`: it changes whenever the root is forgotten (or the store cleared). A review
	 * captures it when it starts and passes it to `add`, so a root retired meanwhile gets no report from it.
	 */
	epoch(root: string): number {
		let epoch = this.#epochs.get(root);
		if (epoch === undefined) {
			epoch = this.#nextEpoch++;
			this.#epochs.set(root, epoch);
		}
		return epoch;
	}

	/**
	 * Keeps `report`; returns false (and keeps nothing) when `epoch` is given and the root was forgotten since.
	 * Drops the root's oldest reports beyond `perRoot` and the least recently used roots beyond `maxRoots`.
	 */
	add(report: ReviewReport, epoch?: number): boolean {
		if (epoch !== undefined && this.epoch(report.root) !== epoch) return false;
		const list = (this.#byRoot.get(report.root) ?? []).filter((kept) => {
			if (kept.key !== report.key) return true;
			this.#byId.delete(kept.id);
			return false;
		});
		list.unshift(report);
		this.#byId.set(report.id, report);
		for (const dropped of list.splice(this.perRoot)) this.#byId.delete(dropped.id);
		this.#byRoot.delete(report.root);
		this.#byRoot.set(report.root, list);
		while (this.#byRoot.size > this.maxRoots) {
			const [coldest] = this.#byRoot.keys();
			this.#drop(coldest as string);
		}
		return true;
	}

	/** The newest report of `root` (of `target` when given), without changing recency. */
	latest(root: string, target?: ReviewReport["target"]): ReviewReport | undefined {
		return this.#byRoot.get(root)?.find((report) => target === undefined || report.target === target);
	}

	/** The report of `root` with analysis key `key`, if still kept. */
	find(root: string, key: string): ReviewReport | undefined {
		return this.#byRoot.get(root)?.find((report) => report.key === key);
	}

	/** A report by id, if still kept. */
	get(id: string): ReviewReport | undefined {
		return this.#byId.get(id);
	}

	/** The reports of `root`, newest first. */
	list(root: string): readonly ReviewReport[] {
		return [...(this.#byRoot.get(root) ?? [])];
	}

	/** Roots with reports, most recently used first. */
	roots(): string[] {
		return [...this.#byRoot.keys()].reverse();
	}

	/** Reports kept in all. */
	get size(): number {
		return this.#byId.size;
	}

	/** Retirement: drops the root's reports and starts a new epoch, so reviews begun before cannot publish. */
	forget(root: string): boolean {
		const had = this.#byRoot.has(root);
		this.#drop(root);
		this.#epochs.set(root, this.#nextEpoch++);
		return had;
	}

	/** Drops every report and starts a new epoch for every root. */
	clear(): void {
		this.#byRoot.clear();
		this.#byId.clear();
		for (const root of this.#epochs.keys()) this.#epochs.set(root, this.#nextEpoch++);
	}

	#drop(root: string): void {
		for (const report of this.#byRoot.get(root) ?? []) this.#byId.delete(report.id);
		this.#byRoot.delete(root);
	}
}
