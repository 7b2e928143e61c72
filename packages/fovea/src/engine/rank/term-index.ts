import type { GraphNode } from "../graph/index.ts";
import { addOne, countOf, dropOne, type Ids, manyOf } from "../model/index.ts";
import { rememberedTerms, terms } from "../terms/index.ts";

/**
 * The lexical view of a graph: which nodes carry each term, and how rare each term is. A file is described by its
 * path, a symbol by its container and name. Built once per graph and patched node by node when an edit removes or
 * adds symbols, so an edit costs the terms of the symbols it touched, not a pass over every node.
 *
 * The nodes of the build are held as columns sized once (a count pass, then a fill): each term's ids in one
 * `Int32Array`, 4 bytes an id, where lists of numbers grown by push cost 8 and a trimmed copy each, and symbols by a
 * hash of their lower-cased name, so no second map of names is kept beside the graph's. An edit never reuses an id
 * (a removed symbol stays inert, added ones are appended), so a removal only marks its id and additions go to
 * small maps beside the columns; every list reads in the order of a fresh build.
 */
export class TermIndex {
	/** Term → its slot in `#start`. */
	readonly #slot = new Map<string, number>();
	/** Where each slot's ids begin in `#ids` (and end, at the next slot's start). */
	readonly #start: Int32Array;
	readonly #ids: Int32Array;
	/** Symbols of the build by the hash of their lower-cased name: bucket `h & mask` spans `#byHash[h]..[h+1]`. */
	readonly #bucketStart: Int32Array;
	readonly #byHash: Int32Array;
	/** Ids below this were indexed by the build (added ones are above it). */
	readonly #built: number;
	/** Ids of the build removed since; their entries in the columns are skipped. */
	readonly #gone = new Set<number>();
	/** Per term, how many of its ids in the columns are gone. */
	readonly #goneOf = new Map<string, number>();
	readonly #added = new Map<string, Ids>();
	/** Lower-cased full names of symbols added after the build, for exact identifier matches. */
	readonly #addedExact = new Map<string, Ids>();
	#live = 0;

