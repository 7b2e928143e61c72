/**
 * The lexical ranking of a root's files by their whole text: Okapi BM25 over each file's content terms and path
 * terms (k1 = 1.2, b = 0.75, idf = ln(1 + (N − df + ½)/(df + ½))). A focus query seeds heat from it beside the
 * names it matches, and blends it into the files' ranking. Built once per graph from the facts and patched file by
 * file when an edit changes them.
 */

import type { FileFacts } from "../model/index.ts";
import { forEachContentTerm, rememberedTerms, terms } from "../terms/index.ts";

const K1 = 1.2;
const B = 0.75;

/**
 * The files that hold one term and how often each holds it, as pairs `[id, count, id, count, …]` in one list (order
 * carries no meaning): the postings of files added or replaced since the index was built.
 */
type Postings = number[];

/** What a file is indexed from: its path, the names it defines and its content terms; its literals are kept beside. */
export type IndexedFacts = Pick<FileFacts, "path" | "symbols" | "contentTerms" | "literals">;

/**
 * How many times more a term counts in the names a file defines than in the rest of its text: a file that defines
 * `computeTotal` ranks above the files that only call it, for a query naming it.
 */
const DEFINED_NAME_WEIGHT = 2;

/**
 * BM25 over files, by file node id; see the module comment.
 *
 * The postings of the files it is built with sit in two typed arrays, one row per term (`#rowStart`, `#postings`):
 * as a list per term they held ~8 MB of V8's heap at 10,000 generated files (~500,000 postings; viem's 1,695 files
 * have ~107,000 in ~5,500 terms), which V8 lets grow to a few times its live set, and growing and trimming the lists
 * promoted as much again before it died. One posting is one 32-bit number, the file id above the count's
 * {@link COUNT_BITS} bits (a count too large for them is kept in `#largeCounts`): a 100,000-file root holds ~5
 * million postings, 20 MB so against 40 MB as (id, count) pairs. An edit does not rewrite the rows: the file's built
 * postings stop counting (`#stale`) and its new ones go to small lists of their own (`#added`), as every posting was
 * kept before.
 */
export class ContentIndex {
	/** Term → its row in the built postings. */
	readonly #rows = new Map<string, number>();
	/** Where each row's postings start in `#postings`; one entry more than there are rows. */
	#rowStart: Uint32Array = new Uint32Array(1);
	/** The built postings, row after row, each `id << COUNT_BITS | count` (see {@link packPosting}). */
	#postings: Uint32Array = new Uint32Array(0);
	/** The counts of the built postings whose count does not fit in {@link COUNT_BITS} bits, by posting index. */
	#largeCounts = new Map<number, number>();
	/** 1 for a file whose built postings no longer count (removed or re-added since the build). */
	#stale: Uint8Array = new Uint8Array(0);
	/**
	 * How many of each row's built postings are stale: a term's document frequency is then its row's length less
	 * these, plus its added postings, read without a pass over the row (a common term's row holds most files).
	 */
	#staleInRow: Uint32Array = new Uint32Array(0);
	/** Built postings read so far (scoring and listing), for tests: a document frequency reads none. */
	#postingsRead = 0;
	/** Postings of the files added since the build, by term. */
	readonly #added = new Map<string, Postings>();
	/** Files whose postings are in `#added`. */
	readonly #inAdded = new Set<number>();
	readonly #files = new Map<number, IndexedFacts>();
	/** Terms per file id (the document length). */
	readonly #lengths: number[] = [];
	#totalLength = 0;

	/**
	 * Indexes the files of `entries` (file node id and facts; a repeated id replaces the earlier facts). Two passes
	 * over the files' terms, the first counting each term's postings and the second filling them in place: the
	 * postings are laid out in arrays sized once, with no list of them all beside (8 bytes a posting, ~40 MB at
	 * 100,000 generated files during the first focus).
	 */
	constructor(entries: Iterable<readonly [id: number, facts: IndexedFacts]> = []) {
		const repeated: (readonly [number, IndexedFacts])[] = [];
		const counts: number[] = [];
		let maxId = -1;
		for (const entry of entries) {
			const [id, facts] = entry;
			if (this.#files.has(id)) {
				repeated.push(entry);
				continue;
			}
			if (!(id >= 0 && id <= MAX_POSTING_ID)) throw new RangeError(`ContentIndex: file id ${id} out of range`);
			let length = 0;
			eachTerm(facts, (term, count) => {
				const row = this.#rows.get(term);
				if (row === undefined) {
					this.#rows.set(term, counts.length);
					counts.push(1);
				} else counts[row] = (counts[row] as number) + 1;
				length += count;
			});
			this.#files.set(id, facts);
			this.#lengths[id] = length;
			this.#totalLength += length;
			if (id > maxId) maxId = id;
		}
		this.#layOut(counts);
		this.#stale = new Uint8Array(maxId + 1);
		this.#staleInRow = new Uint32Array(counts.length);
		for (const [id, facts] of repeated) this.add(id, facts);
	}

