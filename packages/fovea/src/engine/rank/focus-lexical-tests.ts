/**
 * On a one-line query (a commit's subject, a few words), a test that the files' whole-text BM25 ranks among its best
 * keeps a place in the focus answer's top ten even though its role ranks it down (`role-prior.ts`): a change to code
 * usually changes its tests, and when a test repeats the subject's words more than any other file (gin's
 * `context_test.go` on "add bson protocol", whose subject `context.go` ranks low) neither its subject nor its edges
 * bring it up (`test-follows-subject.ts`). Focus's first `KEPT` files stay as they are (the graph and the names found
 * them, and they decide MRR); below them its ranking and the whole-text ranking of those tests are fused by
 * reciprocal rank, so a test ranked high by the text takes the place of focus's weakest answers, not its best.
 * Measured on six histories of five languages (`bench/fovea-localization.bench.ts`, 240 subjects): Recall@10 0.719
 * → 0.727 pooled, gin +0.028 and this repository +0.031, vuejs/core and ripgrep −0.003 to −0.004 (one file each),
 * MRR unchanged (0.661); issue text, several lines, is not touched. The whole-text ranking of every file, not only
 * tests, cost vuejs/core, ripgrep and this repository up to 3% of their recall (files focus ranked 7th–10th by the
 * graph pushed out by lexical look-alikes).
 */
import { topK } from "./ranking.ts";

/** Focus's first files, kept in place. */
const KEPT = 5;
/** How deep focus's ranking takes part in the fusion. */
const FOCUS_DEPTH = 100;
/** How deep in the whole-text ranking a ranked-down test is let in. */
const TEXT_DEPTH = 10;
/** Reciprocal rank's usual constant: a rank's credit is 1 / (`RANK_OFFSET` + rank). */
const RANK_OFFSET = 60;

/**
 * Fuses, in place, the focus ranking in `fileScore` (one entry per file) with the whole-text ranking in `text` of the
 * files whose role `factor` ranked down (below 1), as the module comment says. Scores stay in (0, best]: the kept
 * files first, then the fused ones, then every other scored file in its old order. Returns how many ranked-down files
 * took part from the text's side.
 */
export function admitLexicalTests(fileScore: Float64Array, text: Float64Array, factor: Float64Array): number {
	const n = fileScore.length;
	const lexical = topK(text, 0, n, TEXT_DEPTH, text);
	const admitted = lexical.flatMap((ranked, rank) =>
		(factor[ranked.id] as number) < 1 ? [{ id: ranked.id, rank }] : [],
	);
	if (admitted.length === 0) return 0;
	const focused = topK(fileScore, 0, n, FOCUS_DEPTH, fileScore);
	const best = focused[0]?.score ?? 0;
	if (!(best > 0)) return 0;
	const fused = new Map<number, number>();
	focused.forEach((ranked, rank) => {
		// A kept file's credit is above any fused one (at most two credits below 1 / RANK_OFFSET each).
		fused.set(ranked.id, rank < KEPT ? 1 + 1 / (RANK_OFFSET + rank + 1) : 1 / (RANK_OFFSET + rank + 1));
	});
	for (const { id, rank } of admitted) {
		if (!((fused.get(id) ?? 0) >= 1)) fused.set(id, (fused.get(id) ?? 0) + 1 / (RANK_OFFSET + rank + 1));
	}
	let top = 0;
	let lowest = Number.POSITIVE_INFINITY;
	for (const credit of fused.values()) {
		if (credit > top) top = credit;
		if (credit < lowest) lowest = credit;
	}
	// Every other scored file ranks below the fused ones, in its old order.
	const below = (lowest / top) * best * 0.5;
	for (let id = 0; id < n; id++) fileScore[id] = ((fileScore[id] as number) / best) * below;
	for (const [id, credit] of fused) fileScore[id] = (credit / top) * best;
	return admitted.length;
}
