import type { GraphNode } from "../graph/index.ts";
import { addOne, countOf, dropOne, type Ids, manyOf, trimMany } from "../model/index.ts";
import { rememberedTerms, terms } from "../terms/index.ts";

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
		eachNodeTerm(node, (term) => addOne(this.#postings, term, id));
		if (node.kind !== "file") addOne(this.#exact, node.name.toLowerCase(), id);
		this.#live++;
	}

	/** Forgets node `id`, which must have been added with the same text. */
	remove(id: number, node: GraphNode): void {
		eachNodeTerm(node, (term) => dropOne(this.#postings, term, id));
		if (node.kind !== "file") dropOne(this.#exact, node.name.toLowerCase(), id);
		this.#live--;
	}
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
