/**
 * The one place impact's reach takes in its other signals, apart from the reach so each changes alone: the files that
 * changed with the changed files (the graph's coupled edges) and the files whose text is like theirs, fused with the
 * reach by rank (see `rank/impact-fusion.ts`).
 */
import { coupledWith } from "../graph/index.ts";
import type { CouplingStatus } from "../history/index.ts";
import {
	type CouplingEvidence,
	type FocusQuery,
	type FusionSignals,
	fuseImpact,
	type PreparedGraph,
	type Reach,
	type SimilarFile,
	similarFiles,
	testsNaming,
} from "../rank/index.ts";

/** Similar files taken per changed file: as deep as an answer goes. */
const SIMILAR_FILES = 50;

/**
 * The reach fused with change coupling (the files coupled with the changed files by the graph's coupled edges,
 * summed over them) and with the files most like them by text; when the root has no history, a note says why (its
 * `status`) and the other signals still count.
 */
export function withCoupling(
	reach: Reach,
	prepared: PreparedGraph,
	status: CouplingStatus,
	changedFiles: readonly string[],
): { reach: Reach; note?: string } {
	const graph = prepared.graph;
	const signals: FusionSignals = {};
	const edges = graph.coupled();
	if (edges !== undefined) {
		const found = new Map<number, CouplingEvidence>();
		for (const file of changedFiles) {
			const id = graph.fileNode.get(file);
			if (id === undefined) continue;
			for (const c of coupledWith(edges, id)) {
				const seen = found.get(c.id);
				if (seen === undefined)
					found.set(c.id, { id: c.id, count: c.count, weight: c.weight, commits: edges.commitsOf[c.id] ?? 0 });
				else {
					seen.count += c.count;
					seen.weight += c.weight;
				}
			}
		}
		signals.coupled = [...found.values()];
		signals.window = edges.window;
	}
	signals.similar = similarToAll(prepared, changedFiles);
	const changedIds = changedFiles.map((f) => graph.fileNode.get(f)).filter((id): id is number => id !== undefined);
	signals.named = testsNaming(graph, prepared.content, changedIds, SIMILAR_FILES);
	const fused = fuseImpact(reach, graph, signals, { changed: new Set(changedFiles) });
	if (status.available === false) return { reach: fused, note: `Change coupling: none (${status.reason}).` };
	return { reach: fused };
}

/** The files most like any of `files` by text, their scores summed over them, best first. */
function similarToAll(prepared: PreparedGraph, files: readonly string[]): SimilarFile[] {
	const ids = files.map((f) => prepared.graph.fileNode.get(f)).filter((id): id is number => id !== undefined);
	const leaveOut = new Set(ids);
	const merged = new Map<number, SimilarFile>();
	for (const id of ids) {
		for (const s of similarFiles(prepared.content, id, SIMILAR_FILES, leaveOut)) {
			const seen = merged.get(s.id);
			if (seen === undefined) merged.set(s.id, { ...s });
			else seen.score += s.score;
		}
	}
	return [...merged.values()].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, SIMILAR_FILES);
}

/** `query` with the graph's coupled edges as its prior (`rank/coupling-prior.ts`), when the root has history. */
export function withCouplingPrior(query: FocusQuery, prepared: PreparedGraph): FocusQuery {
	const coupled = prepared.graph.coupled();
	return coupled === undefined ? query : { ...query, coupled };
}
