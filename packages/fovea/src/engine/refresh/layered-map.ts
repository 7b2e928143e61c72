/**
 * A read-only map made of a base map that is never changed and the changes laid over it: what a path refresh
 * publishes as its file map instead of a copy of the last one. At 10,000 files that copy was ~1.8 MB per edit, a
 * third of what an edit allocated, and large enough to go straight to V8's old generation, where it stayed until the
 * next full collection.
 *
 * It reads exactly as a copy of the base with the changes applied by `set` and `delete` would, iteration order
 * included: a key that keeps its place stays where the base has it, a new key (or one removed and set again) comes
 * after the base's, in the order it was set. Layering on a layered map carries its changes over instead of stacking
 * layers, and past {@link MAX_CHANGES} of them the result is a plain map again, so a
 * lookup costs at most two map lookups and copies stay rare.
 */

/**
 * Changes carried over a base before the layers are flattened into a plain map, or a sixty-fourth of the base if
 * that is more. The base keeps the values the layer replaced alive (an edited file's previous facts), so the bound
 * also bounds what is kept: at 10,000 files one copy per ~150 edits, and the facts of as many old versions at most.
 */
export const MAX_CHANGES = 64;

/** One change to lay over a map: a new value for `key`, or `undefined` to remove it. */
export type Change<K, V> = readonly [key: K, value: V | undefined];

/**
 * `map` with `changes` applied, in order, without changing `map`: a {@link LayeredMap} over `map`'s base, or a plain
 * map once the changes carried are too many to be worth layering.
 */
export function withChanges<K, V>(map: ReadonlyMap<K, V>, changes: Iterable<Change<K, V>>): ReadonlyMap<K, V> {
	const layered = map instanceof LayeredMap ? map.copy() : new LayeredMap<K, V>(map);
	for (const [key, value] of changes) {
		if (value === undefined) layered.remove(key);
		else layered.put(key, value);
	}
	return layered.changes > Math.max(MAX_CHANGES, layered.baseSize / 64) ? new Map(layered) : layered;
}

/** See the module comment. Built by {@link withChanges}; read-only once published. */
export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
	readonly #base: ReadonlyMap<K, V>;
	/** Base keys with another value, in their place. */
	readonly #replaced: Map<K, V>;
	/** Base keys gone from their place (removed, or set again after a removal and so moved to the end). */
	readonly #removed: Set<K>;
	/** Keys after the base's, in the order they were set. */
	readonly #appended: Map<K, V>;

	constructor(base: ReadonlyMap<K, V>, replaced = new Map<K, V>(), removed = new Set<K>(), appended = new Map<K, V>()) {
		this.#base = base;
		this.#replaced = replaced;
		this.#removed = removed;
		this.#appended = appended;
	}

	/** A layer with the same changes over the same base, to change further. */
	copy(): LayeredMap<K, V> {
		return new LayeredMap(this.#base, new Map(this.#replaced), new Set(this.#removed), new Map(this.#appended));
	}

	/** How many changes this layer carries. */
	get changes(): number {
		return this.#replaced.size + this.#removed.size + this.#appended.size;
	}

	get baseSize(): number {
		return this.#base.size;
	}

	/** Sets `key` as `Map.prototype.set` would on a copy. Only while the layer is being built. */
	put(key: K, value: V): void {
		if (this.#appended.has(key)) this.#appended.set(key, value);
		else if (this.#base.has(key) && !this.#removed.has(key)) this.#replaced.set(key, value);
		else this.#appended.set(key, value);
	}

	/** Removes `key` as `Map.prototype.delete` would on a copy. Only while the layer is being built. */
	remove(key: K): void {
		if (this.#appended.delete(key)) return;
		if (!this.#base.has(key)) return;
		this.#replaced.delete(key);
		this.#removed.add(key);
	}

	get size(): number {
		return this.#base.size - this.#removed.size + this.#appended.size;
	}

	has(key: K): boolean {
		return this.#appended.has(key) || (!this.#removed.has(key) && this.#base.has(key));
	}

	get(key: K): V | undefined {
		if (this.#appended.has(key)) return this.#appended.get(key);
		if (this.#removed.has(key)) return undefined;
		return this.#replaced.has(key) ? this.#replaced.get(key) : this.#base.get(key);
	}

	*entries(): MapIterator<[K, V]> {
		for (const [key, value] of this.#base) {
			if (this.#removed.has(key)) continue;
			yield [key, this.#replaced.has(key) ? (this.#replaced.get(key) as V) : value];
		}
		yield* this.#appended;
	}

	*keys(): MapIterator<K> {
		for (const [key] of this.entries()) yield key;
	}

	*values(): MapIterator<V> {
		for (const [, value] of this.entries()) yield value;
	}

	[Symbol.iterator](): MapIterator<[K, V]> {
		return this.entries();
	}

	forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
		for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
	}
}
