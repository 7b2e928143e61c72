/**
 * Where change coupling meets impact's reach: the one place the two are combined, kept apart from the reach so
 * either can change alone. Each side is scaled to its own best (the top reached file scores 1, the most coupled file
 * scores 1) and a file's score is the sum, so a file both reached and coupled beats one that is only either, and a
 * file only history links (a test that imports nothing of it, a sibling implementation) still enters the answer.
 * Equal weights: neither side was tuned against the other on any corpus. Symbols are left as the reach ranked them.
 */
import type { CodeGraph } from "../graph/index.ts";
import type { Reach, ReachedNode } from "./dependent-reach.ts";

/** Files coupled with the changed ones: how often each changed with them. */
export interface CouplingEvidence {
	file: string;
	count: number;
}

/**
 * `reach` with its files re-ranked by reach plus coupling (see the module comment), at most `limit` of them,
 * leaving out `changed`; each coupled file carries `coupling` (how often it changed with the change, in how many of
 * the newest commits). A file only history links has no graph evidence. Pure.
 */
export function blendCoupling(
	reach: Reach,
	graph: CodeGraph,
	coupled: readonly CouplingEvidence[],
	options: { changed: ReadonlySet<string>; window: number; limit?: number },
): Reach {
	const limit = options.limit ?? 50;
	const usable = coupled.filter((c) => c.count > 0 && !options.changed.has(c.file) && graph.fileNode.has(c.file));
	if (usable.length === 0) return reach;
	const topReach = Math.max(0, ...reach.files.map((r) => r.score));
	const topCount = Math.max(...usable.map((c) => c.count));
	const merged = new Map<number, ReachedNode>();
	for (const ranked of reach.files)
		merged.set(ranked.id, { ...ranked, score: topReach > 0 ? ranked.score / topReach : 0 });
	for (const c of usable) {
		const id = graph.fileNode.get(c.file) as number;
		const prior = merged.get(id) ?? { id, score: 0, reasons: 0 };
		merged.set(id, {
			...prior,
			score: prior.score + c.count / topCount,
			reasons: prior.reasons + 1,
			coupling: { count: c.count, window: options.window },
		});
	}
	const files = [...merged.values()].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
	return { ...reach, files };
}

/** How a coupled file's evidence reads: `changed with it 14 times in the last 1000 commits`. */
export function couplingText(coupling: { count: number; window: number }): string {
	const times = coupling.count === 1 ? "once" : `${coupling.count} times`;
	return `changed with it ${times} in the last ${coupling.window} commits`;
}
