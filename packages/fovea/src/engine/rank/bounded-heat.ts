/**
 * Heat diffusion where the heat is: the Chebyshev series of `heat.ts` over a region of the graph around the seeds,
 * so a query's work follows the neighbourhood of its seeds instead of the whole graph. The region starts with the
 * strongest seeds, at most half the `budget` (a query whose words match a tenth of a 100,000-file graph diffuses from
 * those: a common word seeds most of the graph at a weight that carries little information, and the other half is
 * left for the nodes around the seeds, where the heat goes) and grows hop by hop, as far as heat
 * travels in the series' products, taking the nodes the region's heat reaches most strongly first, until it holds
 * `budget` nodes. Heat is not carried outside it (nodes outside stay cold). A region that never reaches the budget
 * holds every node the series can reach, and the result is the dense series' exactly; a graph of no more nodes than
 * the budget is diffused whole, as before.
 *
 * The series runs on the region as a graph of its own (its nodes renumbered, the entries between them, the whole
 * graph's scales), by `heat.ts`'s `diffuse`: its products then read a few hundred thousand entries laid out in a
 * row, where rows picked out of a 100,000-file graph's arrays cost a cache miss each.
 */
import {
	diffuse,
	type HeatStats,
	type NormalizedGraph,
	ScratchVectors,
	scaledBesselSeries,
	withHeadroom,
} from "./heat.ts";
import {
	appendPlaced,
	gathered,
	localRows,
	numberRegion,
	pushReach,
	rowEntries,
	scaleReach,
	unplace,
} from "./heat-region.ts";
import { clearAt, countNonzero, grownList, isolatedAmong, keepLargest, listSeeds, listSeedsAt } from "./sparse-list.ts";
/**
 * Nodes a diffusion's region holds. A product costs the row entries of the region, so a focus costs about
 * `products × budget × mean degree` entry reads whatever the root's size; roots up to ~6,000 files (~65,000 nodes)
 * never reach it.
 */
export const HEAT_BUDGET = 65_536;

/** What a bounded diffusion did, for tests and benchmarks: beside the products, how many nodes and entries it read. */
export interface BoundedHeatStats extends HeatStats {
	/** Seeds the region started from (at most half the budget). */
	seedsDiffused?: number;
	/** Nodes with heat at the end: the region, and isolated seeds outside it. */
	touched?: number;
	/** Row entries the region's growth and the products read. */
	edgeVisits?: number;
}

/** The heat of a bounded diffusion: the nodes it reached and their heat at each timescale, by place in that list. */
export interface BoundedHeat {
	/** The nodes with heat, each once. */
	touched: Int32Array;
	/** One vector per timescale: `heats[s][k]` is the heat of node `touched[k]`. */
	heats: Float64Array[];
}

/**
 * What bounded diffusions over one graph reuse, query after query (queries run synchronously): the marks and lists
 * that grow a region, and the region's own graph and vectors. Nothing the size of the graph is cleared or allocated
 * by a query; what a diffusion marks (places in the region, sums of a hop) it sets back itself.
 *
 * Every loop is a function of its own over typed arrays, with nothing after the loop: V8 compiles a long loop while
 * it runs (on-stack replacement) without feedback for the code after it, and deoptimizes on reaching that code, on
 * every run.
 */
