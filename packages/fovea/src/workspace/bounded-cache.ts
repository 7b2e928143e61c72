/**
 * A least-recently-used map whose entries also expire after `ttlMs`.
 *
 * Hand-written rather than a dependency because it sits on the extension's startup import path, which is held to a
 * byte budget, and needs only get/set over a `Map` (insertion order doubles as recency order).
 */
export class BoundedCache<K, V> {
	readonly #entries = new Map<K, { value: V; expires: number }>();
	readonly #max: number;
	readonly #ttlMs: number;
	readonly #now: () => number;

	constructor(max: number, ttlMs: number, now: () => number = Date.now) {
		this.#max = Math.max(1, Math.floor(max));
		this.#ttlMs = ttlMs;
		this.#now = now;
	}

	get size(): number {
		return this.#entries.size;
	}

	get(key: K): V | undefined {
		const entry = this.#entries.get(key);
		if (entry === undefined) return undefined;
		this.#entries.delete(key);
		if (entry.expires <= this.#now()) return undefined;
		this.#entries.set(key, entry);
		return entry.value;
	}

	set(key: K, value: V): void {
		this.#entries.delete(key);
		while (this.#entries.size >= this.#max) {
			const oldest = this.#entries.keys().next();
			if (oldest.done === true) break;
			this.#entries.delete(oldest.value);
		}
		this.#entries.set(key, { value, expires: this.#now() + this.#ttlMs });
	}

	delete(key: K): void {
		this.#entries.delete(key);
	}

	clear(): void {
		this.#entries.clear();
	}
}
