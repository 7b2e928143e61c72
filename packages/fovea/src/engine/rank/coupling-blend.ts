/**
 * Where change coupling meets an impact ranking: the one place the two are combined, kept apart from the reach so
 * either can change alone. Each side is scaled to its own best (the top reached file scores 1, the most coupled file
 * scores 1) and a file's score is the sum, so a file both reached and coupled beats one that is only either, and a
 * file only history links (a test that imports nothing of it, a sibling implementation) still enters the answer.
 * Equal weights: neither side was tuned against the other on any corpus.
 */
import type { CodeGraph } from "../graph/index.ts";
import type { FocusResult, RankedNode } from "./focus.ts";

/** Files coupled with the changed ones: how often each changed with them, in how many mined commits. */
export interface CouplingEvidence {
	file: string;
	count: number;
}

/**
 * `result` with its files re-ranked by reach plus coupling (see the module comment), at most `limit` of them,
 * leaving out `changed`; each coupled file carries its evidence (`changed with it 14 times in the last 1000
 * commits`). Pure.
 */
export function blendCoupling(
	result: FocusResult,
	graph: CodeGraph,
	coupled: readonly CouplingEvidence[],
	options: { changed: ReadonlySet<string>; window: number; limit?: number },
): FocusResult {
	const limit = options.limit ?? 50;
	const usable = coupled.filter((c) => c.count > 0 && !options.changed.has(c.file) && graph.fileNode.has(c.file));
	if (usable.length === 0) return result;
	const topReach = Math.max(0, ...result.files.map((r) => r.score));
	const topCount = Math.max(...usable.map((c) => c.count));
	const merged = new Map<number, RankedNode>();
	for (const ranked of result.files)
		merged.set(ranked.id, { ...ranked, score: topReach > 0 ? ranked.score / topReach : 0 });
	for (const c of usable) {
		const id = graph.fileNode.get(c.file) as number;
		const prior = merged.get(id) ?? { id, score: 0, seed: 0 };
		const times = c.count === 1 ? "once" : `${c.count} times`;
		merged.set(id, {
			...prior,
			score: prior.score + c.count / topCount,
			evidence: [...(prior.evidence ?? []), `changed with it ${times} in the last ${options.window} commits`],
		});
	}
	const files = [...merged.values()].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
	return { ...result, files };
}