export class BoundedDiffusion {
	#capacity = 0;
	/**
	 * How strongly the region's heat reaches each node while it grows, and a hop's sums before scaling, in one
	 * vector: a hop reads the reach of region nodes and sums at the others, which all hold 0 when it starts (a hop
	 * keeps or zeroes every node it listed), so one vector serves both. 32-bit floats: the reach only picks the
	 * strongest nodes (`sparse-list.ts`), no heat is computed from it.
	 */
	#reach = new Float32Array(0);
	/**
	 * Each region node's place in the region, -1 for the other nodes (a run sets its region's back to -1), so one read
	 * tells whether a node is in the region and where.
	 */
	#localOf = new Int32Array(0);
	/**
	 * The region's nodes (the first `#regionLength`), then the isolated seeds outside it. Sized for the region, not the
	 * graph: it grows only for a query with more isolated seeds than the budget leaves room for.
	 */
	#region = new Int32Array(0);
	#regionLength = 0;
	/**
	 * Nodes a hop reached outside the region, and those of them tied at the budget's cut: sized for what a query lists
	 * (its seeds, a hop's reach), grown when a query lists more, so a 100,000-file graph of ~1M nodes does not hold
	 * two node-sized lists for queries that list a few thousand.
	 */
	#candidates = new Int32Array(0);
	#ties = new Int32Array(0);
	/** The region's graph and vectors, with room for the largest region so far. */
	#local = { offsets: new Int32Array(1), targets: new Int32Array(0), weights: new Float64Array(0) };
	#localScale = new Float64Array(0);
	#localSeeds = new Float64Array(0);
	#scratch = new ScratchVectors(0);
	#heats: Float64Array[] = [];
	/** The ids of every node, in order: what a graph diffused whole lists as touched. */
	#everyNode = new Int32Array(0);

