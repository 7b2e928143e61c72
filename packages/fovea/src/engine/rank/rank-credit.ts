/**
 * Reordering focus's best files by rank credit, the step the history priors share (`recency-prior.ts`,
 * `commit-messages.ts`): each prior says how much a file's credit grows, this module turns credits into a new order
 * while the scores stay those of the ranks, so every file outside the reordered ones keeps its score and place.
 */
import type { RankedNode } from "./ranking.ts";

/**
 * Reorders, in place, the files of `ranked` (focus's best, best first, as `topK` gives them) by `credit(id, rank)`,
 * highest first and ties in their old order; the first `kept` stay where they are. Each file takes the score of the
 * rank it lands on. Returns how many files moved.
 */
export function reorderByRankCredit(
	fileScore: Float64Array,
	ranked: readonly RankedNode[],
	kept: number,
	credit: (id: number, rank: number) => number,
): number {
	const reordered = ranked
		.map((r, rank) => ({ id: r.id, rank, credit: rank < kept ? Number.POSITIVE_INFINITY : credit(r.id, rank) }))
		.sort((a, b) => b.credit - a.credit || a.rank - b.rank);
	let moved = 0;
	reordered.forEach((entry, rank) => {
		if (entry.rank !== rank) moved++;
		fileScore[entry.id] = (ranked[rank] as RankedNode).score;
	});
	return moved;
}
