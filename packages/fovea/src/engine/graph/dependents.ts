/**
 * Who depends on each node: the graph's edges reversed, with their relation. The graph's rows are symmetric (heat
 * diffuses both ways), so they cannot say that `top.py` imports `mid.py` rather than the other way round; impact can
 * only follow edges from what changed to what depends on it, and reads them here.
 */
import { EDGE_WEIGHTS, edgeKindOf, RELATION_CODE, WEAK } from "./edges.ts";
import type { Dependents, FileEdges } from "./model.ts";

/**
 * The dependents of `size` nodes from per-file edge lists (iterated twice: a list, or an iterable that starts over). The same dependent holding the same relation to the same
 * node twice (two calls from one function) is one entry, at the larger share: reach counts reasons, not call sites.
 * Linear in the edges; built when an impact first needs it, so building or patching the graph pays nothing for it.
 */
export function dependentsOf(size: number, edges: Iterable<FileEdges>): Dependents {
	// Iterated twice rather than held in a list: a graph makes each file's views as the iteration reaches it.
	const parts = edges;
	const offsets = new Int32Array(size + 1);
	for (const part of parts) {
		for (let i = 0; i < part.b.length; i++) {
			if (((part.r[i] as number) & ~WEAK) === RELATION_CODE.contains) continue;
			const to = part.b[i] as number;
			offsets[to + 1] = (offsets[to + 1] as number) + 1;
		}
	}
	for (let i = 0; i < size; i++) offsets[i + 1] = (offsets[i + 1] as number) + (offsets[i] as number);
	const total = offsets[size] as number;
	const sources = new Int32Array(total);
	const relations = new Uint8Array(total);
	const shares = new Float64Array(total);
	const fill = offsets.slice(0, size);
	for (const part of parts) {
		for (let i = 0; i < part.b.length; i++) {
			const code = part.r[i] as number;
			if ((code & ~WEAK) === RELATION_CODE.contains) continue;
			const to = part.b[i] as number;
			const at = fill[to] as number;
			sources[at] = part.a[i] as number;
			relations[at] = code;
			shares[at] = Math.min(1, (part.w[i] as number) / EDGE_WEIGHTS[edgeKindOf(code)]);
			fill[to] = at + 1;
		}
	}
	return compact({ offsets, sources, relations, shares }, size);
}

/** Merges repeated (dependent, relation) entries of each row in place, keeping the larger share. */
function compact(rows: Dependents, size: number): Dependents {
	const { offsets, sources, relations, shares } = rows;
	const seen = new Map<number, number>();
	let m = 0;
	for (let row = 0; row < size; row++) {
		const start = offsets[row] as number;
		const end = offsets[row + 1] as number;
		offsets[row] = m;
		seen.clear();
		for (let e = start; e < end; e++) {
			const key = (sources[e] as number) * 256 + (relations[e] as number);
			const at = seen.get(key);
			if (at !== undefined) {
				shares[at] = Math.max(shares[at] as number, shares[e] as number);
				continue;
			}
			seen.set(key, m);
			sources[m] = sources[e] as number;
			relations[m] = relations[e] as number;
			shares[m++] = shares[e] as number;
		}
	}
	offsets[size] = m;
	return {
		offsets,
		sources: sources.subarray(0, m),
		relations: relations.subarray(0, m),
		shares: shares.subarray(0, m),
	};
}
