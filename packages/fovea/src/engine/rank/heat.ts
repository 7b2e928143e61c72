/**
 * Heat diffusion over a weighted undirected graph: `h(t) = exp(-t L) s` on the normalized Laplacian
 * `L = I - D^-1/2 A D^-1/2`, for several timescales at once.
 *
 * The spectrum of `L` lies in [0, 2], so `x = λ - 1` lies in [-1, 1] and `exp(-tλ) = e^-t · exp(-t x)` has the
 * Chebyshev expansion `e^-t [I0(t) + 2 Σ_k (-1)^k Ik(t) Tk(x)]` with modified Bessel coefficients. The recurrence
 * vectors `Tk(L - I) s` do not depend on `t`, so one sweep of sparse products serves every timescale: each new
 * vector is added into every timescale's accumulator with that timescale's coefficient.
 */
import { type SparseGraph, withCapacity } from "../graph/index.ts";

/**
 * The normalized operator `D^-1/2 A D^-1/2` of a graph, as its rows and `scale = D^-1/2`: a product scales its input,
 * multiplies by the raw weights and scales the result, so nothing per edge is kept beside the graph, and an edit
 * that changes a few rows updates a few scales (`renormalizeRows`) instead of every normalized weight. The weighted
 * degrees are not kept beside the scales (8 bytes a node, ~8 MB at 100,000 files): what reads one (a hub's damping
 * in the ranking, an isolated node's test) takes it from the scale (`degreeOf`).
 */
export interface NormalizedGraph {
	size: number;
	offsets: Int32Array;
	targets: Int32Array;
	weights: Float64Array;
	/** `1 / sqrt(degree)` of each node (its weighted degree), 0 for an isolated node. */
	scale: Float64Array;
}

/** The weighted degree of a node whose scale is `scale` (0 for an isolated node, whose scale is 0). */
export function degreeOf(scale: number): number {
	return scale === 0 ? 0 : 1 / (scale * scale);
}

/** The scales of `graph`. */
export function normalizeGraph(graph: SparseGraph): NormalizedGraph {
	const { size, offsets, targets, weights } = graph;
	const operator = { size, offsets, targets, weights, scale: new Float64Array(size) };
	for (let i = 0; i < size; i++) setScale(operator, i);
	return operator;
}

/**
 * The operator of `graph`, the patched successor of the graph `previous` was made for, where only `rows` changed
 * (and rows beyond the previous size are new). Reuses `previous`'s arrays when the size is the same, so `previous`
 * must not be used afterwards.
 */
export function renormalizeRows(
	previous: NormalizedGraph,
	graph: SparseGraph,
	rows: readonly number[],
): NormalizedGraph {
	const { size, offsets, targets, weights } = graph;
	const scale = resized(previous.scale, size);
	const operator = { size, offsets, targets, weights, scale };
	for (const row of rows) setScale(operator, row);
	for (let i = previous.size; i < size; i++) setScale(operator, i);
	return operator;
}

/**
 * Room for nodes that later edits append, so a patched graph keeps its per-node arrays: reallocating them (the
 * scales here, the query's scratch vectors and file of each node in `focus.ts`) after every edit that adds a symbol
 * cost as much as the query, and ~1.5 MB of garbage per edit at 10,000 files for one such array alone.
 */
export const withHeadroom = (nodes: number) => Math.ceil(nodes * 1.1) + 64;

/** `array` as `length` elements, in its own buffer while that has room (see {@link withHeadroom}). */
function resized(array: Float64Array, length: number): Float64Array {
	if (length === array.length) return array;
	return withCapacity(array, length, withHeadroom(length)).subarray(0, length);
}

function setScale(operator: NormalizedGraph, i: number): void {
	const { offsets, weights } = operator;
	let d = 0;
	for (let e = offsets[i] as number; e < (offsets[i + 1] as number); e++) d += weights[e] as number;
	operator.scale[i] = d > 0 ? 1 / Math.sqrt(d) : 0;
}

/**
 * Reusable vectors of one graph's size. A query allocates a dozen node-sized vectors; at 100,000 nodes that is ~8 MB
 * of garbage per query, which let memory climb during warm queries. Queries run synchronously, so one set per graph
 * serves them all: `vector(slot)` hands out the same zeroed array for a slot every time. A slot asked for fewer
 * entries (one per file, not per node) gets an array of about that length, with room for files that edits add.
 */
export class ScratchVectors {
	readonly size: number;
	readonly #vectors: Float64Array[] = [];

	constructor(size: number) {
		this.size = size;
	}

