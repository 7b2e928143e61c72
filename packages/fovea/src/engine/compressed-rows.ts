import type { FileEdges } from "./graph-edges.ts";
import type { SparseGraph } from "./heat.ts";

/**
 * Assembles the symmetric compressed-row adjacency of `size` nodes from per-file edge lists. Each undirected edge is
 * stored in both rows; parallel edges (a file both containing and calling a symbol, two files calling the same pair)
 * merge by adding weights. One counting pass places every entry in its row, then each row is compacted in place with
 * a last-seen marker per target, so the assembly is linear in the edges and allocates nothing beyond its output and
 * two per-node arrays: an edit at 10,000 files reassembles ~500,000 entries without churning memory.
 */
export function compressedRows(size: number, edges: Iterable<FileEdges>): SparseGraph {
	const parts = [...edges];
	const offsets = new Int32Array(size + 1);
	for (const part of parts) {
		for (let i = 0; i < part.a.length; i++) {
			const x = part.a[i] as number;
			const y = part.b[i] as number;
			offsets[x + 1] = (offsets[x + 1] as number) + 1;
			offsets[y + 1] = (offsets[y + 1] as number) + 1;
		}
	}
	for (let i = 0; i < size; i++) offsets[i + 1] = (offsets[i + 1] as number) + (offsets[i] as number);
	const total = offsets[size] as number;
	const targets = new Int32Array(total);
	const weights = new Float64Array(total);
	const fill = offsets.slice(0, size);
	for (const part of parts) {
		for (let i = 0; i < part.a.length; i++) {
			const x = part.a[i] as number;
			const y = part.b[i] as number;
			const weight = part.w[i] as number;
			let at = fill[x] as number;
			targets[at] = y;
			weights[at] = weight;
			fill[x] = at + 1;
			at = fill[y] as number;
			targets[at] = x;
			weights[at] = weight;
			fill[y] = at + 1;
		}
	}
	// Compact each row: the first entry for a target keeps its place, later ones add their weight to it.
	const seenInRow = fill.fill(-1);
	const position = new Int32Array(size);
	let m = 0;
	for (let row = 0; row < size; row++) {
		const start = offsets[row] as number;
		const end = offsets[row + 1] as number;
		offsets[row] = m;
		for (let e = start; e < end; e++) {
			const target = targets[e] as number;
			if (seenInRow[target] === row) {
				const at = position[target] as number;
				weights[at] = (weights[at] as number) + (weights[e] as number);
				continue;
			}
			seenInRow[target] = row;
			position[target] = m;
			targets[m] = target;
			weights[m++] = weights[e] as number;
		}
	}
	offsets[size] = m;
	const wasted = total - m > total / 8;
	return {
		size,
		offsets,
		targets: wasted ? targets.slice(0, m) : targets.subarray(0, m),
		weights: wasted ? weights.slice(0, m) : weights.subarray(0, m),
	};
}
