/**
 * Pseudo-relevance feedback for one-line queries (RM3 style): a commit's subject says a few words, and the files it
 * is about share more words than those (`Use LinkedHashMap as the default Map` is about the map adapters and their
 * tests, which share `linked`, `tree`, `entry`, not the subject's words). The best files of the first ranking are
 * taken as relevant; the terms at least two of them hold that are rare in the root and not asked already become an
 * expanded query, each weighed by its share of those files' text (more from the better file) times its idf, and the
 * files the expanded query ranks gain up to `EXPANSION_SHARE` of the best score. The first `KEPT` files stay first:
 * the expansion reorders the rest of the answer, where the recall is, and not its top, which decides MRR (lifted
 * over the whole ranking, it cost pooled MRR 0.661 → 0.647).
 *
 * Measured on six histories of five languages (`bench/fovea-localization.bench.ts`, subjects, the newest 40 cases
 * and cases 41–80 as a held-out half; see `bench/LOCALIZATION.md`). Every constant is a round value, the same on every
 * corpus; common terms (held by more than 2% of the files) bring in look-alikes, and terms one file alone holds are
 * that file's, not the subject's.
 */
import type { ContentIndex } from "./content-index.ts";
import { type RankedNode, topK } from "./ranking.ts";

/** How many of the best files are taken as relevant. */
const FEEDBACK_FILES = 5;
/** How many terms the expanded query adds. */
const EXPANSION_TERMS = 10;
/** A term more than this share of the files hold is too common to expand with. */
const MAX_SHARE = 0.02;
/** How many of the feedback files must hold a term. */
const MIN_HOLDERS = 2;
/** Files the expanded query ranks best gain this share of the best file's score (less as they rank lower). */
const EXPANSION_SHARE = 0.25;
/** The first files of the ranking stay first. */
const KEPT = 3;

/**
 * The expanded query of the `feedback` files (best first, with their scores): its terms with weights in (0, 1], the
 * best term at 1; none of the `asked` terms. Empty when there is no feedback.
 */
export function expansionTerms(
	content: ContentIndex,
	feedback: readonly Pick<RankedNode, "id" | "score">[],
	asked: ReadonlySet<string>,
): Map<string, number> {
	const best = feedback[0]?.score ?? 0;
	if (!(best > 0) || content.size === 0) return new Map();
	const share = new Map<string, number>();
	const holders = new Map<string, number>();
	for (const { id, score } of feedback) {
		const counts = content.termsOf(id);
		let length = 0;
		for (const count of counts.values()) length += count;
		for (const [term, count] of counts) {
			if (asked.has(term)) continue;
			share.set(term, (share.get(term) ?? 0) + ((score / best) * count) / length);
			holders.set(term, (holders.get(term) ?? 0) + 1);
		}
	}
	const needed = Math.min(MIN_HOLDERS, feedback.length);
	const weighed: [string, number][] = [];
	for (const [term, part] of share) {
		if ((holders.get(term) ?? 0) < needed) continue;
		const df = content.documentFrequency(term);
		if (df > MAX_SHARE * content.size) continue;
		weighed.push([term, part * content.idf(df)]);
	}
	weighed.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
	const chosen = weighed.slice(0, EXPANSION_TERMS);
	const top = chosen[0]?.[1] ?? 0;
	return new Map(chosen.map(([term, weight]) => [term, weight / top]));
}

/**
 * Expands the query of `asked` terms from the best files of `fileScore` (one entry per file) and adds each file's
 * share of the lift, in place, as the module comment says; `scratch` is a zeroed vector of one entry per file.
 * Returns the terms expanded with (none when no file ranks or no term qualifies: `fileScore` is then unchanged).
 */
export function expandQuery(
	content: ContentIndex,
	fileScore: Float64Array,
	asked: readonly string[],
	scratch: Float64Array,
): string[] {
	const n = fileScore.length;
	const feedback = topK(fileScore, 0, n, Math.max(FEEDBACK_FILES, KEPT), fileScore);
	const expansion = expansionTerms(content, feedback.slice(0, FEEDBACK_FILES), new Set(asked));
	if (expansion.size === 0) return [];
	const bestExpanded = content.scoreWeighted(expansion, scratch);
	if (!(bestExpanded > 0)) return [];
	const lift = (EXPANSION_SHARE * (feedback[0]?.score ?? 0)) / bestExpanded;
	for (let id = 0; id < n; id++) fileScore[id] = (fileScore[id] as number) + lift * (scratch[id] as number);
	// The kept files gain the most any file can, so none overtakes them and they keep their order.
	for (const { id, score } of feedback.slice(0, KEPT)) fileScore[id] = score + lift * bestExpanded;
	return [...expansion.keys()];
}
