/**
 * The live symbols of each file by simple name, as deriving edges looks them up (a call's name in its own file, in
 * the files it imports), found in the graph's own lists when asked instead of kept in a map per file. A map per file
 * was the graph's largest per-file cost: ~1.2 KB of V8 heap a file (its hash table), ~120 MB at 100,000 files, to
 * answer lookups that only deriving edges makes.
 *
 * Nothing made here outlives the derivation of one file: the map of the file being derived is made for it and
 * dropped after, and a name in an imported file is found by a pass over that file's few symbols. A memo of maps
 * across files was tried and let maps live through young-generation collections into the old one: at 40,000 files
 * the build's heap peaked at 700 MB of mostly such garbage, against 330 MB without.
 */
import { addOne, type Ids } from "../model/index.ts";
import type { GraphNode } from "./model.ts";
import { SymbolIds } from "./symbol-ids.ts";

/** See the module comment. Reads `symbolIds` and `nodes` as they are when asked. */
export class FileSymbols {
	readonly #symbolIds: ReadonlyMap<string, readonly number[]>;
	readonly #nodes: readonly GraphNode[];
	/** The range `SymbolIds.span` writes into, reused. */
	readonly #range = { start: 0, end: 0 };
	/** Maps made (a file's symbols by name, for the file being derived): a work count for tests. */
	made = 0;

	constructor(symbolIds: ReadonlyMap<string, readonly number[]>, nodes: readonly GraphNode[]) {
		this.#symbolIds = symbolIds;
		this.#nodes = nodes;
	}

	/** The live symbols of `path` by simple name (ids in source order), or `undefined` for a path with no node. */
	get(path: string): ReadonlyMap<string, Ids> | undefined {
		const ids = this.#symbolIds.get(path);
		if (ids === undefined) return undefined;
		const byName = new Map<string, Ids>();
		for (const id of ids) addOne(byName, (this.#nodes[id] as GraphNode).name, id);
		this.made++;
		return byName;
	}

	/**
	 * The live symbols of `path` named `name`, in source order, without making a map of the file (nor a list of its
	 * ids, when they are a graph's `SymbolIds`: deriving edges asks this for every name a file calls in each file it
	 * imports).
	 */
	named(path: string, name: string): Ids | undefined {
		const ids = this.#symbolIds;
		const list = ids instanceof SymbolIds ? ids.span(path, this.#range) : (ids.get(path) ?? []);
		if (list !== undefined) return this.#named(list, 0, list.length, name);
		return this.#named(undefined, this.#range.start, this.#range.end, name);
	}

	/** The ids named `name` among `list[from..to)`, or among the ids `from..to` themselves without a list. */
	#named(list: readonly number[] | undefined, from: number, to: number, name: string): Ids | undefined {
		let found: Ids | undefined;
		for (let i = from; i < to; i++) {
			const id = list === undefined ? i : (list[i] as number);
			if ((this.#nodes[id] as GraphNode).name !== name) continue;
			found = found === undefined ? id : Array.isArray(found) ? [...found, id] : [found, id];
		}
		return found;
	}
}
