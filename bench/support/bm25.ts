// The lexical baseline of the quality benchmarks: BM25 over whole files (content plus path), with the engine's own
// tokenizer (`terms`), so Fovea and the baseline read the same words.
import { createHash } from "node:crypto";
import { terms } from "../../packages/fovea/src/engine/index.ts";

const K1 = 1.2;
const B = 0.75;
/** Terms a "more like this" query keeps: the file's most distinctive words, as Lucene's MoreLikeThis does (25). */
const MORE_LIKE_THIS_TERMS = 25;

/** One file as BM25 sees it: its term frequencies and length in terms. */
export interface Bm25Doc {
	path: string;
	tf: ReadonlyMap<string, number>;
	length: number;
}

/** Term frequencies by (path, content), so a file unchanged between trees is tokenized once. */
const tokenized = new Map<string, { tf: Map<string, number>; length: number }>();

/** The BM25 document of `path` with `content`: the terms of both. */
export function bm25Doc(path: string, content: string): Bm25Doc {
	const key = createHash("sha1").update(path).update("\0").update(content).digest("hex");
	let entry = tokenized.get(key);
	if (entry === undefined) {
		const tf = new Map<string, number>();
		let length = 0;
		for (const term of [...terms(content), ...terms(path)]) {
			tf.set(term, (tf.get(term) ?? 0) + 1);
			length++;
		}
		entry = { tf, length };
		if (tokenized.size > 100_000) tokenized.clear();
		tokenized.set(key, entry);
	}
	return { path, ...entry };
}

/**
 * BM25 (k1 = 1.2, b = 0.75, idf = ln(1 + (N − df + ½)/(df + ½))) over one tree's files. Document frequencies are
 * counted once per tree, so each query costs only its terms' lookups.
 */
export class Bm25Index {
	readonly docs: readonly Bm25Doc[];
	readonly #df = new Map<string, number>();
	readonly #avgdl: number;
	readonly #byPath = new Map<string, Bm25Doc>();

	constructor(docs: readonly Bm25Doc[]) {
		this.docs = docs;
		let total = 0;
		for (const d of docs) {
			total += d.length;
			this.#byPath.set(d.path, d);
			for (const term of d.tf.keys()) this.#df.set(term, (this.#df.get(term) ?? 0) + 1);
		}
		this.#avgdl = docs.length === 0 ? 0 : total / docs.length;
	}

	/** The inverse document frequency of `term` in this tree. */
	idf(term: string): number {
		const df = this.#df.get(term) ?? 0;
		return Math.log(1 + (this.docs.length - df + 0.5) / (df + 0.5));
	}

	/** Files with a positive score for the terms of `text`, best first (ties by path). */
	search(text: string): string[] {
		return this.rank([...new Set(terms(text))]);
	}

	/**
	 * "More like this": the files nearest to `path` by its own most distinctive words (its terms by tf·idf, the
	 * top 25 of those another file also has), `path` itself left out. Empty when `path` is not in the tree.
	 */
	moreLikeThis(path: string): string[] {
		const doc = this.#byPath.get(path);
		if (doc === undefined) return [];
		const weighted: { term: string; weight: number }[] = [];
		for (const [term, f] of doc.tf) {
			if ((this.#df.get(term) ?? 0) < 2) continue;
			weighted.push({ term, weight: f * this.idf(term) });
		}
		weighted.sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1));
		const query = weighted.slice(0, MORE_LIKE_THIS_TERMS).map((w) => w.term);
		return this.rank(query).filter((p) => p !== path);
	}

	/** Files with a positive score for `queryTerms` (distinct), best first (ties by path). */
	rank(queryTerms: readonly string[]): string[] {
		if (this.docs.length === 0 || queryTerms.length === 0) return [];
		const idf = queryTerms.map((term) => this.idf(term));
		const scored: { path: string; score: number }[] = [];
		for (const d of this.docs) {
			let score = 0;
			const norm = K1 * (1 - B + (B * d.length) / this.#avgdl);
			for (let i = 0; i < queryTerms.length; i++) {
				const f = d.tf.get(queryTerms[i] as string);
				if (f !== undefined) score += ((idf[i] as number) * f * (K1 + 1)) / (f + norm);
			}
			if (score > 0) scored.push({ path: d.path, score });
		}
		scored.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
		return scored.map((s) => s.path);
	}
}
