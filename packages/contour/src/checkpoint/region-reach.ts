/**
 * Region crossings on a project slice (`project-slice.ts`). A new import from one region to another is news only
 * when no file of the first region imported the second before (`review/regions.ts`): whether one did is a fact about
 * every file of that region, not only the files the change reaches. So for each region pair a new import crosses,
 * the region's files are parsed a batch at a time until one of them is seen importing the other region, or all are.
 */
import { type ImportEdges, newImportEdges, type ReviewPolicy, regionsOf } from "../review/index.ts";
import type { ProjectSlice } from "./project-slice.ts";

/** Files parsed at a time while looking for an earlier import between two regions. */
const REGION_BATCH = 16;

/**
 * Parses in `slice` what settles whether each region pair that a new import of `graphs()` crosses was already
 * dependent; `graphs` builds both sides' import graphs from the slice's facts as they stand.
 */
export async function settleRegionPairs(
	slice: ProjectSlice,
	graphs: () => { before: ImportEdges; after: ImportEdges },
	changedPaths: ReadonlySet<string>,
	policy: ReviewPolicy | undefined,
	signal?: AbortSignal,
): Promise<void> {
	const region = regionsOf(policy);
	const { before, after } = graphs();
	const pairs = new Map<string, { from: string; to: string }>();
	for (const edge of newImportEdges(before, after)) {
		const from = region(edge.from);
		const to = region(edge.to);
		if (from !== to) pairs.set(`${from}\0${to}`, { from, to });
	}
	for (const { from, to } of pairs.values()) {
		const files = [...slice.texts.keys()].filter(
			(path) => !changedPaths.has(path) && !slice.project.files.has(path) && region(path) === from,
		);
		for (let i = 0; i < files.length; i += REGION_BATCH) {
			if (dependent(graphs().before, region, from, to)) break;
			signal?.throwIfAborted();
			await slice.factsFor(files.slice(i, i + REGION_BATCH));
		}
	}
}

function dependent(edges: ImportEdges, region: (path: string) => string, from: string, to: string): boolean {
	for (const [path, targets] of edges) {
		if (region(path) !== from) continue;
		for (const target of targets.keys()) if (region(target) === to) return true;
	}
	return false;
}
