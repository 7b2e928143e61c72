/**
 * The root's change history as a prior of focus: a file changed in the last commits is more likely what the next
 * change touches than one at the same rank that has not changed for months (work in progress continues; the
 * bug-localization literature weighs a file's past modifications by age, Sisman and Kak, MSR 2012, "Incorporating
 * version histories in IR-based bug localization"). The prior refines what the words found and never finds on its
 * own: it only reorders focus's best `DEPTH` files, and the best one stays first (the words and the graph put it
 * there, and it decides MRR).
 *
 * It works on ranks, not scores: each file's credit is 1 / rank, grown by at most `LIFT` times how much more recently
 * it changed than focus's best `NEIGHBOURHOOD` files did on average (recency 1 − 2^−r of `CoupledEdges.recency`),
 * weighed by the file's role prior (`role-prior.ts`: a test that changes with every commit still ranks below the
 * production code it tests). Relative to the answer's neighbourhood, because where every file the words found changed
 * last week (this repository's own history, big commits) recency tells nothing apart. Ranks and not scores, because
 * the scores' spread differs from one query and one root to the next.
 */
import { reorderByRankCredit } from "./rank-credit.ts";
import { topK } from "./ranking.ts";

/** How many of focus's best files the prior reorders: as many as an answer returns. */
const DEPTH = 50;
/** Focus's first files, kept in place. */
const KEPT = 1;
/** A file's rank credit grows by at most this share of itself (a file changed just now counts as if ranked half as deep). */
const LIFT = 1;
/** How many of focus's best files tell how recent the answer's neighbourhood is. */
const NEIGHBOURHOOD = 10;

/**
 * Reorders, in place, the best `DEPTH` files of `fileScore` (one entry per file) by their rank credit grown by their
 * `recency` (`CoupledEdges.recency`) times their role `factor`, as the module comment says. The scores stay the ones
 * those ranks had, so every other file keeps its score and place. Returns how many files moved.
 */
export function applyRecencyPrior(fileScore: Float64Array, factor: Float64Array, recency: Float64Array): number {
	const ranked = topK(fileScore, 0, fileScore.length, DEPTH, fileScore);
	if (ranked.length <= KEPT) return 0;
	const recent = (id: number) => 1 - 2 ** -((recency[id] as number) || 0);
	const near = ranked.slice(0, NEIGHBOURHOOD);
	const usual = near.reduce((sum, r) => sum + recent(r.id), 0) / near.length;
	const credit = (id: number, rank: number) =>
		(1 + LIFT * Math.max(0, recent(id) - usual) * (factor[id] as number)) / (rank + 1);
	return reorderByRankCredit(fileScore, ranked, KEPT, credit);
}
