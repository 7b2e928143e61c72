/**
 * Before↔after matching of the callables of a change, across all its files, so that code which only moved is
 * recognized as the same code (no finding) and edited code gets before and after values.
 *
 * Matching, each step over what the earlier ones left:
 * 1. same file, same name and container (ignoring the `#n` of duplicates), same body → `unchanged` or `moved`;
 * 2. same body, where the before callable's key is gone from its file and the after callable's key is new in its
 *    file → `moved` (to another place or file) or `renamed`;
 * 3. same file, same key → `changed`;
 * 4. same body anywhere (first come, same file preferred) → `moved` or `renamed`; then the same for the same body
 *    after the name (`coreHash`: a function moved into a class as a method, or its `export` dropped);
 * 5. same key in another file, when that key is unique on both sides → `changed` (moved and edited);
 * 6. the rest are `added` or `removed`.
 * "Same body" is `bodyHash`: the callable's tokens without its own name, so whitespace, comments and position do not
 * matter.
 */
import type { CallableMeasure } from "./callables.ts";
import type { FileMeasure } from "./measure.ts";

/** Both sides of one file of the change. `previousPath` is the file's path before a rename. */
export interface FileSides {
	path: string;
	previousPath?: string;
	before?: FileMeasure;
	after?: FileMeasure;
}

/** How a callable changed: `moved` and `renamed` keep the body, `changed` edits it. */
export type DeltaStatus = "added" | "removed" | "changed" | "moved" | "renamed" | "unchanged";

/** One side of a callable: where it is (`file` as on that side) and its values. */
export interface CallableSide {
	file: string;
	key: string;
	name: string;
	container?: string;
	line: number;
	endLine: number;
	sourceLines: number;
	decisions: number;
	cyclomatic: number;
}

/** A callable's before and after values; plain data for reports. */
export interface CallableDelta {
	status: DeltaStatus;
	before?: CallableSide;
	after?: CallableSide;
}

/** A callable located in a file (for matching, clone search and findings). */
export interface Located {
	file: string;
	callable: CallableMeasure;
}

/** A matched pair with the full measures of both sides. */
export interface CallablePair {
	status: DeltaStatus;
	before?: Located;
	after?: Located;
}

interface Entry extends Located {
	/** The change's file identity (its after path), shared by both sides of a renamed file. */
	id: string;
	base: string;
	taken: boolean;
}

/** Matches the callables of every file of the change; one pair per callable on either side. */
export function matchCallables(files: readonly FileSides[]): CallablePair[] {
	const before = entries(files, "before");
	const after = entries(files, "after");
	const pairs: CallablePair[] = [];
	const keysBefore = new Set(before.map((e) => `${e.id}\0${e.callable.key}`));
	const keysAfter = new Set(after.map((e) => `${e.id}\0${e.callable.key}`));
	const pair = (b: Entry, a: Entry, sameCore: boolean): void => {
		b.taken = true;
		a.taken = true;
		pairs.push({ status: statusOf(b, a, sameCore), before: located(b), after: located(a) });
	};
	/**
	 * Pairs each untaken after entry with an untaken before entry of the same index key that `accept`s it;
	 * `sameCore` when the key is the body after the name, which makes a pair no change.
	 */
	const step = (
		keyOf: (e: Entry) => string,
		accept: (b: Entry, a: Entry) => boolean,
		preferSameFile = false,
		sameCore = false,
	): void => {
		const index = new Map<string, Entry[]>();
		for (const b of before) {
			if (b.taken) continue;
			const key = keyOf(b);
			const list = index.get(key);
			if (list === undefined) index.set(key, [b]);
			else list.push(b);
		}
		for (const a of after) {
			if (a.taken) continue;
			let found: Entry | undefined;
			for (const b of index.get(keyOf(a)) ?? []) {
				if (b.taken || !accept(b, a)) continue;
				if (!preferSameFile || b.id === a.id) {
					found = b;
					break;
				}
				found ??= b;
			}
			if (found !== undefined) pair(found, a, sameCore);
		}
	};
	const any = (): boolean => true;
	const body = (e: Entry): string => e.callable.bodyHash;
	step((e) => `${e.id}\0${e.base}\0${e.callable.bodyHash}`, any);
	step(
		body,
		(b, a) => !keysAfter.has(`${b.id}\0${b.callable.key}`) && !keysBefore.has(`${a.id}\0${a.callable.key}`),
		true,
	);
	step((e) => `${e.id}\0${e.callable.key}`, any);
	step(body, any, true);
	step((e) => e.callable.coreHash, any, true, true);
	const uniqueBefore = uniqueKeys(before);
	const uniqueAfter = uniqueKeys(after);
	step(
		(e) => e.callable.key,
		(b, a) => uniqueBefore.has(b.callable.key) && uniqueAfter.has(a.callable.key),
	);
	for (const a of after) if (!a.taken) pairs.push({ status: "added", after: located(a) });
	for (const b of before) if (!b.taken) pairs.push({ status: "removed", before: located(b) });
	markMoves(pairs);
	return pairs;
}

