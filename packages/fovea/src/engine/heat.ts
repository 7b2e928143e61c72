/**
 * Heat diffusion over a weighted undirected graph: `h(t) = exp(-t L) s` on the normalized Laplacian
 * `L = I - D^-1/2 A D^-1/2`, for several timescales at once.
 *
 * The spectrum of `L` lies in [0, 2], so `x = λ - 1` lies in [-1, 1] and `exp(-tλ) = e^-t · exp(-t x)` has the
 * Chebyshev expansion `e^-t [I0(t) + 2 Σ_k (-1)^k Ik(t) Tk(x)]` with modified Bessel coefficients. The recurrence
 * vectors `Tk(L - I) s` do not depend on `t`, so one sweep of sparse products serves every timescale: each new
 * vector is added into every timescale's accumulator with that timescale's coefficient.
 */

/** A symmetric sparse graph in compressed-row form; `weights` are the raw (positive) edge weights. */
export interface SparseGraph {
	size: number;
	offsets: Int32Array;
	targets: Int32Array;
	weights: Float64Array;
}

/** The normalized operator `D^-1/2 A D^-1/2`, precomputed once per graph and reused by every query. */
export interface NormalizedGraph {
	size: number;
	offsets: Int32Array;
	targets: Int32Array;
	normalized: Float64Array;
	degree: Float64Array;
}

/** Precomputes degrees and normalized weights. */
export function normalizeGraph(graph: SparseGraph): NormalizedGraph {
	const { size, offsets, targets, weights } = graph;
	const degree = new Float64Array(size);
	for (let i = 0; i < size; i++) {
		let d = 0;
		for (let e = offsets[i] as number; e < (offsets[i + 1] as number); e++) d += weights[e] as number;
		degree[i] = d;
	}
	const normalized = new Float64Array(targets.length);
	for (let i = 0; i < size; i++) {
		const di = degree[i] as number;
		for (let e = offsets[i] as number; e < (offsets[i + 1] as number); e++) {
			const dj = degree[targets[e] as number] as number;
			normalized[e] = di > 0 && dj > 0 ? (weights[e] as number) / Math.sqrt(di * dj) : 0;
		}
	}
	return { size, offsets, targets, normalized, degree };
}

/**
 * Reusable vectors of one graph's size. A query allocates a dozen node-sized vectors; at 100,000 nodes that is ~8 MB
 * of garbage per query, which let memory climb during warm queries. Queries run synchronously, so one set per graph
 * serves them all: `vector(slot)` hands out the same zeroed array for a slot every time.
 */
export class ScratchVectors {
	readonly size: number;
	readonly #vectors: Float64Array[] = [];

	constructor(size: number) {
		this.size = size;
	}

	/** The zeroed vector of `slot`, valid until the next call for the same slot. */
	vector(slot: number, length = this.size): Float64Array {
		let vector = this.#vectors[slot];
		if (vector === undefined || vector.length < length) {
			vector = new Float64Array(Math.max(length, this.size));
			this.#vectors[slot] = vector;
		}
		const view = vector.length === length ? vector : vector.subarray(0, length);
		view.fill(0);
		return view;
	}
}

/** How many sparse products a diffusion used, for tests and benchmarks. */
export interface HeatStats {
	products: number;
}

/**
 * Heat from `seeds` after each time in `times` (all ≥ 0). Given `scratch` (slots 0 to 2 + times.length), the
 * returned vectors are scratch and stay valid only until the next call with it. Terms are added until every timescale's remaining
 * coefficient mass is below `tolerance` (relative to the seed mass), so cost grows with the largest `t`, not
 * with the number of timescales. Isolated nodes keep their own seed heat (their Laplacian row is zero).
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
	// With scratch, slots 0-2 are the recurrence and 3+ the results: the results are valid until the next diffusion.
	const vector = (slot: number) => scratch?.vector(slot, n) ?? new Float64Array(n);
	const out = times.map((_, s) => vector(3 + s));
	let previous = vector(0);
	previous.set(seeds);
	let current = vector(1);
	let next = vector(2);
	addScaled(out, coefficients, 0, previous);
	if (terms > 1) {
		shiftedProduct(graph, previous, current);
		if (stats) stats.products++;
		addScaled(out, coefficients, 1, current);
	}
	for (let k = 2; k < terms; k++) {
		shiftedProduct(graph, current, next);
		if (stats) stats.products++;
		for (let i = 0; i < n; i++) next[i] = 2 * (next[i] as number) - (previous[i] as number);
		addScaled(out, coefficients, k, next);
		[previous, current, next] = [current, next, previous];
	}
	for (let i = 0; i < n; i++) {
		if ((graph.degree[i] as number) === 0) for (const h of out) h[i] = seeds[i] as number;
	}
	return out;
}

/** `y = (L - I) v = -D^-1/2 A D^-1/2 v`. */
function shiftedProduct(graph: NormalizedGraph, v: Float64Array, y: Float64Array): void {
	const { size, offsets, targets, normalized } = graph;
	for (let i = 0; i < size; i++) {
		let sum = 0;
		for (let e = offsets[i] as number; e < (offsets[i + 1] as number); e++) {
			sum += (normalized[e] as number) * (v[targets[e] as number] as number);
		}
		y[i] = -sum;
	}
}

function addScaled(out: Float64Array[], coefficients: Float64Array[], k: number, v: Float64Array): void {
	for (let s = 0; s < out.length; s++) {
		const c = coefficients[s]?.[k];
		if (c === undefined || c === 0) continue;
		const h = out[s] as Float64Array;
		for (let i = 0; i < h.length; i++) h[i] = (h[i] as number) + c * (v[i] as number);
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
