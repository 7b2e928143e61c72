import { isAbsolute, normalize, sep } from "node:path";
import { envInt } from "./env.ts";

/** The most roots any ring holds: the seed's cap for `FOVEA_MAX_ROOTS` and `CONTOUR_MAX_ROOTS`. */
export const OBSERVED_ROOT_LIMIT = 32;

/** The persisted form of a ring: canonical absolute roots, most recent first. */
export interface RootsSnapshot {
	version: 1;
	roots: string[];
}

/** What admitting a root did: its lease, whether it was new to the ring, and which roots that retired. */
export interface Admission {
	lease: number;
	fresh: boolean;
	retired: string[];
}

/** Leases are unique per module instance, so a lease captured from one ring never matches another ring's. */
let nextLease = 1;

/**
 * The recency ring of enrolled project roots, most recent first.
 *
 * Use refreshes a root; admitting a root beyond `limit` retires the least recently used one instead of throwing.
 * Every admission of a root that was not enrolled takes a fresh lease serial and retirement drops it, so
 * asynchronous work that captured a lease can tell, by comparing with {@link ExecutionRoots.lease}, that it must
 * not publish. Pure: no filesystem, paths are compared as given (callers pass canonical paths).
 */
export class ExecutionRoots {
	readonly limit: number;
	#roots: string[] = [];
	readonly #leases = new Map<string, number>();
	#revision = 0;

	constructor(limit: number = envInt("FOVEA_MAX_ROOTS", OBSERVED_ROOT_LIMIT, 1, OBSERVED_ROOT_LIMIT)) {
		this.limit = clampLimit(limit);
	}

	/** Changes whenever membership or order changes. */
	get revision(): number {
		return this.#revision;
	}

	get size(): number {
		return this.#roots.length;
	}

	/** Enrolls `root` (or refreshes it) as the most recent root. */
	admit(root: string): Admission {
		if (!isRootPath(root))
			throw new TypeError(`ExecutionRoots.admit: not a canonical absolute path: ${JSON.stringify(root)}`);
		const existing = this.#leases.get(root);
		if (existing !== undefined) {
			if (this.#roots[0] !== root) {
				this.#roots = [root, ...this.#roots.filter((r) => r !== root)];
				this.#revision++;
			}
			return { lease: existing, fresh: false, retired: [] };
		}
		const lease = nextLease++;
		this.#leases.set(root, lease);
		this.#roots.unshift(root);
		const retired = this.#roots.splice(this.limit);
		for (const gone of retired) this.#leases.delete(gone);
		this.#revision++;
		return { lease, fresh: true, retired };
	}

	has(root: string): boolean {
		return this.#leases.has(root);
	}

	/** The current lease of `root`, or `undefined` once it is retired. */
	lease(root: string): number | undefined {
		return this.#leases.get(root);
	}

	/** Whether `lease` is still the live lease of `root`. */
	holds(root: string, lease: number): boolean {
		return this.#leases.get(root) === lease;
	}

	/** The longest enrolled root that contains `path` (or is it). */
	owner(path: string): string | undefined {
		let best: string | undefined;
		for (const root of this.#roots) {
			const inside = path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
			if (inside && (best === undefined || root.length > best.length)) best = root;
		}
		return best;
	}

	retire(root: string): boolean {
		if (!this.#leases.delete(root)) return false;
		this.#roots = this.#roots.filter((r) => r !== root);
		this.#revision++;
		return true;
	}

	/** Retires every root and returns them, most recent first. */
	reset(): string[] {
		const retired = this.#roots;
		this.#roots = [];
		this.#leases.clear();
		if (retired.length > 0) this.#revision++;
		return retired;
	}

	list(): string[] {
		return [...this.#roots];
	}

	snapshot(): RootsSnapshot {
		return { version: 1, roots: this.list() };
	}

	/**
	 * A ring holding the roots of a persisted snapshot. Anything malformed (wrong version, non-string or relative
	 * roots) is dropped rather than trusted; duplicates keep their most recent place; at most `limit` roots survive.
	 */
	static restore(snapshot: unknown, limit?: number): ExecutionRoots {
		const ring = new ExecutionRoots(limit);
		const roots = validSnapshotRoots(snapshot, ring.limit);
		for (let i = roots.length - 1; i >= 0; i--) ring.admit(roots[i] as string);
		return ring;
	}
}

/** The valid roots of a persisted snapshot, in order, deduplicated and cut to `limit`; `[]` when it is malformed. */
export function validSnapshotRoots(snapshot: unknown, limit: number = OBSERVED_ROOT_LIMIT): string[] {
	if (snapshot === null || typeof snapshot !== "object") return [];
	const { version, roots } = snapshot as { version?: unknown; roots?: unknown };
	if (version !== 1 || !Array.isArray(roots)) return [];
	const seen = new Set<string>();
	for (const root of roots) {
		if (seen.size >= clampLimit(limit)) break;
		if (isRootPath(root)) seen.add(root);
	}
	return [...seen];
}

/** A nonempty, absolute, normalized path without a trailing separator (except the filesystem root). */
export function isRootPath(value: unknown): value is string {
	return (
		typeof value === "string" &&
		value.length > 0 &&
		value.length <= 4096 &&
		!value.includes("\0") &&
		isAbsolute(value) &&
		normalize(value) === value &&
		(value.length === 1 || !value.endsWith(sep))
	);
}

function clampLimit(limit: number): number {
	return Number.isFinite(limit) ? Math.min(OBSERVED_ROOT_LIMIT, Math.max(1, Math.floor(limit))) : OBSERVED_ROOT_LIMIT;
}
