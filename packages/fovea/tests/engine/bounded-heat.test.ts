// Heat diffused within a bounded region around the seeds (`rank/bounded-heat.ts`): the dense series exactly while the
// region holds every node the series reaches, and a bounded amount of work (nodes, row entries) once it does not.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { BoundedDiffusion, type BoundedHeat, type BoundedHeatStats } from "../../src/engine/rank/bounded-heat.ts";
import { diffuse, type NormalizedGraph, normalizeGraph } from "../../src/engine/rank/heat.ts";
import { sparse } from "../support/sparse-rows.ts";

/** A random graph of `n` nodes: a spanning tree and as many extra edges, weights 0.5–2. */
function randomGraph(n: number, salt: number): Array<[number, number, number]> {
	const edges: Array<[number, number, number]> = [];
	for (let i = 1; i < n; i++) edges.push([i, (i * 7 + salt) % i, 0.5 + ((i + salt) % 4) / 2]);
	for (let i = 0; i < n; i++) edges.push([i, (i * 13 + salt * 3 + 1) % n, 1]);
	return edges.filter(([a, b]) => a !== b);
}

/** The normalized operator of a chain of `n` nodes, weights 1. */
function chain(n: number): NormalizedGraph {
	const edges: Array<[number, number, number]> = [];
	for (let i = 1; i < n; i++) edges.push([i - 1, i, 1]);
	return normalizeGraph(sparse(n, edges));
}

/** The heats of a bounded diffusion as vectors over all `n` nodes. */
function spread({ heats, touched }: BoundedHeat, n: number): Float64Array[] {
	return heats.map((heat) => {
		const out = new Float64Array(n);
		touched.forEach((id, k) => {
			out[id] = heat[k] as number;
		});
		return out;
	});
}

