/**
 * Node ids kept per key (a term, a name): the id alone while the key has one, a list once a second comes. Most
 * terms and nearly every symbol name belong to one node, and a one-element list costs ~56 bytes more than the id:
 * at 10,000 files the term index went from 10.8 to 6.6 MB with it.
 */
export type Ids = number | number[];

/** The ids as a list (a new one-element list for a single id). */
export function idsOf(ids: Ids | undefined): readonly number[] {
	return ids === undefined ? [] : typeof ids === "number" ? [ids] : ids;
}

/** The first id, if any. */
export function firstId(ids: Ids | undefined): number | undefined {
	return ids === undefined || typeof ids === "number" ? ids : ids[0];
}

/** How many ids there are. */
export function idCount(ids: Ids | undefined): number {
	return ids === undefined ? 0 : typeof ids === "number" ? 1 : ids.length;
}

/** Adds `id` under `key`, after the ids already there. */
export function addId<K>(map: Map<K, Ids>, key: K, id: number): void {
	const ids = map.get(key);
	if (ids === undefined) map.set(key, id);
	else if (typeof ids === "number") map.set(key, [ids, id]);
	else ids.push(id);
}

/** Takes `id` out from under `key` (the last occurrence), keeping the order of the others. */
export function dropId<K>(map: Map<K, Ids>, key: K, id: number): void {
	const ids = map.get(key);
	if (ids === undefined) return;
	if (typeof ids === "number") {
		if (ids === id) map.delete(key);
		return;
	}
	const at = ids.lastIndexOf(id);
	if (at >= 0) ids.splice(at, 1);
	if (ids.length === 1) map.set(key, ids[0] as number);
	else if (ids.length === 0) map.delete(key);
}

/** Replaces every list with a trimmed copy: a list grown by push keeps room to spare (17 slots once a second id came). */
export function trimIds<K>(map: Map<K, Ids>): void {
	for (const [key, ids] of map) if (typeof ids !== "number") map.set(key, ids.slice());
}
