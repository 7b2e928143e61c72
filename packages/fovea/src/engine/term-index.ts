import type { GraphNode } from "./graph.ts";
import { addOne, countOf, dropOne, type Ids, manyOf, trimMany } from "./one-or-many.ts";
import { rememberedTerms, terms } from "./query-terms.ts";

/**
 * The lexical view of a graph: which nodes carry each term, and how rare each term is. A file is described by its
 * path, a symbol by its container and name. Built once per graph and patched node by node when an edit removes or
 * adds symbols, so an edit costs the terms of the symbols it touched, not a pass over every node.
 */
export class TermIndex {
	readonly #postings = new Map<string, Ids>();
	/** Lower-cased full names of symbols, for exact identifier matches. */
	readonly #exact = new Map<string, Ids>();
	#live = 0;

	/** Indexes every live node of `nodes`. */
	constructor(nodes: readonly GraphNode[]) {
		nodes.forEach((node, id) => {
			if (node.removed !== true) this.add(id, node);
		});
		trimMany(this.#postings);
		trimMany(this.#exact);
	}

	/** Nodes whose text contains `term`. */
	postings(term: string): readonly number[] {
		return manyOf(this.#postings.get(term));
	}

	/** Symbols named `name` exactly (case-insensitive). */
	exact(name: string): readonly number[] {
		return manyOf(this.#exact.get(name.toLowerCase()));
	}

	/** Inverse document frequency of `term` over the live nodes. */
	idf(term: string): number {
		return Math.log(1 + Math.max(1, this.#live) / (1 + countOf(this.#postings.get(term))));
	}

	/** Indexes node `id`. */
	add(id: number, node: GraphNode): void {
		for (const term of nodeTerms(node)) addOne(this.#postings, term, id);
		if (node.kind !== "file") addOne(this.#exact, node.name.toLowerCase(), id);
		this.#live++;
	}

	/** Forgets node `id`, which must have been added with the same text. */
	remove(id: number, node: GraphNode): void {
		for (const term of nodeTerms(node)) dropOne(this.#postings, term, id);
		if (node.kind !== "file") dropOne(this.#exact, node.name.toLowerCase(), id);
		this.#live--;
	}
}

/**
 * The distinct terms of a node's text: a file's path, a symbol's container and name. A space parts the container
 * from the name, so their terms are the terms of each, remembered across the ~150,000 symbols of a large root
 * (building a set from a joined string per node made ~70 MB of garbage at 10,000 files).
 */
function nodeTerms(node: GraphNode): readonly string[] {
	if (node.kind === "file") return distinct(terms(node.path));
	const own = rememberedTerms(node.name);
	return node.container === undefined ? distinct(own) : distinct([...rememberedTerms(node.container), ...own]);
}

/** `list` without repeats (itself when it has none; a node's text has a handful of terms). */
function distinct(list: readonly string[]): readonly string[] {
	for (let i = 1; i < list.length; i++) {
		if (list.lastIndexOf(list[i] as string, i - 1) >= 0) return [...new Set(list)];
	}
	return list;
}
