import { CodeMap, type CodeMapOptions } from "./map/code-map.ts";

/**
 * The code maps of the enrolled roots, with heavy state (graph, in-memory facts) resident for at most `limit`
 * roots, least recently used evicted first. Evicted maps keep their identity and on-disk facts, so returning to a
 * root rebuilds its graph without parsing. Retirement forgets a root entirely.
 */
export class ResidentMaps {
	readonly limit: number;
	readonly #maps = new Map<string, CodeMap>();
	/** Roots whose heavy state is in memory, least recently used first. */
	readonly #resident: string[] = [];
	readonly #options: CodeMapOptions;

	constructor(limit: number, options: CodeMapOptions = {}) {
		this.limit = Math.max(1, Math.floor(limit));
		this.#options = options;
	}

	/** The map of `root`, marked as most recently used; evicts the least recently used beyond the limit. */
	use(root: string): CodeMap {
		let map = this.#maps.get(root);
		if (map === undefined) {
			map = new CodeMap(root, this.#options);
			this.#maps.set(root, map);
		}
		const at = this.#resident.indexOf(root);
		if (at >= 0) this.#resident.splice(at, 1);
		this.#resident.push(root);
		while (this.#resident.length > this.limit) {
			const coldest = this.#resident.shift() as string;
			void this.#maps.get(coldest)?.evict();
		}
		return map;
	}

	/** Whether `root`'s heavy state is in memory. */
	isResident(root: string): boolean {
		return this.#resident.includes(root) && this.#maps.get(root)?.resident === true;
	}

	/** Forgets retired roots, closing their watches. */
	retire(roots: readonly string[]): void {
		for (const root of roots) {
			void this.#maps.get(root)?.close();
			this.#maps.delete(root);
			const at = this.#resident.indexOf(root);
			if (at >= 0) this.#resident.splice(at, 1);
		}
	}

	get(root: string): CodeMap | undefined {
		return this.#maps.get(root);
	}
}