	/** Indexes every live node of `nodes`. */
	constructor(nodes: readonly GraphNode[]) {
		this.#built = nodes.length;
		const count = this.#slot;
		let symbols = 0;
		for (const node of nodes) {
			if (node.removed === true) continue;
			this.#live++;
			if (node.kind !== "file") symbols++;
			eachNodeTerm(node, (term) => count.set(term, (count.get(term) ?? 0) + 1));
		}
		// The counts become slots in place: setting a key already there does not grow the map.
		this.#start = new Int32Array(count.size + 1);
		let at = 0;
		let slot = 0;
		for (const [term, n] of count) {
			this.#start[slot] = at;
			count.set(term, slot++);
			at += n;
		}
		this.#start[slot] = at;
		this.#ids = new Int32Array(at);
		const next = this.#start.slice(0, slot);
		nodes.forEach((node, id) => {
			if (node.removed !== true) eachNodeTerm(node, (term) => this.#fill(next, term, id));
		});
		const mask = bucketMask(symbols);
		this.#bucketStart = new Int32Array(mask + 2);
		for (const node of nodes) if (isSymbol(node)) (this.#bucketStart[nameHash(node.name) & mask] as number)++;
		for (let b = 0, sum = 0; b <= mask + 1; b++) {
			const n = this.#bucketStart[b] as number;
			this.#bucketStart[b] = sum;
			sum += n;
		}
		this.#byHash = new Int32Array(symbols);
		const cursor = this.#bucketStart.slice(0, mask + 1);
		nodes.forEach((node, id) => {
			if (!isSymbol(node)) return;
			const b = nameHash(node.name) & mask;
			this.#byHash[cursor[b] as number] = id;
			cursor[b] = (cursor[b] as number) + 1;
		});
	}

	#fill(next: Int32Array, term: string, id: number): void {
		const slot = this.#slot.get(term) as number;
		this.#ids[next[slot] as number] = id;
		next[slot] = (next[slot] as number) + 1;
	}

	/** Nodes whose text contains `term`, in the order of the nodes. */
	postings(term: string): ArrayLike<number> & Iterable<number> {
		const slot = this.#slot.get(term);
		const added = this.#added.get(term);
		if (slot === undefined) return manyOf(added);
		const built = this.#ids.subarray(this.#start[slot], this.#start[slot + 1]);
		if (added === undefined && !this.#goneOf.has(term)) return built;
		const out: number[] = [];
		for (const id of built) if (!this.#gone.has(id)) out.push(id);
		for (const id of manyOf(added)) out.push(id);
		return out;
	}

	/** Symbols of `nodes` (the graph this index was built and patched for) named `name` exactly (case-insensitive). */
	exact(name: string, nodes: readonly GraphNode[]): readonly number[] {
		const lower = name.toLowerCase();
		const mask = this.#bucketStart.length - 2;
		const b = nameHash(lower) & mask;
		const out: number[] = [];
		for (let k = this.#bucketStart[b] as number; k < (this.#bucketStart[b + 1] as number); k++) {
			const id = this.#byHash[k] as number;
			if (!this.#gone.has(id) && (nodes[id] as GraphNode).name.toLowerCase() === lower) out.push(id);
		}
		for (const id of manyOf(this.#addedExact.get(lower))) out.push(id);
		return out;
	}

	/** Inverse document frequency of `term` over the live nodes. */
	idf(term: string): number {
		return Math.log(1 + Math.max(1, this.#live) / (1 + this.#count(term)));
	}

	/** How many live nodes carry `term`. */
	#count(term: string): number {
		const slot = this.#slot.get(term);
		const built = slot === undefined ? 0 : (this.#start[slot + 1] as number) - (this.#start[slot] as number);
		return built - (this.#goneOf.get(term) ?? 0) + countOf(this.#added.get(term));
	}

	/** Indexes node `id`, which the graph appended after the build (an edit never reuses an id). */
	add(id: number, node: GraphNode): void {
		eachNodeTerm(node, (term) => addOne(this.#added, term, id));
		if (node.kind !== "file") addOne(this.#addedExact, node.name.toLowerCase(), id);
		this.#live++;
	}

	/** Forgets node `id`, which must have been added with the same text. */
	remove(id: number, node: GraphNode): void {
		if (id < this.#built) {
			if (this.#gone.has(id)) return;
			this.#gone.add(id);
			eachNodeTerm(node, (term) => this.#goneOf.set(term, (this.#goneOf.get(term) ?? 0) + 1));
		} else {
			eachNodeTerm(node, (term) => dropOne(this.#added, term, id));
			if (node.kind !== "file") dropOne(this.#addedExact, node.name.toLowerCase(), id);
		}
		this.#live--;
	}
}

function isSymbol(node: GraphNode): boolean {
	return node.removed !== true && node.kind !== "file";
}

/** One less than the power of two at or above `n` (at least 1): the buckets of the names' hashes. */
function bucketMask(n: number): number {
	let size = 1;
	while (size < n) size *= 2;
	return size - 1;
}

/**
 * A hash of `name` lower-cased (FNV-1a over UTF-16 units). ASCII letters are folded in place, so no lower-cased
 * copy is made per symbol; a name with any other character is lower-cased first, as `toLowerCase` may change its
 * length. The same name in any case hashes alike, and a lower-cased one to the same value.
 */
function nameHash(name: string): number {
	let text = name;
	for (let i = 0; i < name.length; i++) {
		if (name.charCodeAt(i) > 127) {
			text = name.toLowerCase();
			break;
		}
	}
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		let c = text.charCodeAt(i);
		if (c >= 65 && c <= 90) c += 32;
		h = Math.imul(h ^ c, 0x01000193);
	}
	return h >>> 0;
}

/**
 * Calls `each` once with every distinct term of a node's text: a file's path, a symbol's container and name. A space
 * parts the container from the name, so their terms are the terms of each (a short one's remembered,
 * `rememberedTerms`); nothing is joined or collected per node (a set of a joined string's terms per node made ~75 MB
 * of garbage at 10,000 generated files).
 */
function eachNodeTerm(node: GraphNode, each: (term: string) => void): void {
	if (node.kind === "file") {
		eachDistinct(terms(node.path), NONE, each);
		return;
	}
	const container = node.container === undefined ? NONE : rememberedTerms(node.container);
	eachDistinct(container, NONE, each);
	eachDistinct(rememberedTerms(node.name), container, each);
}

const NONE: readonly string[] = [];

/** Calls `each` with every term of `list` that is neither in `before` nor earlier in `list` (a handful each). */
function eachDistinct(list: readonly string[], before: readonly string[], each: (term: string) => void): void {
	for (let i = 0; i < list.length; i++) {
		const term = list[i] as string;
		if (before.includes(term) || (i > 0 && list.lastIndexOf(term, i - 1) >= 0)) continue;
		each(term);
	}
}
