// Impact's signals one by one, beside the fused answer: the reach alone, change coupling alone and text likeness alone,
// as the engine computes each for `impact` (`map/coupling-hook.ts`). The report scores each like a ranker, so a fused
// answer that trails a baseline can be told apart from a signal that is weaker than the baseline's form of it.
import { coupledWith } from "../../../packages/fovea/src/engine/graph/index.ts";
import { upstreamFiles } from "../../../packages/fovea/src/engine/rank/dependent-reach.ts";
import { byCoupling, similarFiles, testsNaming } from "../../../packages/fovea/src/engine/rank/index.ts";
import type { TreeState } from "./tree-states.ts";

/**
 * One signal's files, best first, with the signal's own score (reach score, coupling count, BM25 score); coupling adds
 * its weight and the file's own commits in the window.
 */
export type ScoredList = {
	path: string;
	score: number;
	weight?: number;
	commits?: number;
	/** The reach's relation and hops (how the graph reaches the file). */
	relation?: string;
	hops?: number;
}[];

/** Each signal of impact for one changed file, and the files it depends on (which text likeness never brings in). */
export interface ImpactSignals {
	reach: ScoredList;
	coupling: ScoredList;
	text: ScoredList;
	/** Tests that name what the file defines. */
	named: ScoredList;
	upstream: string[];
}

/** The signals impact fuses for `file` on `state`'s tree, each at most 50 files, `file` left out. */
export async function impactSignals(state: TreeState, file: string): Promise<ImpactSignals> {
	const changed = { files: [file], symbols: [] };
	// As `impact` does, which brings change coupling to the tree's commit first; the graph then carries its edges.
	await state.map.exposure(changed, { paths: [] }, { fused: true });
	const { graph: prepared } = await state.map.refresh({ paths: [] });
	const graph = prepared.graph;
	const id = graph.fileNode.get(file);
	const pathOf = (n: number) => graph.nodes[n]?.path ?? "";
	const { reach } = await state.map.exposure(changed, { paths: [] });
	const edges = graph.coupled();
	// In the order impact's fusion ranks them (ties to the file with fewer commits of its own).
	const coupled =
		id === undefined || edges === undefined
			? []
			: coupledWith(edges, id)
					.map((c) => ({ id: c.id, count: c.count, weight: c.weight, commits: edges.commitsOf[c.id] ?? 0 }))
					.sort(byCoupling);
	const similar = id === undefined ? [] : similarFiles(prepared.content, id, 50, new Set([id]));
	const named = id === undefined ? [] : testsNaming(graph, prepared.content, [id], 50);
	return {
		reach: reach.files.map((r) => ({
			path: pathOf(r.id),
			score: r.score,
			...(r.evidence === undefined ? {} : { relation: r.evidence.relation, hops: r.evidence.hops }),
		})),
		coupling: coupled.map((c) => ({ path: pathOf(c.id), score: c.count, weight: c.weight, commits: c.commits })),
		text: similar.map((s) => ({ path: pathOf(s.id), score: s.score })),
		named: named.map((t) => ({ path: pathOf(t.id), score: t.score })),
		upstream: id === undefined ? [] : [...upstreamFiles(graph, [id])].map(pathOf),
	};
}
