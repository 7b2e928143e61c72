// The heat kernel exp(-tL)s on the normalized Laplacian, checked against a dense reference, plus its invariants.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
	degreeOf,
	diffuse,
	normalizeGraph,
	renormalizeRows,
	ScratchVectors,
	scaledBesselSeries,
} from "../../src/engine/rank/heat.ts";
import { sparse } from "../support/sparse-rows.ts";

/** exp(-tL)s by a long Taylor series on the dense normalized Laplacian (isolated nodes: zero row). */
function denseHeat(n: number, edges: Array<[number, number, number]>, seeds: number[], t: number): number[] {
	const a = Array.from({ length: n }, () => new Array<number>(n).fill(0));
	for (const [i, j, w] of edges) {
		(a[i] as number[])[j] = ((a[i] as number[])[j] as number) + w;
		(a[j] as number[])[i] = ((a[j] as number[])[i] as number) + w;
	}
	const d = a.map((row) => row.reduce((s, x) => s + x, 0));
	const l = a.map((row, i) =>
		row.map((x, j) =>
			(d[i] as number) === 0 ? 0 : (i === j ? 1 : 0) - x / Math.sqrt((d[i] as number) * (d[j] as number)),
		),
	);
	let term = [...seeds];
	const sum = [...seeds];
	for (let k = 1; k < 400; k++) {
		term = l.map((row) => row.reduce((s, x, j) => s + x * (term[j] as number), 0)).map((x) => (-t * x) / k);
		for (let i = 0; i < n; i++) sum[i] = (sum[i] as number) + (term[i] as number);
	}
	return sum;
}