	/**
	 * Heat from `seeds` after each time in `times` (see `heat.ts`'s `diffuse`) within a region of at most `budget`
	 * nodes around the strongest seeds; isolated seeded nodes keep their own seed heat. The heats are valid until
	 * the next run. `seeded`, when given, lists the nodes with a nonzero seed in ascending order (`seed-vector.ts`),
	 * so the seeds are not found by reading every node.
	 */
	run(
		graph: NormalizedGraph,
		seeds: Float64Array,
		times: readonly number[],
		tolerance: number,
		budget = HEAT_BUDGET,
		stats?: BoundedHeatStats,
		seeded?: Int32Array,
	): BoundedHeat {
		const n = graph.size;
		if (seeds.length !== n) throw new RangeError(`diffuse: ${seeds.length} seeds for a graph of ${n} nodes`);
		for (const t of times) if (!(t >= 0 && Number.isFinite(t))) throw new RangeError(`diffuse: invalid time ${t}`);
		if (!(budget >= 1)) throw new RangeError(`diffuse: invalid budget ${budget}`);
		if (n <= budget) return this.#whole(graph, seeds, times, tolerance, stats);
		this.#prepare(n, budget);
		try {
			return this.#diffuse(graph, seeds, times, tolerance, budget, stats, seeded);
		} finally {
			unplace(this.#localOf, this.#region.subarray(0, this.#regionLength));
		}
	}

	/**
	 * A graph within the budget is diffused whole, as `heat.ts` does (a region of it would hold the same nodes and
	 * cost its growth and its copy besides); every node is listed as touched, by id.
	 */
	#whole(
		graph: NormalizedGraph,
		seeds: Float64Array,
		times: readonly number[],
		tolerance: number,
		stats: BoundedHeatStats | undefined,
	): BoundedHeat {
		const n = graph.size;
		if (this.#scratch.size < n) this.#scratch = new ScratchVectors(withHeadroom(n));
		const heats = diffuse(graph, seeds, times, tolerance, stats, this.#scratch);
		if (this.#everyNode.length < n) this.#everyNode = Int32Array.from({ length: withHeadroom(n) }, (_, i) => i);
		if (stats) {
			stats.seedsDiffused = countNonzero(seeds);
			stats.touched = n;
			stats.edgeVisits = (stats.edgeVisits ?? 0) + stats.products * graph.targets.length;
		}
		return { heats, touched: this.#everyNode.subarray(0, n) };
	}

	/** `run` on a graph larger than the budget, once its vectors are ready. */
	#diffuse(
		graph: NormalizedGraph,
		seeds: Float64Array,
		times: readonly number[],
		tolerance: number,
		budget: number,
		stats: BoundedHeatStats | undefined,
		seedIds: Int32Array | undefined,
	): BoundedHeat {
		const terms = Math.max(...times.map((t) => scaledBesselSeries(t, tolerance).length));
		const isolated: number[] = [];
		const seeded = this.#seedRegion(graph, seeds, budget, isolated, seedIds);
		let visits = this.#grow(graph, budget, terms - 1);
		const region = this.#region.subarray(0, this.#regionLength).sort();
		visits += rowEntries(graph.offsets, region, region.length);
		const local = this.#localGraph(graph, region);
		const localSeeds = gathered(seeds, region, this.#room("seeds", region.length));
		if (this.#scratch.size < region.length) this.#scratch = new ScratchVectors(withHeadroom(region.length));
		const heats = diffuse(local, localSeeds, times, tolerance, stats, this.#scratch);
		const touched = this.#withIsolated(isolated, region.length);
		const out = heats.map((heat, s) => this.#heat(s, heat, touched, seeds));
		if (stats) {
			stats.seedsDiffused = seeded;
			stats.touched = touched.length;
			stats.edgeVisits = (stats.edgeVisits ?? 0) + visits + stats.products * local.targets.length;
		}
		return { heats: out, touched };
	}

	/** Bytes of the vectors and lists kept between runs, for tests and benchmarks. */
	get keptBytes(): number {
		const local = this.#local;
		let bytes = local.offsets.byteLength + local.targets.byteLength + local.weights.byteLength;
		for (const array of [this.#reach, this.#localOf, this.#region, this.#candidates, this.#ties])
			bytes += array.byteLength;
		for (const array of [this.#localScale, this.#localSeeds, this.#everyNode, ...this.#heats])
			bytes += array.byteLength;
		return bytes + this.#scratch.bytes;
	}

	/** Marks for a graph of `n` nodes, lists for a region of `budget`, and an empty region. */
	#prepare(n: number, budget: number): void {
		if (n > this.#capacity) {
			const capacity = withHeadroom(n);
			this.#capacity = capacity;
			this.#reach = new Float32Array(capacity);
			this.#localOf = new Int32Array(capacity).fill(-1);
		}
		if (this.#region.length < budget) this.#region = grownList(this.#region, budget, 0);
		this.#listRoom(budget);
		this.#regionLength = 0;
	}

	/** Room for `length` ids in the candidate and tie lists. */
	#listRoom(length: number): void {
		if (this.#candidates.length >= length) return;
		this.#candidates = new Int32Array(withHeadroom(length));
		// `keepLargest` holds the magnitudes there (a 32-bit float each) instead of allocating them.
		this.#ties = new Int32Array(withHeadroom(length));
	}

	/**
	 * Starts the region with the seeds largest in magnitude, at most half the `budget`, their magnitudes in `#reach`
	 * (the reach the region grows by); lists the isolated seeds in `isolated`. Returns how many seeds the region holds.
	 */
	#seedRegion(
		graph: NormalizedGraph,
		seeds: Float64Array,
		budget: number,
		isolated: number[],
		seedIds: Int32Array | undefined,
	): number {
		if (seedIds !== undefined) this.#listRoom(seedIds.length);
		let length =
			seedIds === undefined
				? listSeeds(seeds, graph.size, this.#reach, this.#candidates)
				: listSeedsAt(seeds, seedIds, this.#reach, this.#candidates);
		if (length < 0) {
			// More seeds than the list has room for: room for them all, and list them again.
			this.#listRoom(countNonzero(seeds));
			length = listSeeds(seeds, graph.size, this.#reach, this.#candidates);
		}
		for (const i of isolatedAmong(graph.scale, this.#candidates, length)) isolated.push(i);
		length = keepLargest(this.#reach, this.#candidates, length, Math.ceil(budget / 2), this.#ties);
		this.#regionLength = appendPlaced(this.#candidates, length, this.#region, 0, this.#localOf);
		return length;
	}

	/**
	 * Grows the region hop by hop, at most `hops` (as far as the series carries heat), while it holds fewer than
	 * `budget` nodes: each hop reaches the neighbours of the last hop's nodes, each as strongly as the normalized
	 * operator carries the reach of the nodes it comes from, and takes them all, or the strongest when they would
	 * pass the budget. Returns the row entries read.
	 */
	#grow(graph: NormalizedGraph, budget: number, hops: number): number {
		let from = 0;
		let visits = 0;
		for (let hop = 0; hop < hops && this.#regionLength < budget && from < this.#regionLength; hop++) {
			const frontier = this.#region.subarray(from, this.#regionLength);
			const entries = rowEntries(graph.offsets, frontier, frontier.length);
			visits += entries;
			// A hop lists each node outside the region at most once, and no more than the frontier's row entries.
			this.#listRoom(Math.min(graph.size, entries));
			let length = pushReach(graph, frontier, this.#reach, this.#localOf, this.#candidates);
			scaleReach(graph.scale, this.#reach, this.#candidates, length);
			length = keepLargest(this.#reach, this.#candidates, length, budget - this.#regionLength, this.#ties);
			from = this.#regionLength;
			this.#regionLength = appendPlaced(this.#candidates, length, this.#region, this.#regionLength, this.#localOf);
		}
		clearAt(this.#reach, this.#region, this.#regionLength);
		return visits;
	}

	/**
	 * The region as a graph of its own: its nodes numbered by their place in `region`, the entries between them, and
	 * the whole graph's scales (heat leaving the region is lost, not kept in). Its products read a few hundred
	 * thousand entries in a row instead of rows scattered over the whole graph's arrays.
	 */
	#localGraph(graph: NormalizedGraph, region: Int32Array): NormalizedGraph {
		numberRegion(region, this.#localOf);
		const m = region.length;
		const entries = rowEntries(graph.offsets, region, m);
		const offsets = this.#roomInt("offsets", m + 1);
		const targets = this.#roomInt("targets", entries);
		const weights = this.#room("weights", entries);
		const length = localRows(graph, region, this.#localOf, offsets, targets, weights);
		return {
			size: m,
			offsets: offsets.subarray(0, m + 1),
			targets: targets.subarray(0, length),
			weights: weights.subarray(0, length),
			scale: gathered(graph.scale, region, this.#room("scale", m)),
		};
	}

	/** The region's nodes, then the isolated seeds outside it. */
	#withIsolated(isolated: readonly number[], regionLength: number): Int32Array {
		let length = regionLength;
		if (this.#region.length < regionLength + isolated.length)
			this.#region = grownList(this.#region, regionLength + isolated.length, regionLength);
		for (const i of isolated) if ((this.#localOf[i] as number) < 0) this.#region[length++] = i;
		return this.#region.subarray(0, length);
	}

	/** Timescale `s`'s heat by place in `touched`: the region's `heat`, then the isolated seeds' own. */
	#heat(s: number, heat: Float64Array, touched: Int32Array, seeds: Float64Array): Float64Array {
		let out = this.#heats[s];
		if (out === undefined || out.length < touched.length) {
			out = new Float64Array(withHeadroom(touched.length));
			this.#heats[s] = out;
		}
		out.set(heat);
		for (let k = heat.length; k < touched.length; k++) out[k] = seeds[touched[k] as number] as number;
		return out.subarray(0, touched.length);
	}

	/** A float array of the region named `name`, with room for `length` entries. */
	#room(name: "seeds" | "weights" | "scale", length: number): Float64Array {
		const current = {
			seeds: this.#localSeeds,
			weights: this.#local.weights,
			scale: this.#localScale,
		}[name];
		if (current.length >= length) return current;
		const grown = new Float64Array(withHeadroom(length));
		if (name === "seeds") this.#localSeeds = grown;
		else if (name === "weights") this.#local.weights = grown;
		else this.#localScale = grown;
		return grown;
	}

	/** An int array of the region named `name`, with room for `length` entries. */
	#roomInt(name: "offsets" | "targets", length: number): Int32Array {
		const current = this.#local[name];
		if (current.length >= length) return current;
		const grown = new Int32Array(withHeadroom(length));
		this.#local[name] = grown;
		return grown;
	}
}