describe("bounded heat", () => {
	it("property: a region that never reaches the budget gives the dense series, bit for bit, at any timescales", () => {
		const diffusion = new BoundedDiffusion();
		fc.assert(
			fc.property(
				fc.integer({ min: 2, max: 60 }),
				fc.nat(),
				fc.array(fc.double({ min: 0.1, max: 8, noNaN: true }), { minLength: 1, maxLength: 5 }),
				(n, salt, times) => {
					// The seeded component, two isolated nodes, and a chain of 300 unseeded nodes: the graph is larger than
					// the budget (diffused by region), the seeds' reach is not.
					const edges = randomGraph(n, salt);
					for (let i = n + 3; i < n + 302; i++) edges.push([i - 1, i, 1]);
					const graph = normalizeGraph(sparse(n + 302, edges));
					const seeds = new Float64Array(n + 302);
					seeds[salt % n] = 1;
					seeds[(salt * 5) % n] = (seeds[(salt * 5) % n] as number) + 0.5;
					seeds[n + 1] = 0.25;
					const dense = diffuse(graph, seeds, times, 1e-6);
					const stats: BoundedHeatStats = { products: 0 };
					const bounded = spread(diffusion.run(graph, seeds, times, 1e-6, 200, stats), n + 302);
					return (stats.touched ?? 0) < 200 && dense.every((h, s) => h.every((x, i) => x === bounded[s]?.[i]));
				},
			),
		);
	});

	it("diffuses a graph within the budget whole, as the dense series, listing every node", () => {
		const graph = normalizeGraph(sparse(40, randomGraph(40, 3)));
		const seeds = new Float64Array(40);
		seeds[7] = 1;
		const stats: BoundedHeatStats = { products: 0 };
		const bounded = new BoundedDiffusion().run(graph, seeds, [0.5, 2, 6], 1e-3, 40, stats);
		assert.deepEqual([...bounded.touched], [...Array(40).keys()]);
		assert.equal(stats.seedsDiffused, 1);
		const dense = diffuse(graph, seeds, [0.5, 2, 6], 1e-3);
		for (let s = 0; s < 3; s++) assert.deepEqual([...(bounded.heats[s] ?? [])], [...(dense[s] ?? [])]);
	});

	it("bounds the seeds, the nodes with heat and the entries read by the budget, and keeps the strongest seed", () => {
		// A chain of 5,000 nodes with every tenth node seeded, one of them ten times more strongly.
		const n = 5000;
		const graph = chain(n);
		const seeds = new Float64Array(n);
		for (let i = 0; i < n; i += 10) seeds[i] = 1;
		seeds[2500] = 10;
		const stats: BoundedHeatStats = { products: 0 };
		const budget = 200;
		const bounded = new BoundedDiffusion().run(graph, seeds, [0.5, 2, 6], 1e-3, budget, stats);
		const { touched } = bounded;
		assert.equal(stats.seedsDiffused, budget / 2, "half the budget for the seeds");
		assert.equal(stats.touched, budget);
		assert.equal(touched.length, budget);
		assert.equal(stats.products, 8);
		// Each product reads the entries within the region only, two a node at most on a chain; the growth as many.
		assert.ok((stats.edgeVisits ?? 0) <= (stats.products + 1) * 2 * budget, `${stats.edgeVisits} entries read`);
		const inRegion = new Set(touched);
		assert.ok(inRegion.has(2500), "the strongest seed diffuses");
		const h = spread(bounded, n)[0] as Float64Array;
		for (let i = 0; i < n; i++) if (!inRegion.has(i)) assert.equal(h[i], 0, `no heat outside the region (${i})`);
		const hottest = [...touched].sort((a, b) => (h[b] as number) - (h[a] as number))[0];
		assert.equal(hottest, 2500);
	});

	it("leaves nothing behind: a run after another with other seeds gives what a fresh diffusion gives", () => {
		const n = 3000;
		const graph = normalizeGraph(sparse(n, randomGraph(n, 7)));
		const first = new Float64Array(n);
		for (let i = 0; i < n; i += 3) first[i] = 1 + (i % 5);
		const second = new Float64Array(n);
		second[42] = 1;
		second[n - 1] = 2;
		const reused = new BoundedDiffusion();
		reused.run(graph, first, [0.5, 2, 6, 1], 1e-3, 500);
		const again = spread(reused.run(graph, second, [0.5, 2, 6], 1e-3, 500), n);
		const fresh = spread(new BoundedDiffusion().run(graph, second, [0.5, 2, 6], 1e-3, 500), n);
		for (let s = 0; s < 3; s++) assert.deepEqual([...(again[s] ?? [])], [...(fresh[s] ?? [])]);
	});

	it("keeps an isolated seed's own heat even when the budget leaves it out of the region", () => {
		const graph = normalizeGraph(sparse(6, [[0, 1, 1]]));
		const seeds = Float64Array.of(5, 4, 0, 0, 0, 0.5);
		const bounded = new BoundedDiffusion().run(graph, seeds, [2], 1e-6, 2);
		assert.equal(spread(bounded, 6)[0]?.[5], 0.5);
		assert.ok([...bounded.touched].includes(5));
	});

	it("keeps ~9 bytes a node between runs: the lists it grows a region with are sized by what a query lists", () => {
		// A chain of 200,000 nodes, every 100th seeded: marks per node (reach, place) stay, lists follow the seeds.
		const n = 200_000;
		const graph = chain(n);
		const seeds = new Float64Array(n);
		for (let i = 0; i < n; i += 100) seeds[i] = 1 + (i % 3);
		const diffusion = new BoundedDiffusion();
		const stats: BoundedHeatStats = { products: 0 };
		diffusion.run(graph, seeds, [0.5, 2, 6], 1e-3, 1000, stats);
		assert.equal(stats.touched, 1000);
		// Node-sized lists of the region, its candidates and their ties took 12 bytes a node more (35 in all), and a
		// vector of a hop's sums beside the reach 8 more (~22 in all); the reach as 64-bit floats 4 more (~13 in all).
		assert.ok(diffusion.keptBytes < 10 * n, `${diffusion.keptBytes} bytes kept for ${n} nodes`);
	});

	it("lists more seeds and isolated seeds than the budget has room for, as a fresh run over the same seeds does", () => {
		// 3,000 nodes: a chain of 1,000, then 2,000 isolated nodes, every node seeded.
		const n = 3000;
		const edges: Array<[number, number, number]> = [];
		for (let i = 1; i < 1000; i++) edges.push([i - 1, i, 1]);
		const graph = normalizeGraph(sparse(n, edges));
		const seeds = new Float64Array(n).map((_, i) => 1 + (i % 7));
		const few = new Float64Array(n);
		few[3] = 1;
		const reused = new BoundedDiffusion();
		reused.run(graph, few, [2], 1e-3, 100);
		const bounded = reused.run(graph, seeds, [2], 1e-3, 100);
		const touched = new Set(bounded.touched);
		for (let i = 1000; i < n; i++) assert.ok(touched.has(i), `isolated seed ${i} keeps its heat`);
		const heat = spread(bounded, n)[0] as Float64Array;
		for (let i = 1000; i < n; i++) assert.equal(heat[i], seeds[i]);
		const fresh = spread(new BoundedDiffusion().run(graph, seeds, [2], 1e-3, 100), n)[0] as Float64Array;
		assert.deepEqual([...heat], [...fresh]);
	});
});