describe("heat kernel", () => {
	it("matches a dense reference on a weighted graph at several timescales in one sweep", () => {
		const edges: Array<[number, number, number]> = [
			[0, 1, 1],
			[1, 2, 0.5],
			[2, 3, 2],
			[3, 0, 0.7],
			[3, 4, 1],
		];
		const seeds = [1, 0, 0, 0, 0.5];
		// One timescale, the three a focus uses, and more than three (the first three accumulate apart from the rest).
		for (const times of [[2], [0.3, 1, 4], [0.3, 1, 4, 0.1, 6]]) {
			const heats = diffuse(normalizeGraph(sparse(5, edges)), Float64Array.from(seeds), times, 1e-12);
			assert.equal(heats.length, times.length);
			times.forEach((t, s) => {
				const expected = denseHeat(5, edges, seeds, t);
				for (const [i, h] of (heats[s] ?? []).entries()) {
					assert.ok(Math.abs(h - (expected[i] as number)) < 1e-8, `t=${t} node ${i}: ${h} vs ${expected[i]}`);
				}
			});
		}
	});

	it("keeps isolated nodes' seed heat and t=0 returns the seeds", () => {
		const graph = normalizeGraph(sparse(3, [[0, 1, 1]]));
		const [h0, h2] = diffuse(graph, Float64Array.of(0.2, 0.3, 0.5), [0, 2]);
		assert.deepEqual([...(h0 ?? [])], [0.2, 0.3, 0.5]);
		assert.equal(h2?.[2], 0.5);
	});

	it("shares recurrence vectors across timescales: cost follows the largest t, not the number of t", () => {
		const graph = normalizeGraph(
			sparse(4, [
				[0, 1, 1],
				[1, 2, 1],
				[2, 3, 1],
			]),
		);
		const one = { products: 0 };
		const three = { products: 0 };
		diffuse(graph, Float64Array.of(1, 0, 0, 0), [6], 1e-6, one);
		diffuse(graph, Float64Array.of(1, 0, 0, 0), [0.5, 2, 6], 1e-6, three);
		assert.equal(three.products, one.products);
		assert.ok(one.products > 5);
	});

	it("Chebyshev coefficients carry unit mass", () => {
		for (const t of [0.1, 1, 5, 20]) {
			const c = scaledBesselSeries(t, 1e-12);
			const mass = c.reduce((s, x) => s + Math.abs(x), 0);
			assert.ok(Math.abs(mass - 1) < 1e-9, `t=${t}: ${mass}`);
		}
	});

	it("property: heat is nonnegative and conserves D^1/2-weighted mass on connected random graphs", () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 2, max: 12 }),
				fc.double({ min: 0.1, max: 8, noNaN: true }),
				fc.nat(),
				(n, t, salt) => {
					const edges: Array<[number, number, number]> = [];
					for (let i = 1; i < n; i++) edges.push([i, (i * 7 + salt) % i, 1 + ((i + salt) % 3)]);
					const graph = normalizeGraph(sparse(n, edges));
					const seeds = new Float64Array(n);
					seeds[salt % n] = 1;
					const [h] = diffuse(graph, seeds, [t], 1e-10);
					const sqrtD = [...graph.scale].map((scale) => Math.sqrt(degreeOf(scale)));
					const before = sqrtD[salt % n] as number;
					const after = [...(h ?? [])].reduce((s, x, i) => s + x * (sqrtD[i] as number), 0);
					return [...(h ?? [])].every((x) => x > -1e-9) && Math.abs(after - before) < 1e-6;
				},
			),
		);
	});

	it("hands out scratch vectors zeroed and reused per slot, a short slot in a short array", () => {
		const scratch = new ScratchVectors(1000);
		const full = scratch.vector(0);
		full[3] = 1;
		assert.equal(scratch.vector(0), full);
		assert.equal(full[3], 0);
		const files = scratch.vector(1, 40);
		assert.equal(files.length, 40);
		assert.ok(files.buffer.byteLength < 1000 * Float64Array.BYTES_PER_ELEMENT, "a 40-entry slot is not node-sized");
		files[39] = 2;
		const grown = scratch.vector(1, 41, false);
		assert.equal(grown.buffer, files.buffer, "room for a file more");
		assert.equal(grown[39], 2, "kept when not cleared");
		assert.equal(scratch.vector(1, 2000).length, 2000);
	});

	it("keeps one float a node beside the graph's rows (the scale), and reads each degree back from it", () => {
		const edges: Array<[number, number, number]> = [
			[0, 1, 1],
			[1, 2, 0.5],
			[2, 3, 0.7],
			[1, 3, 0.3],
		];
		const graph = sparse(5, edges);
		const operator = normalizeGraph(graph);
		// What the operator holds beyond the graph's own arrays, per node: 8 bytes (16 while degrees were kept too).
		const own = Object.values(operator).filter(
			(value): value is Float64Array =>
				ArrayBuffer.isView(value) && value !== graph.offsets && value !== graph.targets && value !== graph.weights,
		);
		assert.equal(own.reduce((bytes, array) => bytes + array.byteLength, 0) / graph.size, 8);
		const degrees = [1, 1.8, 1.2, 1, 0];
		degrees.forEach((degree, i) => {
			assert.ok(Math.abs(degreeOf(operator.scale[i] as number) - degree) < 1e-12, `degree of node ${i}`);
		});
	});

	it("renormalizes a graph grown node by node as a fresh normalization does, in arrays grown with room to spare", () => {
		const edges: Array<[number, number, number]> = [
			[0, 1, 1],
			[1, 2, 0.5],
		];
		let operator = normalizeGraph(sparse(3, edges));
		const buffers = new Set<ArrayBufferLike>();
		for (let size = 4; size <= 12; size++) {
			edges.push([size - 1, size - 2, 0.7]);
			const graph = sparse(size, edges);
			operator = renormalizeRows(operator, graph, [size - 2]);
			const fresh = normalizeGraph(graph);
			assert.deepEqual([...operator.scale], [...fresh.scale], `scales at ${size} nodes`);
			buffers.add(operator.scale.buffer);
		}
		assert.equal(buffers.size, 1, "one buffer for nine growths: the first left room for the rest");
	});
});