	/** Bytes of the built postings' typed arrays: about 4 per posting, for tests and benchmarks. */
	get builtBytes(): number {
		return this.#rowStart.byteLength + this.#postings.byteLength;
	}

	/** Built postings read so far by scoring and listing, for tests: a document frequency reads none. */
	get postingsRead(): number {
		return this.#postingsRead;
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
			const postings = this.#added.get(term);
			if (postings === undefined) this.#added.set(term, [id, count]);
			else postings.push(id, count);
			length += count;
		});
		this.#inAdded.add(id);
		this.#files.set(id, facts);
		this.#lengths[id] = length;
		this.#totalLength += length;
	}

	/** Takes file `id` out, if it was indexed. */
	remove(id: number): void {
		const indexed = this.#files.get(id);
		if (indexed === undefined) return;
		if (this.#inAdded.delete(id)) {
			eachTerm(indexed, (term) => {
				const postings = this.#added.get(term);
				if (postings === undefined) return;
				let at = 0;
				while (at < postings.length && postings[at] !== id) at += 2;
				if (at >= postings.length) return;
				// Order carries no meaning: the last pair takes the removed one's place.
				postings[at] = postings[postings.length - 2] as number;
				postings[at + 1] = postings[postings.length - 1] as number;
				postings.length -= 2;
				if (postings.length === 0) this.#added.delete(term);
			});
		} else {
			// Built postings: they stay in their rows and stop counting (once: a file re-added goes to `#added`).
			this.#stale[id] = 1;
			eachTerm(indexed, (term) => {
				const row = this.#rows.get(term);
				if (row !== undefined) this.#staleInRow[row] = (this.#staleInRow[row] as number) + 1;
			});
		}
		this.#files.delete(id);
		this.#totalLength -= this.#lengths[id] ?? 0;
		this.#lengths[id] = 0;
	}

	/**
	 * Adds each file's BM25 score for the distinct `queryTerms` into `scores` (indexed by file id, zeroed by the
	 * caller) and returns the highest score (0 when no file holds any of the terms).
	 */
	score(queryTerms: readonly string[], scores: Float64Array): number {
		return this.scoreWeighted(new Map([...queryTerms].map((term) => [term, 1])), scores);
	}

	/**
	 * `score` with a weight per query term (a term's BM25 contribution times its weight): an expanded query's added
	 * terms count less than the words it was asked with (`query-expansion.ts`).
	 */
	scoreWeighted(queryTerms: ReadonlyMap<string, number>, scores: Float64Array): number {
		const n = this.#files.size;
		if (n === 0) return 0;
		const averageLength = this.#totalLength / n || 1;
		for (const [term, weight] of queryTerms) {
			const df = this.documentFrequency(term);
			if (df === 0 || !(weight > 0)) continue;
			const idf = weight * this.idf(df);
			this.#eachPosting(term, (id, f) => {
				const norm = K1 * (1 - B + (B * (this.#lengths[id] ?? 0)) / averageLength);
				scores[id] = (scores[id] as number) + (idf * f * (K1 + 1)) / (f + norm);
			});
		}
		let best = 0;
		for (let id = 0; id < scores.length; id++) if ((scores[id] as number) > best) best = scores[id] as number;
		return best;
	}

	/** BM25's idf of a term that `df` of the indexed files hold. */
	idf(df: number): number {
		const n = this.#files.size;
		return Math.log(1 + (n - df + 0.5) / (df + 0.5));
	}

	/** How many indexed files hold `term`. */
	documentFrequency(term: string): number {
		const row = this.#rows.get(term);
		const built =
			row === undefined
				? 0
				: (this.#rowStart[row + 1] as number) - (this.#rowStart[row] as number) - (this.#staleInRow[row] as number);
		return built + (this.#added.get(term)?.length ?? 0) / 2;
	}

	/** The indexed files that hold `term`. */
	filesWith(term: string): number[] {
		const ids: number[] = [];
		this.#eachPosting(term, (id) => {
			ids.push(id);
		});
		return ids;
	}

	/**
	 * The indexed files holding each of `literals` among their anchor literals (`FileFacts.literals`), by literal:
	 * what a query naming a message or an option finds (`query-seeds.ts`). A scan of the facts the index keeps,
	 * asked only by a query naming literals: a table of every literal would be kept for the few queries that do.
	 */
	literalHolders(literals: ReadonlySet<string>): Map<string, number[]> {
		const holders = new Map<string, number[]>();
		if (literals.size === 0) return holders;
		for (const [id, facts] of this.#files) {
			for (const literal of facts.literals ?? []) {
				if (!literals.has(literal)) continue;
				const files = holders.get(literal);
				if (files === undefined) holders.set(literal, [id]);
				else files.push(id);
			}
		}
		return holders;
	}

	/** The terms of file `id`'s document with their counts, as scoring counts them; empty when it is not indexed. */
	termsOf(id: number): Map<string, number> {
		const out = new Map<string, number>();
		const facts = this.#files.get(id);
		if (facts !== undefined) eachTerm(facts, (term, count) => out.set(term, count));
		return out;
	}

	/** Each live (file, count) posting of `term`: the built rows' that are not stale, then the added ones. */
	#eachPosting(term: string, each: (id: number, count: number) => void): void {
		const row = this.#rows.get(term);
		if (row !== undefined) {
			const postings = this.#postings;
			const end = this.#rowStart[row + 1] as number;
			this.#postingsRead += end - (this.#rowStart[row] as number);
			for (let k = this.#rowStart[row] as number; k < end; k++) {
				const posting = postings[k] as number;
				const id = posting >>> COUNT_BITS;
				if (this.#stale[id] === 1) continue;
				const count = posting & COUNT_MASK;
				each(id, count === COUNT_MASK ? (this.#largeCounts.get(k) as number) : count);
			}
		}
		const added = this.#added.get(term) ?? NO_POSTINGS;
		for (let k = 0; k < added.length; k += 2) each(added[k] as number, added[k + 1] as number);
	}

	/** Lays out the rows of the files indexed so far, `counts` postings each, and fills them from the files' terms. */
	#layOut(counts: readonly number[]): void {
		const rows = counts.length;
		const rowStart = new Uint32Array(rows + 1);
		for (let r = 0; r < rows; r++) rowStart[r + 1] = (rowStart[r] as number) + (counts[r] as number);
		const postings = new Uint32Array(rowStart[rows] as number);
		const next = rowStart.slice(0, rows);
		for (const [id, facts] of this.#files) {
			eachTerm(facts, (term, count) => {
				const row = this.#rows.get(term) as number;
				const at = next[row] as number;
				postings[at] = packPosting(id, count);
				if (count >= COUNT_MASK) this.#largeCounts.set(at, count);
				next[row] = at + 1;
			});
		}
		this.#rowStart = rowStart;
		this.#postings = postings;
	}
}

/** Bits of a built posting that hold the count; a count of `COUNT_MASK` or more is kept beside the postings. */
const COUNT_BITS = 8;
const COUNT_MASK = (1 << COUNT_BITS) - 1;
/** File ids a built posting can hold: 2^24, far above any root's file count. */
const MAX_POSTING_ID = 2 ** (32 - COUNT_BITS) - 1;

/** One built posting as a 32-bit number: `id` above the count, the count capped at `COUNT_MASK` (then kept aside). */
function packPosting(id: number, count: number): number {
	if (!(id >= 0 && id <= MAX_POSTING_ID)) throw new RangeError(`ContentIndex: file id ${id} out of range`);
	return ((id << COUNT_BITS) | Math.min(count, COUNT_MASK)) >>> 0;
}

const NO_POSTINGS: Postings = [];

/**
 * The terms of one file's document with their counts: its text's, its path's and its defined names' (weighted). The
 * path and names give a few terms, merged into the text's as they pass, so no map of the whole document is built.
 */
function eachTerm(file: IndexedFacts, each: (term: string, count: number) => void): void {
	const extra = new Map<string, number>();
	for (const term of terms(file.path)) extra.set(term, (extra.get(term) ?? 0) + 1);
	for (const symbol of file.symbols) {
		for (const term of rememberedTerms(symbol.name)) extra.set(term, (extra.get(term) ?? 0) + DEFINED_NAME_WEIGHT);
	}
	forEachContentTerm(file.contentTerms ?? "", (term, count) => {
		const more = extra.get(term);
		if (more === undefined) return each(term, count);
		extra.delete(term);
		each(term, count + more);
	});
	for (const [term, count] of extra) each(term, count);
}
