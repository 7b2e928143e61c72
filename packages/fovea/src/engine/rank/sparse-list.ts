/**
 * Sparse vectors as the bounded heat keeps them: a dense vector over the graph's nodes with a list of the ids where it
 * may be nonzero, so clearing, trimming and listing cost what is listed, not the graph's size. The reach a region
 * grows by is a `Float32Array`: it only orders nodes to pick the strongest (no heat is computed from it), and at
 * 4 bytes a node instead of 8 it holds ~4 MB less at 100,000 files (~1M nodes), as do the magnitudes of its cut.
 */
import { withHeadroom } from "./heat.ts";

/** How many entries of `values` are not zero. */
export function countNonzero(values: Float64Array): number {
	let count = 0;
	for (let i = 0; i < values.length; i++) if ((values[i] as number) !== 0) count++;
	return count;
}

/**
 * Lists the nonzero seeds in `ids` and their magnitudes in `reach`; returns how many, or -1 when `ids` has no room for
 * them all (the magnitudes written are set again by a second call).
 */
export function listSeeds(seeds: Float64Array, n: number, reach: Float32Array, ids: Int32Array): number {
	let length = 0;
	const room = ids.length;
	for (let i = 0; i < n; i++) {
		const x = seeds[i] as number;
		if (x === 0) continue;
		if (length === room) return -1;
		reach[i] = Math.abs(x);
		ids[length++] = i;
	}
	return length;
}

/**
 * `listSeeds` from the list of the nonzero seeds (`seeded`, ascending): the same list and magnitudes, without reading
 * every node. `ids` must have room for them all.
 */
export function listSeedsAt(seeds: Float64Array, seeded: Int32Array, reach: Float32Array, ids: Int32Array): number {
	for (let k = 0; k < seeded.length; k++) {
		const i = seeded[k] as number;
		reach[i] = Math.abs(seeds[i] as number);
		ids[k] = i;
	}
	return seeded.length;
}

/** A list with room for `length` ids (and headroom), holding the first `kept` of `list`. */
export function grownList(list: Int32Array, length: number, kept: number): Int32Array<ArrayBuffer> {
	const grown = new Int32Array(withHeadroom(length));
	grown.set(list.subarray(0, kept));
	return grown;
}

/** The nodes among the first `length` of `ids` without edges (a scale of 0: `heat.ts`). */
export function isolatedAmong(scale: Float64Array, ids: Int32Array, length: number): number[] {
	const isolated: number[] = [];
	for (let k = 0; k < length; k++) if ((scale[ids[k] as number] as number) === 0) isolated.push(ids[k] as number);
	return isolated;
}

/** Sets `vector` back to zero at the first `length` of `ids`. */
export function clearAt(vector: Float32Array, ids: Int32Array, length: number): void {
	for (let k = 0; k < length; k++) vector[ids[k] as number] = 0;
}

/**
 * Keeps the `budget` entries of `vector` (listed by the first `length` of `ids`) largest in magnitude, and drops
 * zeros; the rest are set to zero and unlisted. Ties at the cut keep the lower ids, so the choice does not depend on
 * the order of the list. `ties` is room for as many ids. Returns how many stay listed.
 */
export function keepLargest(
	vector: Float32Array,
	ids: Int32Array,
	length: number,
	budget: number,
	ties: Int32Array,
): number {
	const kept = dropZeros(vector, ids, length);
	if (kept <= budget) return kept;
	// The ties' room holds the magnitudes first: a float view of as many bytes holds as many entries.
	const magnitudes = kept <= ties.length ? new Float32Array(ties.buffer, ties.byteOffset, kept) : undefined;
	const cut = nthLargest(magnitudesOf(vector, ids, kept, magnitudes), budget);
	const split = new Int32Array(2);
	splitAtCut(vector, ids, kept, cut, ties, split);
	const above = split[0] as number;
	const tied = ties.subarray(0, split[1] as number);
	if (!ascending(tied)) tied.sort();
	const keep = Math.min(tied.length, budget - above);
	ids.set(tied.subarray(0, keep), above);
	clearAt(vector, tied.subarray(keep), tied.length - keep);
	return above + keep;
}

/** Whether `ids` are in ascending order (the seeds' ties are: they are listed by id). */
function ascending(ids: Int32Array): boolean {
	for (let k = 1; k < ids.length; k++) if ((ids[k - 1] as number) > (ids[k] as number)) return false;
	return true;
}

/** Unlists the zero entries of the first `length` of `ids`; returns how many stay. */
function dropZeros(vector: Float32Array, ids: Int32Array, length: number): number {
	let kept = 0;
	for (let k = 0; k < length; k++) {
		const i = ids[k] as number;
		if ((vector[i] as number) !== 0) ids[kept++] = i;
	}
	return kept;
}

/** The magnitudes of `vector` at the first `length` of `ids`, in `out` when given. */
function magnitudesOf(vector: Float32Array, ids: Int32Array, length: number, out?: Float32Array): Float32Array {
	const magnitudes = out ?? new Float32Array(length);
	for (let k = 0; k < length; k++) magnitudes[k] = Math.abs(vector[ids[k] as number] as number);
	return magnitudes;
}

/**
 * Lists first the entries above `cut` in magnitude (in their order) and those at it in `ties` (`split` gets both
 * counts); zeroes the entries below.
 */
function splitAtCut(
	vector: Float32Array,
	ids: Int32Array,
	length: number,
	cut: number,
	ties: Int32Array,
	split: Int32Array,
): void {
	let above = 0;
	let tied = 0;
	for (let k = 0; k < length; k++) {
		const i = ids[k] as number;
		const m = Math.abs(vector[i] as number);
		if (m > cut) ids[above++] = i;
		else if (m === cut) ties[tied++] = i;
		else vector[i] = 0;
	}
	split[0] = above;
	split[1] = tied;
}

/** The `k`-th largest of `values` (1-based; reorders them), by quickselect. */
function nthLargest(values: Float32Array, k: number): number {
	let lo = 0;
	let hi = values.length - 1;
	const want = k - 1;
	while (lo < hi) {
		const pivot = values[(lo + hi) >> 1] as number;
		let i = lo;
		let j = hi;
		while (i <= j) {
			while ((values[i] as number) > pivot) i++;
			while ((values[j] as number) < pivot) j--;
			if (i <= j) {
				const v = values[i] as number;
				values[i] = values[j] as number;
				values[j] = v;
				i++;
				j--;
			}
		}
		if (want <= j) hi = j;
		else if (want >= i) lo = i;
		else break;
	}
	return values[want] as number;
}
