/**
 * Clone search on a project slice (`project-slice.ts`): the files it judges by their facts are parsed as it judges
 * them, so it chooses what it would choose with the whole code map's facts.
 *
 * - Neighbours are examined in clone search's order until as many of them as it compares may hold a clone; those
 *   after are not searched either way (the note counts them as not searched, not as ruled out).
 * - A distant file is chosen only when one of its callables has a span within `SPAN_CLOSENESS` of a target's and
 *   calls at least half of the names the target calls (shared names at least `SHARED_NAMES` of all the names either
 *   calls). A called name is written inside its caller, so such a file's text holds half of a target's names within
 *   as many lines as such a callable spans; only files whose text does are parsed, and the facts decide.
 */
import type { ProjectSlice } from "./project-slice.ts";
import {
	type CloneTarget,
	holdsSimilarSpan,
	SHARED_NAMES,
	SPAN_CLOSENESS,
	type TargetShape,
	targetShapes,
} from "./similar-callables.ts";

/** Neighbours parsed at a time while looking for enough that may hold a clone. */
const NEIGHBOUR_BATCH = 8;

/**
 * The prefix of `ordered` (neighbours in clone search's order) that holds `limit` files that may hold a clone, or
 * all of it; parsed, with the files of `targets` (whose facts give the names the targets call).
 */
export async function nearbyInSlice(
	slice: ProjectSlice,
	ordered: ReadonlySet<string>,
	targets: readonly CloneTarget[],
	limit: number,
): Promise<string[]> {
	await slice.factsFor(targets.map((target) => target.file));
	const all = [...ordered];
	let possible = 0;
	let examined = 0;
	while (examined < all.length && possible < limit) {
		const batch = all.slice(examined, examined + NEIGHBOUR_BATCH);
		await slice.factsFor(batch);
		for (const path of batch) {
			examined++;
			const facts = slice.project.files.get(path);
			if (facts === undefined || holdsSimilarSpan(facts, targets)) possible++;
			if (possible >= limit) break;
		}
	}
	return all.slice(0, examined);
}

/** Parses the files `accept` lets through whose text could hold a callable like one of `targets`. */
export async function distantInSlice(
	slice: ProjectSlice,
	targets: readonly CloneTarget[],
	accept: (path: string) => boolean,
): Promise<void> {
	const shapes = targetShapes(targets, (path) => slice.project.files.get(path));
	if (shapes.length === 0) return;
	const wanted: string[] = [];
	for (const [path, text] of slice.texts) {
		if (slice.project.files.has(path) || !accept(path)) continue;
		if (shapes.some((shape) => mayResemble(text, shape))) wanted.push(path);
	}
	await slice.factsFor(wanted);
}

/** Whether `text` holds enough of `shape`'s names within the lines a callable of a close span covers. */
export function mayResemble(text: string, shape: TargetShape): boolean {
	const names = [...shape.names].filter((name) => text.includes(name));
	const need = Math.ceil(shape.names.size * SHARED_NAMES);
	if (names.length < need) return false;
	const width = Math.floor(shape.span / SPAN_CLOSENESS) + 1;
	const hits: number[][] = names.map(() => []);
	text.split("\n").forEach((line, i) => {
		names.forEach((name, k) => {
			if (line.includes(name)) (hits[k] as number[]).push(i);
		});
	});
	const starts = [...new Set(hits.flat())].sort((a, b) => a - b);
	return starts.some((start) => {
		let count = 0;
		for (const lines of hits) if (lines.some((line) => line >= start && line < start + width)) count++;
		return count >= need;
	});
}
