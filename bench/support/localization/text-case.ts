// One text-query case, as the issue and commit-subject tasks both score it: Fovea's `focus` with the text against
// BM25 over the same tree's files with the same text.
import { terms } from "../../../packages/fovea/src/engine/index.ts";
import type { CaseDetail } from "./corpus-result.ts";
import { scoreCase } from "./metrics.ts";
import type { TreeState } from "./tree-states.ts";

/** The token budget Fovea answers with, as its tools do by default. */
export const MAX_TOKENS = 1500;

/** Where the rankers' time goes. */
export interface TextTiming {
	focusMs: number;
	bm25Ms: number;
}

/**
 * Scores `text` on `state` against the indexed part of `gold`; a skip reason instead when the text has no term or no
 * gold file is indexed (no ranker could find it). `label` is what the report shows of the query.
 */
export async function focusAgainstBm25(
	state: TreeState,
	c: { id: string; text: string; label: string; gold: readonly string[] },
	timing: TextTiming,
): Promise<CaseDetail | "no-query-terms" | "no-gold-file" | "gold-not-indexed"> {
	if (terms(c.text).length === 0) return "no-query-terms";
	if (c.gold.length === 0) return "no-gold-file";
	const gold = c.gold.filter((g) => state.indexed.has(g));
	if (gold.length === 0) return "gold-not-indexed";
	let t = performance.now();
	const answer = await state.map.focus({ text: c.text }, MAX_TOKENS, { paths: [] });
	timing.focusMs += performance.now() - t;
	t = performance.now();
	const lexical = state.bm25.search(c.text);
	timing.bm25Ms += performance.now() - t;
	return {
		id: c.id,
		query: c.label,
		gold,
		goldDropped: c.gold.filter((g) => !state.indexed.has(g)),
		scores: {
			fovea: scoreCase(
				answer.files.map((f) => f.file),
				gold,
			),
			bm25: scoreCase(lexical, gold),
		},
	};
}
