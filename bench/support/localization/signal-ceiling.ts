// What impact's fusion could reach at most from its own signals: each signal of Fovea's impact (the reach, change
// coupling, text likeness) scored alone, and, per case, the best of them and of the fused answer picked with hindsight.
// No fusion of the same lists ranks a case better than its best list does, so when that hindsight ceiling stays under
// the target on a corpus, no reweighting of the signals meets it there: a new kind of evidence has to.
import type { CaseDetail } from "./corpus-result.ts";
import type { CaseScore } from "./metrics.ts";

/** Recall@10 and MRR of a ranking over some cases. */
export interface RecallMrr {
	recall10: number;
	rr: number;
}

/** Each signal's means alone, and the hindsight ceiling: per case the best list (signals and fused) per metric. */
export interface SignalCeiling {
	cases: number;
	signals: Record<string, RecallMrr>;
	ceiling: RecallMrr;
}

/**
 * The means of each signal of `cases` (those with `signals`; the others are left out) and the mean over cases of the
 * best value any signal or the fused answer (`scores.fovea`) reaches on it, per metric. Pure.
 */
export function signalCeiling(cases: readonly CaseDetail[]): SignalCeiling {
	const withSignals = cases.filter((c) => c.signals !== undefined);
	const sums: Record<string, RecallMrr> = {};
	const ceiling: RecallMrr = { recall10: 0, rr: 0 };
	for (const c of withSignals) {
		const lists: CaseScore[] = [];
		for (const [name, score] of Object.entries(c.signals ?? {})) {
			const sum = sums[name] ?? { recall10: 0, rr: 0 };
			sum.recall10 += score.recall10;
			sum.rr += score.rr;
			sums[name] = sum;
			lists.push(score);
		}
		const fused = c.scores.fovea;
		if (fused !== undefined) lists.push(fused);
		ceiling.recall10 += Math.max(0, ...lists.map((s) => s.recall10));
		ceiling.rr += Math.max(0, ...lists.map((s) => s.rr));
	}
	const n = Math.max(1, withSignals.length);
	const mean = (s: RecallMrr): RecallMrr => ({ recall10: s.recall10 / n, rr: s.rr / n });
	return {
		cases: withSignals.length,
		signals: Object.fromEntries(Object.entries(sums).map(([name, s]) => [name, mean(s)])),
		ceiling: mean(ceiling),
	};
}
