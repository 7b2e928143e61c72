/**
 * The region a bounded diffusion grows around its seeds: nodes placed in it by a local number (`localOf`, -1 outside),
 * the reach pushed one hop out of it, and its rows renumbered as a graph of their own.
 */
import type { NormalizedGraph } from "./heat.ts";

/** Appends the first `length` of `ids` to `out` after its first `outLength`, each placed in `localOf`. */
export function appendPlaced(
	ids: Int32Array,
	length: number,
	out: Int32Array,
	outLength: number,
	localOf: Int32Array,
): number {
	let listed = outLength;
	for (let k = 0; k < length; k++) {
		const i = ids[k] as number;
		localOf[i] = listed;
		out[listed++] = i;
	}
	return listed;
}

/** Sets `localOf` back to -1 at the nodes of `region`. */
export function unplace(localOf: Int32Array, region: Int32Array): void {
	for (let k = 0; k < region.length; k++) localOf[region[k] as number] = -1;
}

/** The row entries of the first `length` of `ids`. */
export function rowEntries(offsets: Int32Array, ids: Int32Array, length: number): number {
	let entries = 0;
	for (let k = 0; k < length; k++) {
		const j = ids[k] as number;
		entries += (offsets[j + 1] as number) - (offsets[j] as number);
	}
	return entries;
}

/**
 * Pushes the reach of the `frontier` nodes along their rows into `reach` itself, as sums at the nodes outside the
 * region (`localOf` below 0, their reach 0 when a hop starts); lists each such node once in `out`, the first time its sum leaves zero (reach and weights are positive;
 * an inert entry of weight 0 is skipped). Returns how many it lists.
 */
export function pushReach(
	graph: NormalizedGraph,
	frontier: Int32Array,
	reach: Float32Array,
	localOf: Int32Array,
	out: Int32Array,
): number {
	const { offsets, targets, weights, scale } = graph;
	let listed = 0;
	for (let k = 0; k < frontier.length; k++) {
		const j = frontier[k] as number;
		const x = (scale[j] as number) * (reach[j] as number);
		const end = offsets[j + 1] as number;
		for (let e = offsets[j] as number; e < end; e++) {
			const i = targets[e] as number;
			const w = weights[e] as number;
			if ((localOf[i] as number) >= 0 || w === 0) continue;
			const sum = reach[i] as number;
			if (sum === 0) out[listed++] = i;
			reach[i] = sum + w * x;
		}
	}
	return listed;
}

/** The reach of the listed nodes, `scale · sum`, in place of their sums in `reach`. */
export function scaleReach(scale: Float64Array, reach: Float32Array, ids: Int32Array, length: number) {
	for (let k = 0; k < length; k++) {
		const i = ids[k] as number;
		reach[i] = (scale[i] as number) * (reach[i] as number);
	}
}

/** Numbers the nodes of `region` by their place in it, in `localOf`. */
export function numberRegion(region: Int32Array, localOf: Int32Array): void {
	for (let k = 0; k < region.length; k++) localOf[region[k] as number] = k;
}

/**
 * The rows of `region` with the entries between its nodes only, renumbered by place, into `offsets`, `targets`
 * and `weights`. Returns the entries written.
 */
export function localRows(
	graph: NormalizedGraph,
	region: Int32Array,
	localOf: Int32Array,
	offsets: Int32Array,
	targets: Int32Array,
	weights: Float64Array,
): number {
	const { offsets: rows, targets: columns, weights: values } = graph;
	let length = 0;
	offsets[0] = 0;
	for (let k = 0; k < region.length; k++) {
		const i = region[k] as number;
		const end = rows[i + 1] as number;
		for (let e = rows[i] as number; e < end; e++) {
			const j = columns[e] as number;
			const local = localOf[j] as number;
			if (local < 0) continue;
			targets[length] = local;
			weights[length++] = values[e] as number;
		}
		offsets[k + 1] = length;
	}
	return length;
}

/** `values` at the nodes of `region`, by place, in `out`; returns that view. */
export function gathered(values: Float64Array, region: Int32Array, out: Float64Array): Float64Array {
	for (let k = 0; k < region.length; k++) out[k] = values[region[k] as number] as number;
	return out.subarray(0, region.length);
}
