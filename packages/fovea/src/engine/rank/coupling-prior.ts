/**
 * Change coupling as a prior of focus: the files that changed together with the files a query ranks best gain a share
 * of their score. A change to code usually changes its test, its sibling implementation or its registration, and when
 * no import or name links them (pytest's `testing/test_X.py` and `src/_pytest/X.py`) the root's history still does.
 * Only the best few files lend their score, so history refines what the words found and never finds on its own; a
 * file coupled once is chance, not coupling; the lift is weighed by the coupled file's role prior (`role-prior.ts`),
 * so a test that always changes with a module still ranks below production code when the query is not about tests.
 * The lift is added, not capped at the lender's score: a cap tied coupled files with their lender and cost MRR on
 * gin and vuejs/core; a full share (1 instead of 0.5) or plain counts instead of size-weighted ones lifted sweeping
 * co-changes over the answer and cost gson 8% of its MRR (`bench/fovea-localization.bench.ts`, five histories).
 */
import { type CodeGraph, type CoupledEdges, coupledWith } from "../graph/index.ts";
import { topK } from "./ranking.ts";

/** How many of the best files lend their score to the files coupled with them. */
const LENDERS = 5;
/** A coupled file gains at most this share of its lender's score (when every commit of the lender changed it alone). */
const COUPLING_SHARE = 0.5;
/** Fewer co-changes than this are chance. */
const MIN_COUNT = 2;

/**
 * Adds to each file coupled (the graph's coupled edges) with one of the `LENDERS` best of `fileScore` `COUPLING_SHARE` of that file's score times
 * how surely they change together (their size-weighted co-changes over the lender's commits, in (0, 1]) times the
 * file's role `factor`; the strongest lender counts, in place. Returns how many files gained.
 */
export function applyCouplingPrior(
	graph: CodeGraph,
	fileScore: Float64Array,
	factor: Float64Array,
	coupled: CoupledEdges,
): number {
	const lenders = topK(fileScore, 0, fileScore.length, LENDERS, fileScore);
	const lift = new Map<number, number>();
	for (const lender of lenders) {
		if (lender.id >= graph.fileCount) continue;
		for (const c of coupledWith(coupled, lender.id)) {
			if (c.count < MIN_COUNT || c.of === 0) continue;
			const id = c.id;
			if (id === lender.id || id >= fileScore.length) continue;
			const surely = Math.min(1, c.weight / c.of);
			const gain = COUPLING_SHARE * lender.score * surely * (factor[id] as number);
			if (gain > (lift.get(id) ?? 0)) lift.set(id, gain);
		}
	}
	for (const [id, gain] of lift) fileScore[id] = (fileScore[id] as number) + gain;
	return lift.size;
}
