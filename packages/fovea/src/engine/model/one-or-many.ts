/**
 * Values kept per key (node ids per term or name, files per referenced name): the value alone while the key has
 * one, a list once a second comes. Most terms and nearly every symbol name belong to one node, and most names are
 * referred to by one file; a one-element list costs ~56 bytes more than the value alone, a set ~200. A value must
 * not itself be an array.
 */
export type OneOrMany<T> = T | T[];

/** Node ids kept per key. */
export type Ids = OneOrMany<number>;

/** The values as a list (a new one-element list for a single value). */
export function manyOf<T>(held: OneOrMany<T> | undefined): readonly T[] {
	return held === undefined ? [] : Array.isArray(held) ? held : [held];
}

/** The first value, if any. */
export function firstOf<T>(held: OneOrMany<T> | undefined): T | undefined {
	return Array.isArray(held) ? held[0] : held;
}

/** How many values there are. */
export function countOf<T>(held: OneOrMany<T> | undefined): number {
	return held === undefined ? 0 : Array.isArray(held) ? held.length : 1;
}

/** Adds `value` under `key`, after the values already there (callers add a value once per key). */
export function addOne<K, T>(map: Map<K, OneOrMany<T>>, key: K, value: T): void {
	const held = map.get(key);
	if (held === undefined) map.set(key, value);
	else if (Array.isArray(held)) held.push(value);
	else map.set(key, [held, value]);
}

/** Takes `value` out from under `key` (its last occurrence), keeping the order of the others. */
export function dropOne<K, T>(map: Map<K, OneOrMany<T>>, key: K, value: T): void {
	const held = map.get(key);
	if (held === undefined) return;
	if (!Array.isArray(held)) {
		if (held === value) map.delete(key);
		return;
	}
	const at = held.lastIndexOf(value);
	if (at >= 0) held.splice(at, 1);
	if (held.length === 1) map.set(key, held[0] as T);
	else if (held.length === 0) map.delete(key);
}

/** Replaces every list with a trimmed copy: a list grown by push keeps room to spare (17 slots once a second came). */
export function trimMany<K, T>(map: Map<K, OneOrMany<T>>): void {
	for (const [key, held] of map) if (Array.isArray(held)) map.set(key, held.slice());
}
