/**
 * The focus queries behind dwell and impact: where heat is seeded on the prepared graph. Dwell seeds from retained
 * attention and spreads further; impact seeds from a change and reports only what lies beyond it. Pure, over the
 * graph's node tables.
 */
import type { FocusQuery, PreparedGraph } from "./focus.ts";
import { manyOf } from "./one-or-many.ts";

/** Seed mass per file node for root-relative paths (unknown paths are ignored). */
export function fileSeeds(
	graph: PreparedGraph,
	weighted: ReadonlyArray<readonly [string, number]>,
): Map<number, number> {
	const seeds = new Map<number, number>();
	for (const [path, weight] of weighted) {
		const id = graph.graph.fileNode.get(path);
		if (id !== undefined && weight > 0) seeds.set(id, (seeds.get(id) ?? 0) + weight);
	}
	return seeds;
}

/** Heat seeded from attention (root-relative paths with weights), spread `factor` times further than a focus. */
export function dwellQuery(
	graph: PreparedGraph,
	attention: ReadonlyArray<readonly [string, number]>,
	factor: number,
): FocusQuery {
	return { text: "", attention: fileSeeds(graph, attention), timeScale: factor };
}

/**
 * Heat seeded from changed files and symbols, reported for the nodes it reaches beyond them. `importersOfGone` are
 * the files importing changed files that have no node any more (deleted, or no longer mapped): they are seeded too,
 * and ranked rather than left out, since a deletion exposes them first of all.
 */
export function impactQuery(
	graph: PreparedGraph,
	changed: { files: readonly string[]; symbols: readonly string[] },
	importersOfGone: readonly string[] = [],
): FocusQuery {
	const seeds = fileSeeds(graph, [
		...changed.files.map((path) => [path, 1] as const),
		...importersOfGone.map((path) => [path, 1] as const),
	]);
	for (const name of changed.symbols)
		for (const id of manyOf(graph.graph.byName.get(name))) seeds.set(id, (seeds.get(id) ?? 0) + 1);
	const changedFiles = new Set(changed.files);
	const ranked = importersOfGone.filter((path) => !changedFiles.has(path));
	return {
		text: "",
		attention: seeds,
		excludeSeeds: true,
		...(ranked.length > 0 ? { rankedSeeds: new Set(ranked) } : {}),
		timeScale: 2,
	};
}
