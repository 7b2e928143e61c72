/**
 * The live symbols of each file by simple name, as deriving edges looks them up (a call's name in its own file, in
 * the files it imports), made on demand from the graph's own lists instead of kept per file. A map per file was the
 * graph's largest per-file cost: ~1.2 KB of V8 heap a file (its hash table), ~120 MB at 100,000 files, to answer
 * lookups that only deriving edges makes, for the file being derived and the few it imports.
 *
 * A bounded memo keeps the maps of the files looked up last, so a build that derives many files importing the same
 * modules makes each module's map once per stretch of files, not once per lookup.
 */
import { addOne, type Ids } from "../model/index.ts";
import type { GraphNode } from "./model.ts";

/** Files whose maps are kept between lookups, at most (each a handful of entries). */
export const FILE_SYMBOLS_MEMO = 512;

/** See the module comment. Reads `symbolIds` and `nodes` as they are when asked: call `forget` when a file's change. */
export class FileSymbols {
	readonly #symbolIds: ReadonlyMap<string, readonly number[]>;
	readonly #nodes: readonly GraphNode[];
	readonly #memo = new Map<string, ReadonlyMap<string, Ids>>();
	/** Maps made (memo misses): a work count for tests. */
	made = 0;

	constructor(symbolIds: ReadonlyMap<string, readonly number[]>, nodes: readonly GraphNode[]) {
		this.#symbolIds = symbolIds;
		this.#nodes = nodes;
	}

	/** The live symbols of `path` by simple name (ids in source order), or `undefined` for a path with no node. */
	get(path: string): ReadonlyMap<string, Ids> | undefined {
		const known = this.#memo.get(path);
		if (known !== undefined) {
			// Most recently used last, so the oldest is the first to go.
			this.#memo.delete(path);
			this.#memo.set(path, known);
			return known;
		}
		const ids = this.#symbolIds.get(path);
		if (ids === undefined) return undefined;
		const byName = new Map<string, Ids>();
		for (const id of ids) addOne(byName, (this.#nodes[id] as GraphNode).name, id);
		this.made++;
		if (this.#memo.size >= FILE_SYMBOLS_MEMO) this.#memo.delete(this.#memo.keys().next().value as string);
		this.#memo.set(path, byName);
		return byName;
	}

	/** Drops what is kept for `path`, whose symbols changed. */
	forget(path: string): void {
		this.#memo.delete(path);
	}

	/** Files whose maps are kept now (at most {@link FILE_SYMBOLS_MEMO}). */
	get kept(): number {
		return this.#memo.size;
	}
}