/**
 * A callable whose body is the same on both sides of one file "moved" only when its order among the file's kept
 * callables changed (it was cut and pasted elsewhere); a shift of lines by an insertion above it is no move. The
 * callables that keep their order are the longest run of them in the same order on both sides; the rest moved.
 */
function markMoves(pairs: CallablePair[]): void {
	const byFile = new Map<string, CallablePair[]>();
	for (const pair of pairs) {
		if (pair.status !== "unchanged" || pair.before === undefined || pair.after === undefined) continue;
		const list = byFile.get(pair.after.file);
		if (list === undefined) byFile.set(pair.after.file, [pair]);
		else list.push(pair);
	}
	for (const list of byFile.values()) {
		list.sort((x, y) => (x.after?.callable.line ?? 0) - (y.after?.callable.line ?? 0));
		const kept = longestIncreasing(list.map((pair) => pair.before?.callable.line ?? 0));
		for (const [i, pair] of list.entries()) if (!kept.has(i)) pair.status = "moved";
	}
}

/** Indexes of one longest strictly increasing subsequence of `values` (O(n log n)). */
function longestIncreasing(values: readonly number[]): Set<number> {
	const tails: number[] = [];
	const previous: number[] = new Array(values.length).fill(-1);
	for (const [i, value] of values.entries()) {
		let lo = 0;
		let hi = tails.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if ((values[tails[mid] as number] as number) < value) lo = mid + 1;
			else hi = mid;
		}
		if (lo > 0) previous[i] = tails[lo - 1] as number;
		tails[lo] = i;
	}
	const out = new Set<number>();
	for (let i = tails.at(-1) ?? -1; i >= 0; i = previous[i] as number) out.add(i);
	return out;
}

/** The plain-data delta of a pair. */
export function deltaOf(pair: CallablePair): CallableDelta {
	const delta: CallableDelta = { status: pair.status };
	if (pair.before !== undefined) delta.before = sideOf(pair.before);
	if (pair.after !== undefined) delta.after = sideOf(pair.after);
	return delta;
}

function sideOf({ file, callable }: Located): CallableSide {
	const side: CallableSide = {
		file,
		key: callable.key,
		name: callable.name,
		line: callable.line,
		endLine: callable.endLine,
		sourceLines: callable.sourceLines,
		decisions: callable.decisions,
		cyclomatic: callable.cyclomatic,
	};
	if (callable.container !== undefined) side.container = callable.container;
	return side;
}

function entries(files: readonly FileSides[], side: "before" | "after"): Entry[] {
	const out: Entry[] = [];
	for (const file of files) {
		const measure = file[side];
		if (measure === undefined) continue;
		const path = side === "before" ? (file.previousPath ?? file.path) : file.path;
		for (const callable of measure.callables) {
			out.push({ file: path, id: file.path, callable, base: callable.key.replace(/#\d+$/, ""), taken: false });
		}
	}
	return out;
}

/** How `b` became `a`; `sameCore` when they were paired for the same body after the name, which is no change. */
function statusOf(b: Entry, a: Entry, sameCore: boolean): DeltaStatus {
	if (b.callable.bodyHash !== a.callable.bodyHash && !sameCore) return "changed";
	if (b.callable.name !== a.callable.name || b.callable.container !== a.callable.container) return "renamed";
	// Within one file (renamed or not), whether it moved depends on its order among the others (`markMoves`).
	return b.id === a.id ? "unchanged" : "moved";
}

function located(entry: Entry): Located {
	return { file: entry.file, callable: entry.callable };
}

function uniqueKeys(list: Entry[]): Set<string> {
	const counts = new Map<string, number>();
	for (const entry of list) counts.set(entry.callable.key, (counts.get(entry.callable.key) ?? 0) + 1);
	return new Set([...counts].filter(([, count]) => count === 1).map(([key]) => key));
}
