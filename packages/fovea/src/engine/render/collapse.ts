/**
 * Repeated names shown once. An overloaded function is several symbols of one name (`assertThrows` three times), and
 * look-alike helpers share a name across files (`get`, `send` in every test helper); listed one by one they fill a
 * budgeted answer with one name. Focus and sketch list each name once, with how many there are.
 */

/** Items that share a key, in the order their first member came. */
export interface Group<T> {
	/** The first (best-ranked) item of the group. */
	first: T;
	/** Every item of the group, in their order. */
	members: T[];
}

/** `items` grouped by `key`, each group where its first item was. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Group<T>[] {
	const groups = new Map<string, Group<T>>();
	for (const item of items) {
		const k = key(item);
		const group = groups.get(k);
		if (group === undefined) groups.set(k, { first: item, members: [item] });
		else group.members.push(item);
	}
	return [...groups.values()];
}

/** `names` with each repeated name once, followed by its count: `["f", "f", "g"]` → `["f ×2", "g"]`. */
export function countedNames(names: readonly string[]): string[] {
	return groupBy(names, (name) => name).map((group) => withCount(group.first, group.members.length));
}

/** `text` with ` ×n` after it when `n` is more than one. */
export function withCount(text: string, n: number): string {
	return n > 1 ? `${text} ×${n}` : text;
}
