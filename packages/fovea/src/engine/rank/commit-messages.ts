/**
 * The root's own commit subjects as evidence for the files they changed, a prior of focus: the words people used
 * when they last changed a file are the words of the next subject or issue about it ("history-based document
 * expansion": BugLocator's similar-report score, Zhou et al., ICSE 2012; Locus, Wen et al., ASE 2016, which
 * ranks past change hunks by their commit messages). A query's terms are scored by BM25 against each mined commit's
 * subject (each commit a document), and each matching commit spreads its score over the files it changed,
 * `1 / √files` each: a sweeping commit says less about any one of its files, but a fix with its test and its docs
 * still names each of them (a full `1 / files` split, as change coupling weighs a commit, gained less on the held-out
 * histories). Only for one-line queries (a subject, a few words): an issue's prose would match every subject.
 *
 * Like the change-history prior (`recency-prior.ts`) it refines what the words of the code found and never finds on
 * its own: it reorders focus's best `DEPTH` files by rank credit, focus's best file stays first, and the lift is
 * weighed by the file's role prior (a test changed with every fix still ranks below the code it tests).
 *
 * Bounds: the commits are the miner's (HEAD's ancestors only, the newest 1,000 non-merge commits, huge ones
 * without files), each subject kept to 200 characters and `MESSAGE_TERMS` distinct terms, so the index holds at most
 * 24,000 postings; it is built once per mined head, on the first query that reads it.
 */
import type { CommitRows } from "../graph/index.ts";
import { terms } from "../terms/index.ts";
import { reorderByRankCredit } from "./rank-credit.ts";
import { topK } from "./ranking.ts";

/** A subject's distinct terms kept (a subject longer than this is a paragraph, not a name for the change). */
const MESSAGE_TERMS = 24;
/** How many of focus's best files the prior reorders: as many as an answer returns. */
const DEPTH = 50;
/** Focus's first files, kept in place. */
const KEPT = 1;
/** A file's rank credit grows by at most this share of itself, for the file the messages speak of most. */
const LIFT = 1;
/** BM25's saturation and length normalization, the usual values (as `content-index.ts`). */
const K1 = 1.2;
const B = 0.75;

/** The commits' subjects as an inverted index: term → the commits whose subject holds it; each subject's length. */
interface MessageIndex {
	postings: Map<string, number[]>;
	lengths: Int32Array;
	averageLength: number;
}

const built = new WeakMap<CommitRows, MessageIndex>();

/** The message index of `rows`, built on first use and kept as long as the rows (one mined head). */
function messageIndex(rows: CommitRows): MessageIndex {
	let index = built.get(rows);
	if (index !== undefined) return index;
	const postings = new Map<string, number[]>();
	const lengths = new Int32Array(rows.subjects.length);
	let total = 0;
	rows.subjects.forEach((subject, c) => {
		const words = [...new Set(terms(subject))].slice(0, MESSAGE_TERMS);
		lengths[c] = words.length;
		total += words.length;
		for (const word of words) {
			const list = postings.get(word);
			if (list === undefined) postings.set(word, [c]);
			else list.push(c);
		}
	});
	index = { postings, lengths, averageLength: total / Math.max(1, rows.subjects.length) };
	built.set(rows, index);
	return index;
}

/**
 * The evidence the commit subjects give each file node for `queryTerms`: the sum over the commits whose subject holds
 * a query term of the commit's BM25 score spread `1 / √files` over its files. Only the files `among` are kept.
 */
export function messageEvidence(
	rows: CommitRows,
	queryTerms: readonly string[],
	among: ReadonlySet<number>,
): Map<number, number> {
	const index = messageIndex(rows);
	const count = rows.subjects.length;
	const commitScore = new Map<number, number>();
	for (const term of new Set(queryTerms)) {
		const list = index.postings.get(term);
		if (list === undefined) continue;
		const idf = Math.log(1 + (count - list.length + 0.5) / (list.length + 0.5));
		for (const c of list) {
			const norm = 1 - B + (B * (index.lengths[c] as number)) / (index.averageLength || 1);
			commitScore.set(c, (commitScore.get(c) ?? 0) + (idf * (K1 + 1)) / (1 + K1 * norm));
		}
	}
	const evidence = new Map<number, number>();
	for (const [c, score] of commitScore) {
		const share = score / Math.sqrt(Math.max(1, rows.sizes[c] as number));
		const end = rows.offsets[c + 1] as number;
		for (let e = rows.offsets[c] as number; e < end; e++) {
			const file = rows.files[e] as number;
			if (among.has(file)) evidence.set(file, (evidence.get(file) ?? 0) + share);
		}
	}
	return evidence;
}

/**
 * Reorders, in place, the best `DEPTH` files of `fileScore` by their rank credit grown by `LIFT` times the commit
 * subjects' evidence for them (relative to the most for any of them) times their role `factor`, as the module comment
 * says; the scores stay the ones those ranks had. Returns how many files moved.
 */
export function applyMessagePrior(
	fileScore: Float64Array,
	factor: Float64Array,
	rows: CommitRows,
	queryTerms: readonly string[],
): number {
	if (rows.subjects.length === 0 || queryTerms.length === 0) return 0;
	const ranked = topK(fileScore, 0, fileScore.length, DEPTH, fileScore);
	if (ranked.length <= KEPT) return 0;
	const evidence = messageEvidence(rows, queryTerms, new Set(ranked.map((r) => r.id)));
	let most = 0;
	for (const value of evidence.values()) most = Math.max(most, value);
	if (most === 0) return 0;
	const credit = (id: number, rank: number) =>
		(1 + (LIFT * (evidence.get(id) ?? 0) * (factor[id] as number)) / most) / (rank + 1);
	return reorderByRankCredit(fileScore, ranked, KEPT, credit);
}
