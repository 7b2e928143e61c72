import { carriesHeat } from "./edges.ts";
import type { FileEdges } from "./model.ts";
import { type SparseGraph, withCapacity } from "./sparse-graph.ts";

/**
 * Assembles the symmetric compressed-row adjacency of `size` nodes from per-file edge lists, iterated twice (the edges that carry heat,
 * `carriesHeat`). Each undirected edge is stored in both rows; parallel edges (a file both containing and calling a symbol, two files calling the same pair)
 * merge by adding weights. One counting pass places every entry in its row, then each row is compacted in place with
 * a last-seen marker per target, so the assembly is linear in the edges and allocates nothing beyond its output and
 * two per-node arrays: an edit at 10,000 files reassembles ~500,000 entries without churning memory.
 */
export function compressedRows(size: number, edges: Iterable<FileEdges>): SparseGraph {
	// Iterated twice rather than held in a list: a graph makes each file's views as the iteration reaches it.
	const parts = edges;
	const offsets = new Int32Array(size + 1);
	for (const part of parts) {
		for (let i = 0; i < part.a.length; i++) {
			if (!carriesHeat(part.r[i] as number)) continue;
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
			if (!carriesHeat(part.r[i] as number)) continue;
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

/** Below this a patched weight is zero: weights are sums of a few constants no smaller than 0.5 / 4. */
const ZERO_WEIGHT = 1e-9;

/** What `patchRows` did: the rows, the rows whose entries changed, and how many entries went to or left zero. */
export interface RowPatch {
	rows: SparseGraph;
	touched: number[];
	/** Entries whose weight fell to zero (inert until the next full assembly) minus those that came back. */
	zeroed: number;
}

/**
 * Carries assembled rows from one set of per-file edges to the next without reassembling them: the `removed`
 * parts' weights are taken out and the `added` parts' put in, each in both rows of an edge, and the graph grows to
 * `size` nodes. An entry whose weight falls to zero stays as an inert entry (it adds nothing to any product) until a
 * full assembly compacts it; new entries are inserted into their rows by moving the entries after them within the
 * same buffers (grown, with room to spare, when full), so `rows` must not be used afterwards. An edit thus costs the
 * length of its own edges (and a memory move when it links nodes not linked before) instead of a pass over every
 * edge in JavaScript, and allocates nothing in the common case.
 * `undefined` when a removed edge is not in the rows (they were not assembled from the parts the caller says).
 */
export function patchRows(
	rows: SparseGraph,
	size: number,
	removed: readonly FileEdges[],
	added: readonly FileEdges[],
): RowPatch | undefined {
	const { offsets, targets, weights } = rows;
	const touched = new Set<number>();
	const inserts = new Map<number, Map<number, number>>();
	let zeroed = 0;
	const apply = (row: number, target: number, delta: number): boolean => {
		touched.add(row);
		if (row < rows.size) {
			const end = offsets[row + 1] as number;
			for (let e = offsets[row] as number; e < end; e++) {
				if (targets[e] !== target) continue;
				const before = weights[e] as number;
				let after = before + delta;
				if (after < -ZERO_WEIGHT) return false;
				if (after < ZERO_WEIGHT) after = 0;
				if (before !== 0 && after === 0) zeroed++;
				else if (before === 0 && after !== 0) zeroed--;
				weights[e] = after;
				return true;
			}
		}
		// Removals come first, so a missing entry may only be added.
		if (delta < 0) return false;
		let pending = inserts.get(row);
		if (pending === undefined) {
			pending = new Map();
			inserts.set(row, pending);
		}
		pending.set(target, (pending.get(target) ?? 0) + delta);
		return true;
	};
	for (const [parts, sign] of [
		[removed, -1],
		[added, 1],
	] as const) {
		for (const part of parts) {
			for (let i = 0; i < part.a.length; i++) {
				if (!carriesHeat(part.r[i] as number)) continue;
				const x = part.a[i] as number;
				const y = part.b[i] as number;
				const weight = sign * (part.w[i] as number);
				if (!apply(x, y, weight) || !apply(y, x, weight)) return undefined;
			}
		}
	}
	if (inserts.size === 0 && size === rows.size) return { rows, touched: [...touched], zeroed };
	let extra = 0;
	for (const pending of inserts.values()) extra += pending.size;
	const before = targets.length;
	const total = before + extra;
	// Rows live in buffers with room to spare (an assembly leaves the merged duplicates' room; a growth leaves a
	// tenth more), so inserting shifts entries within them instead of allocating a copy of every row, which V8 gives
	// back only much later.
	const room = (length: number) => Math.ceil(length * 1.1) + 1024;
	const allTargets = withCapacity(targets, total, room(total));
	const allWeights = withCapacity(weights, total, room(total));
	const allOffsets = withCapacity(offsets, size + 1, room(size + 1));
	const rowsWithInserts = [...inserts.keys()].sort((x, y) => x - y);
	// From the last row with inserts back to the first: move the entries after its end right by the inserts at or
	// before it, then write its inserts just before them. Offsets are still the old ones while this runs.
	let shift = extra;
	let end = before;
	for (let r = rowsWithInserts.length - 1; r >= 0; r--) {
		const row = rowsWithInserts[r] as number;
		const pending = inserts.get(row) as Map<number, number>;
		const rowEnd = row < rows.size ? (allOffsets[row + 1] as number) : before;
		if (end > rowEnd) {
			allTargets.copyWithin(rowEnd + shift, rowEnd, end);
			allWeights.copyWithin(rowEnd + shift, rowEnd, end);
		}
		shift -= pending.size;
		let at = rowEnd + shift;
		for (const [target, weight] of pending) {
			allTargets[at] = target;
			allWeights[at++] = weight;
		}
		end = rowEnd;
	}
	// Offsets: each row starts where it did, plus the inserts into the rows before it; new rows start at the end.
	let inserted = 0;
	let next = 0;
	for (let row = 0; row <= size; row++) {
		const start = row < rows.size ? (allOffsets[row] as number) : before;
		allOffsets[row] = start + inserted;
		if (rowsWithInserts[next] === row) inserted += (inserts.get(row) as Map<number, number>).size;
		while ((rowsWithInserts[next] ?? Number.POSITIVE_INFINITY) <= row) next++;
	}
	return {
		rows: {
			size,
			offsets: allOffsets.subarray(0, size + 1),
			targets: allTargets.subarray(0, total),
			weights: allWeights.subarray(0, total),
		},
		touched: [...touched],
		zeroed,
	};
}
