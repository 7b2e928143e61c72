// Ranking metrics of the localization benchmark, pure: a ranking is a list of root-relative paths, best first; gold is
// the set of paths a right answer names. Every ranker is cut at the same depth, so no ranker gains from a longer list.

/** How deep every ranking is read: `focus` and `impact` return at most 50 files. */
export const DEPTH = 50;

/** The 1-based rank of each gold path within the first `DEPTH` of `ranking`, or null when absent there. */
export function goldRanks(ranking: readonly string[], gold: readonly string[]): Record<string, number | null> {
	const within = ranking.slice(0, DEPTH);
	const ranks: Record<string, number | null> = {};
	for (const g of gold) {
		const at = within.indexOf(g);
		ranks[g] = at < 0 ? null : at + 1;
	}
	return ranks;
}

/** What one ranking scores on one case. */
export interface CaseScore {
	/** 1 when every gold path is within the first k (the strict definition, as LocAgent uses), else 0. */
	acc1: number;
	acc5: number;
	/** The share of gold paths within the first 10. */
	recall10: number;
	/** 1 / the rank of the best-ranked gold path, 0 when none is within `DEPTH`. */
	rr: number;
	ranks: Record<string, number | null>;
	top: string[];
}

/** Scores `ranking` against a non-empty `gold`. */
export function scoreCase(ranking: readonly string[], gold: readonly string[]): CaseScore {
	if (gold.length === 0) throw new Error("scoreCase: empty gold set");
	const ranks = goldRanks(ranking, gold);
	const found = Object.values(ranks).filter((r): r is number => r !== null);
	const allWithin = (k: number) => (found.length === gold.length && found.every((r) => r <= k) ? 1 : 0);
	return {
		acc1: allWithin(1),
		acc5: allWithin(5),
		recall10: found.filter((r) => r <= 10).length / gold.length,
		rr: found.length === 0 ? 0 : 1 / Math.min(...found),
		ranks,
		top: ranking.slice(0, 10),
	};
}

/** The metric names a summary carries. */
export type Metric = "acc1" | "acc5" | "recall10" | "rr";

/** The mean of each metric over `scores` (MRR is the mean of `rr`), rounded to 3 decimals; zeros when empty. */
export function summarize(scores: readonly CaseScore[]): Record<Metric, number> {
	const mean = (pick: (s: CaseScore) => number) =>
		scores.length === 0 ? 0 : round3(scores.reduce((sum, s) => sum + pick(s), 0) / scores.length);
	return {
		acc1: mean((s) => s.acc1),
		acc5: mean((s) => s.acc5),
		recall10: mean((s) => s.recall10),
		rr: mean((s) => s.rr),
	};
}

/** `n` rounded to 3 decimals. */
export function round3(n: number): number {
	return Math.round(n * 1000) / 1000;
}

/** A target: Fovea's value against a baseline's, the ratio asked for, and whether it is met. */
export interface TargetCheck {
	metric: Metric;
	fovea: number;
	baseline: number;
	/** The baseline it is compared with (for impact: the best of three on this metric). */
	against: string;
	/** fovea / baseline, rounded; null when the baseline is 0. */
	ratio: number | null;
	required: number;
	met: boolean;
}

/** Whether `fovea` reaches `required` × `baseline` on `metric`. A zero baseline is met by any non-negative Fovea. */
export function checkTarget(
	metric: Metric,
	fovea: number,
	baseline: number,
	required: number,
	against: string,
): TargetCheck {
	const ratio = baseline === 0 ? null : round3(fovea / baseline);
	return { metric, fovea, baseline, against, ratio, required, met: fovea >= required * baseline };
}

/** Per case, which of two rankings put its best gold path higher: Fovea's or the other's. */
export function headToHead(fovea: readonly CaseScore[], other: readonly CaseScore[]) {
	let wins = 0;
	let losses = 0;
	for (let i = 0; i < fovea.length; i++) {
		const a = (fovea[i] as CaseScore).rr;
		const b = (other[i] as CaseScore | undefined)?.rr ?? 0;
		if (a > b) wins++;
		else if (a < b) losses++;
	}
	return { foveaBetter: wins, otherBetter: losses, tied: fovea.length - wins - losses };
}