	/** Bytes of the vectors handed out so far. */
	get bytes(): number {
		let bytes = 0;
		for (const vector of this.#vectors) bytes += vector?.byteLength ?? 0;
		return bytes;
	}

	/** The vector of `slot` (zeroed unless `clear` is false), valid until the next call for the same slot. */
	vector(slot: number, length = this.size, clear = true): Float64Array {
		let vector = this.#vectors[slot];
		if (vector === undefined || vector.length < length) {
			vector = new Float64Array(length >= this.size ? length : Math.min(this.size, withHeadroom(length)));
			this.#vectors[slot] = vector;
		}
		const view = vector.length === length ? vector : vector.subarray(0, length);
		if (clear) view.fill(0);
		return view;
	}
}

/** How many sparse products a diffusion used, for tests and benchmarks. */
export interface HeatStats {
	products: number;
}

/**
 * Heat from `seeds` after each time in `times` (all ≥ 0). Given `scratch` (it takes slots 0 to 3 + `times.length`), the
 * returned vectors are scratch and stay valid only until the next call with it. Terms are added until every
 * timescale's remaining coefficient mass is below `tolerance` (relative to the seed mass), so cost grows with the
 * largest `t`, not with the number of timescales. Isolated nodes keep their own seed heat (their Laplacian row is
 * zero).
 *
 * Each term is one pass over the rows: the row's product, the recurrence, the next product's scaled input and every
 * timescale's accumulation happen together, since separate passes over node-sized vectors cost as much as the
 * product itself at ~5 entries per row.
 */
export function diffuse(
	graph: NormalizedGraph,
	seeds: Float64Array,
	times: readonly number[],
	tolerance = 1e-6,
	stats?: HeatStats,
	scratch?: ScratchVectors,
): Float64Array[] {
	const n = graph.size;
	if (seeds.length !== n) throw new RangeError(`diffuse: ${seeds.length} seeds for a graph of ${n} nodes`);
	for (const t of times) if (!(t >= 0 && Number.isFinite(t))) throw new RangeError(`diffuse: invalid time ${t}`);
	const coefficients = times.map((t) => scaledBesselSeries(t, tolerance));
	const terms = Math.max(...coefficients.map((c) => c.length));
	// With scratch, slots 0-1 are the recurrence, 2-3 the scaled inputs of the products and 4+ the results: the
	// results are valid until the next diffusion. None needs to start at zero: the first term sets every entry.
	const vector = (slot: number, clear: boolean) => scratch?.vector(slot, n, clear) ?? new Float64Array(n);
	const out = times.map((_, s) => vector(4 + s, false)); // every entry is set by the first term
	// Each term is written over the one before the last (`nextTerm` reads a row of it just before writing that row).
	let previous = vector(0, false);
	let current = vector(1, false);
	let scaledCurrent = vector(2, false);
	let scaledNext = vector(3, false);
	const at = new Float64Array(times.length);
	const coefficientsAt = (k: number) => {
		for (let s = 0; s < times.length; s++) at[s] = coefficients[s]?.[k] ?? 0;
		return at;
	};
	coefficientsAt(0);
	firstTerm(seeds, graph.scale, current, scaledCurrent, out, at);
	for (let k = 1; k < terms; k++) {
		coefficientsAt(k);
		// T1 = (L - I) s; Tk = 2 (L - I) Tk-1 - Tk-2, with (L - I) v = -D^-1/2 A D^-1/2 v.
		nextTerm(graph, { previous, scaledCurrent, scaledNext }, k === 1 ? -1 : -2, k > 1, out, at);
		if (stats) stats.products++;
		[previous, current] = [current, previous];
		[scaledCurrent, scaledNext] = [scaledNext, scaledCurrent];
	}
	keepIsolatedSeeds(graph.scale, seeds, out);
	return out;
}

// The node-sized loops of a diffusion are small functions of their own, so V8 optimizes each whole after a few
// calls; as loops inside `diffuse` they ran on stack replacement and fell back to the interpreter, which boxes
// every number it computes (~1.5 MB of garbage a query at 10,000 files).

/** The series' first term: the seeds themselves, scaled by each timescale's first coefficient `at[s]`. */
function firstTerm(
	seeds: Float64Array,
	scale: Float64Array,
	current: Float64Array,
	scaledCurrent: Float64Array,
	out: readonly Float64Array[],
	at: Float64Array,
): void {
	for (let i = 0; i < seeds.length; i++) {
		const x = seeds[i] as number;
		current[i] = x;
		scaledCurrent[i] = (scale[i] as number) * x;
		for (let s = 0; s < out.length; s++) (out[s] as Float64Array)[i] = (at[s] as number) * x;
	}
}

/**
 * The recurrence vectors one term of the series reads and writes. The new term is written over `previous` (the term
 * before the last): row `i` of it is read only to compute row `i` of the new term, just before that row is written.
 */
interface TermVectors {
	previous: Float64Array;
	scaledCurrent: Float64Array;
	scaledNext: Float64Array;
}

/**
 * One term, in one pass over the rows: the product of the current term, the recurrence over `previous`, the next
 * product's scaled input and every timescale's accumulation with its coefficient `at[s]`. The first three
 * timescales (all a focus uses) accumulate through locals: looked up per row, the results and coefficients cost as
 * much as the product itself at ~5 entries a row. A coefficient of 0 (a series that has ended) writes nothing.
 */
function nextTerm(
	graph: NormalizedGraph,
	{ previous, scaledCurrent, scaledNext }: TermVectors,
	factor: number,
	recurrent: boolean,
	out: readonly Float64Array[],
	at: Float64Array,
): void {
	const { size, offsets, targets, weights, scale } = graph;
	const h0 = out[0] ?? NO_VECTOR;
	const h1 = out[1] ?? NO_VECTOR;
	const h2 = out[2] ?? NO_VECTOR;
	const c0 = at[0] ?? 0;
	const c1 = at[1] ?? 0;
	const c2 = at[2] ?? 0;
	for (let i = 0; i < size; i++) {
		let sum = 0;
		const end = offsets[i + 1] as number;
		for (let e = offsets[i] as number; e < end; e++) {
			sum += (weights[e] as number) * (scaledCurrent[targets[e] as number] as number);
		}
		const si = scale[i] as number;
		let x = factor * si * sum;
		if (recurrent) x -= previous[i] as number;
		previous[i] = x;
		scaledNext[i] = si * x;
		if (c0 !== 0) h0[i] = (h0[i] as number) + c0 * x;
		if (c1 !== 0) h1[i] = (h1[i] as number) + c1 * x;
		if (c2 !== 0) h2[i] = (h2[i] as number) + c2 * x;
		for (let s = 3; s < out.length; s++) {
			const c = at[s] as number;
			if (c !== 0) {
				const h = out[s] as Float64Array;
				h[i] = (h[i] as number) + c * x;
			}
		}
	}
}

/** The stand-in of a timescale a diffusion does not have (its coefficient is 0: never written). */
const NO_VECTOR = new Float64Array(0);

/** An isolated node (no edges, a zero Laplacian row, a scale of 0) keeps its own seed heat at every timescale. */
function keepIsolatedSeeds(scale: Float64Array, seeds: Float64Array, out: readonly Float64Array[]): void {
	for (let i = 0; i < seeds.length; i++) {
		if ((scale[i] as number) === 0) for (const h of out) h[i] = seeds[i] as number;
	}
}

/**
 * Chebyshev coefficients of `exp(-t(x+1))`: `c0 = e^-t I0(t)`, `ck = 2 (-1)^k e^-t Ik(t)`, truncated once the
 * tail is below `tolerance`. Computed with Miller's backward recurrence normalized by `I0 + 2 Σ Ik = e^t`, which
 * stays stable and overflow-free for the scaled values.
 */
export function scaledBesselSeries(t: number, tolerance = 1e-6): Float64Array {
	if (t === 0) return Float64Array.of(1);
	const start = Math.ceil(t + 30 + 10 * Math.sqrt(t));
	const values = new Float64Array(start + 2);
	values[start + 1] = 0;
	values[start] = 1e-300;
	for (let k = start; k >= 1; k--) {
		values[k - 1] = ((2 * k) / t) * (values[k] as number) + (values[k + 1] as number);
		if ((values[k - 1] as number) > 1e250)
			for (let j = k - 1; j <= start; j++) values[j] = (values[j] as number) * 1e-250;
	}
	let norm = values[0] as number;
	for (let k = 1; k <= start; k++) norm += 2 * (values[k] as number);
	const coefficients: number[] = [];
	let tail = 1;
	for (let k = 0; k <= start; k++) {
		const scaled = (values[k] as number) / norm;
		const c = k === 0 ? scaled : 2 * (k % 2 === 0 ? scaled : -scaled);
		coefficients.push(c);
		tail -= Math.abs(c);
		if (k > t && Math.abs(tail) < tolerance) break;
	}
	return Float64Array.from(coefficients);
}
