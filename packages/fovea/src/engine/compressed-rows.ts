import type { FileEdges } from "./graph-edges.ts";
import type { SparseGraph } from "./heat.ts";

/**
 * Assembles the symmetric compressed-row adjacency of `size` nodes from per-file edge lists. Each undirected edge is
 * stored in both rows; parallel edges (a file both containing and calling a symbol, two files calling the same pair)
 * merge by adding weights. Two stable counting sorts (by column, then by row) leave every row sorted by target, so
 * merging is one linear pass and the whole assembly is linear in the number of edges: no hashing, no comparisons.
 */
export function compressedRows(size: number, edges: Iterable<FileEdges>): SparseGraph {
	const parts = [...edges];
	let total = 0;
	for (const part of parts) total += part.a.length;
	const rows = new Int32Array(2 * total);
	const cols = new Int32Array(2 * total);
	const weights = new Float64Array(2 * total);
	let n = 0;
	for (const part of parts) {
		for (let i = 0; i < part.a.length; i++) {
			const x = part.a[i] as number;
			const y = part.b[i] as number;
			const weight = part.w[i] as number;
			rows[n] = x;
			cols[n] = y;
			weights[n++] = weight;
			rows[n] = y;
			cols[n] = x;
			weights[n++] = weight;
		}
	}
	const byColumn = countingOrder(cols, size, identity(n));
	const order = countingOrder(rows, size, byColumn);

	const offsets = new Int32Array(size + 1);
	const targets = new Int32Array(n);
	const merged = new Float64Array(n);
	let m = 0;
	let row = -1;
	for (let k = 0; k < n; k++) {
		const e = order[k] as number;
		const r = rows[e] as number;
		const c = cols[e] as number;
		if (r === row && m > (offsets[r] as number) && targets[m - 1] === c) {
			merged[m - 1] = (merged[m - 1] as number) + (weights[e] as number);
			continue;
		}
		while (row < r) offsets[++row] = m;
		targets[m] = c;
		merged[m++] = weights[e] as number;
	}
	while (row < size) offsets[++row] = m;
	return { size, offsets, targets: targets.slice(0, m), weights: merged.slice(0, m) };
}

function identity(n: number): Int32Array {
	const out = new Int32Array(n);
	for (let i = 0; i < n; i++) out[i] = i;
	return out;
}

/** A stable counting sort of the entries listed in `order` by `keys[entry]` (0 ≤ key < size). */
function countingOrder(keys: Int32Array, size: number, order: Int32Array): Int32Array {
	const start = new Int32Array(size + 1);
	for (let i = 0; i < order.length; i++) {
		const key = keys[order[i] as number] as number;
		start[key + 1] = (start[key + 1] as number) + 1;
	}
	for (let k = 0; k < size; k++) start[k + 1] = (start[k + 1] as number) + (start[k] as number);
	const out = new Int32Array(order.length);
	for (let i = 0; i < order.length; i++) {
		const entry = order[i] as number;
		const key = keys[entry] as number;
		out[start[key] as number] = entry;
		start[key] = (start[key] as number) + 1;
	}
	return out;
}
