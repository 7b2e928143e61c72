/**
 * What the agent has been looking at in one root: files, line ranges and symbols it read, searched, edited or focused
 * (keys of `model/attention-keys.ts`), each with a weight that decays per turn (not per second: an idle conversation
 * does not forget). Bounded; survives eviction of the root's heavy caches, so a dwell after paging rebuilds heat from
 * it instead of forgetting the focus.
 */
export class Attention {
	readonly #weights = new Map<string, number>();
	readonly #limit: number;

	constructor(limit = 256) {
		this.#limit = limit;
	}

	/** Adds `weight` to a key (a root-relative path, or a range or symbol within one). */
	touch(path: string, weight: number): void {
		if (!(weight > 0)) return;
		this.#weights.set(path, (this.#weights.get(path) ?? 0) + weight);
		if (this.#weights.size > this.#limit) {
			const weakest = [...this.#weights].sort((a, b) => a[1] - b[1]).slice(0, this.#weights.size - this.#limit);
			for (const [path] of weakest) this.#weights.delete(path);
		}
	}

	/** One turn passed: every weight shrinks by `factor`; negligible ones are dropped. */
	decay(factor = 0.7): void {
		for (const [path, weight] of this.#weights) {
			const next = weight * factor;
			if (next < 0.01) this.#weights.delete(path);
			else this.#weights.set(path, next);
		}
	}

	/** Paths by weight, strongest first. */
	top(limit = 20): Array<[string, number]> {
		return [...this.#weights].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, limit);
	}

	get size(): number {
		return this.#weights.size;
	}

	get total(): number {
		let sum = 0;
		for (const weight of this.#weights.values()) sum += weight;
		return sum;
	}
}
