/**
 * Files whose text is like a changed file's, "more like this" as Lucene's MoreLikeThis does it: the file's own most
 * distinctive words (its terms by tf·idf, the top `QUERY_TERMS` that another file but at most half of them hold)
 * searched with BM25 over the root (`ContentIndex`). It finds what the graph cannot link and history has not yet seen together: the sibling
 * implementation of the same interface in another folder (`binding/bson.go` and `render/bson.go`), the test that
 * exercises a module through a public entry point, the doc-generation script naming the same options.
 */
import type { ContentIndex } from "./content-index.ts";

/** Terms a "more like this" query keeps, as Lucene's MoreLikeThis (25). */
const QUERY_TERMS = 25;
/**
 * A term held by more than this share of the files is no evidence of likeness (`export`, `function`, `self`), nor a
 * name held by as many evidence that a file names it (`tests-naming.ts`).
 */
export const MAX_DOC_SHARE = 0.5;
/** Shared terms kept per similar file as its evidence, rarest first. */
const EVIDENCE_TERMS = 3;

/** A file like the changed one: its BM25 score for the changed file's distinctive terms, and the rarest it shares. */
export interface SimilarFile {
	id: number;
	score: number;
	/** Up to three of the distinctive terms it holds, rarest first: what `similar text (…)` names. */
	shared: string[];
}

/**
 * The files most like file `id` by text (see the module comment), best first, at most `limit`, `id` and the files of
 * `leaveOut` excluded; empty when `id` is not indexed or shares no distinctive term. Pure over the index.
 */
export function similarFiles(
	content: ContentIndex,
	id: number,
	limit: number,
	leaveOut: ReadonlySet<number> = new Set(),
): SimilarFile[] {
	const n = content.size;
	const query: { term: string; weight: number; idf: number }[] = [];
	for (const [term, count] of content.termsOf(id)) {
		const df = content.documentFrequency(term);
		// A term no other file holds finds nothing; one most files hold tells none apart (Lucene's maxDocFreqPct).
		if (df < 2 || df > n * MAX_DOC_SHARE) continue;
		const idf = content.idf(df);
		query.push({ term, weight: count * idf, idf });
	}
	if (query.length === 0) return [];
	query.sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1));
	const kept = query.slice(0, QUERY_TERMS);
	let size = id + 1;
	const holders = kept.map((q) => {
		const ids = content.filesWith(q.term);
		for (const holder of ids) if (holder >= size) size = holder + 1;
		return ids;
	});
	const scores = new Float64Array(size);
	content.score(
		kept.map((q) => q.term),
		scores,
	);
	const found: SimilarFile[] = [];
	for (let other = 0; other < size; other++) {
		const score = scores[other] as number;
		if (score > 0 && other !== id && !leaveOut.has(other)) found.push({ id: other, score, shared: [] });
	}
	found.sort((a, b) => b.score - a.score || a.id - b.id);
	const top = found.slice(0, limit);
	const byId = new Map(top.map((s) => [s.id, s]));
	// Evidence: the rarest distinctive terms each holds (highest idf first).
	const rarest = kept.map((q, at) => ({ ...q, at })).sort((a, b) => b.idf - a.idf || (a.term < b.term ? -1 : 1));
	for (const { term, at } of rarest) {
		for (const holder of holders[at] ?? []) {
			const similar = byId.get(holder);
			if (similar !== undefined && similar.shared.length < EVIDENCE_TERMS) similar.shared.push(term);
		}
	}
	return top;
}
