/**
 * A symmetric sparse graph written by hand for unit tests of the heat kernel: each undirected weighted edge in both
 * rows, rows in node order.
 */
import type { SparseGraph } from "../../src/engine/graph/sparse-graph.ts";

/** The compressed rows of `n` nodes joined by `edges` (`[a, b, weight]`). */
export function sparse(n: number, edges: ReadonlyArray<readonly [number, number, number]>): SparseGraph {
	const rows: Array<Array<[number, number]>> = Array.from({ length: n }, () => []);
	for (const [a, b, w] of edges) {
		rows[a]?.push([b, w]);
		rows[b]?.push([a, w]);
	}
	const offsets = new Int32Array(n + 1);
	const targets: number[] = [];
	const weights: number[] = [];
	rows.forEach((row, i) => {
		for (const [j, w] of row) {
			targets.push(j);
			weights.push(w);
		}
		offsets[i + 1] = targets.length;
	});
	return { size: n, offsets, targets: Int32Array.from(targets), weights: Float64Array.from(weights) };
}
