/**
 * The lexical ranking of a root's files by their whole text: Okapi BM25 over each file's content terms and path
 * terms (k1 = 1.2, b = 0.75, idf = ln(1 + (N − df + ½)/(df + ½))). A focus query seeds heat from it beside the
 * names it matches, and blends it into the files' ranking. Built once per graph from the facts and patched file by
 * file when an edit changes them.
 */
import { forEachContentTerm } from "./content-terms.ts";
import type { FileFacts } from "./facts.ts";
import { terms } from "./query-terms.ts";

const K1 = 1.2;
const B = 0.75;

/**
 * The files that hold one term and how often each holds it, as pairs `[id, count, id, count, …]` in one list (order
 * carries no meaning): one array per term, most of which hold one or two files.
 */
type Postings = number[];

/** What a file is indexed from: its path, the names it defines and its content terms. */
export type IndexedFacts = Pick<FileFacts, "path" | "symbols" | "contentTerms">;

/**
 * How many times more a term counts in the names a file defines than in the rest of its text: a file that defines
 * `computeTotal` ranks above the files that only call it, for a query naming it.
 */
const DEFINED_NAME_WEIGHT = 2;

/** BM25 over files, by file node id; see the module comment. */
export class ContentIndex {
	readonly #postings = new Map<string, Postings>();
	readonly #files = new Map<number, IndexedFacts>();
	/** Terms per file id (the document length). */
	readonly #lengths: number[] = [];
	#totalLength = 0;

	/** Indexes the files of `entries` (file node id and facts). */
	constructor(entries: Iterable<readonly [id: number, facts: IndexedFacts]> = []) {
		for (const [id, facts] of entries) this.add(id, facts);
		// A list grown by push keeps spare room. Trimmed copies, and one list per term instead of two, took the index
		// of 10,000 files from 9.5 to 8.4 MB.
		for (const [term, postings] of this.#postings) this.#postings.set(term, postings.slice());
	}

	/** Files indexed. */
	get size(): number {
		return this.#files.size;
	}

	/** Indexes file `id` (replacing what it was indexed with before). */
	add(id: number, facts: IndexedFacts): void {
		if (this.#files.has(id)) this.remove(id);
		let length = 0;
		eachTerm(facts, (term, count) => {
			const postings = this.#postings.get(term);
			if (postings === undefined) this.#postings.set(term, [id, count]);
			else postings.push(id, count);
			length += count;
		});
		this.#files.set(id, facts);
		this.#lengths[id] = length;
		this.#totalLength += length;
	}

	/** Takes file `id` out, if it was indexed. */
	remove(id: number): void {
		const indexed = this.#files.get(id);
		if (indexed === undefined) return;
		eachTerm(indexed, (term) => {
			const postings = this.#postings.get(term);
			if (postings === undefined) return;
			let at = 0;
			while (at < postings.length && postings[at] !== id) at += 2;
			if (at >= postings.length) return;
			// Order carries no meaning: the last pair takes the removed one's place.
			postings[at] = postings[postings.length - 2] as number;
			postings[at + 1] = postings[postings.length - 1] as number;
			postings.length -= 2;
			if (postings.length === 0) this.#postings.delete(term);
		});
		this.#files.delete(id);
		this.#totalLength -= this.#lengths[id] ?? 0;
		this.#lengths[id] = 0;
	}

	/**
	 * Adds each file's BM25 score for the distinct `queryTerms` into `scores` (indexed by file id, zeroed by the
	 * caller) and returns the highest score (0 when no file holds any of the terms).
	 */
	score(queryTerms: readonly string[], scores: Float64Array): number {
		const n = this.#files.size;
		if (n === 0) return 0;
		const averageLength = this.#totalLength / n || 1;
		for (const term of new Set(queryTerms)) {
			const postings = this.#postings.get(term);
			if (postings === undefined) continue;
			const df = postings.length / 2;
			const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
			for (let k = 0; k < postings.length; k += 2) {
				const id = postings[k] as number;
				const f = postings[k + 1] as number;
				const norm = K1 * (1 - B + (B * (this.#lengths[id] ?? 0)) / averageLength);
				scores[id] = (scores[id] as number) + (idf * f * (K1 + 1)) / (f + norm);
			}
		}
		let best = 0;
		for (let id = 0; id < scores.length; id++) if ((scores[id] as number) > best) best = scores[id] as number;
		return best;
	}
}

/**
 * The terms of one file's document with their counts: its text's, its path's and its defined names' (weighted). The
 * path and names give a few terms, merged into the text's as they pass, so no map of the whole document is built.
 */
function eachTerm(file: IndexedFacts, each: (term: string, count: number) => void): void {
	const extra = new Map<string, number>();
	for (const term of terms(file.path)) extra.set(term, (extra.get(term) ?? 0) + 1);
	for (const symbol of file.symbols) {
		for (const term of terms(symbol.name)) extra.set(term, (extra.get(term) ?? 0) + DEFINED_NAME_WEIGHT);
	}
	forEachContentTerm(file.contentTerms ?? "", (term, count) => {
		const more = extra.get(term);
		if (more === undefined) return each(term, count);
		extra.delete(term);
		each(term, count + more);
	});
	for (const [term, count] of extra) each(term, count);
}
