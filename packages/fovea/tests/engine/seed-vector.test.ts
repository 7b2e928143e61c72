/**
 * A focus query's seeds (`rank/seed-vector.ts`): each step computes what its plain definition over the whole vector
 * computes, to the bit, while reading only the nodes the query seeded; the next query starts from zero.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { sumOf } from "../../src/engine/rank/ranking.ts";
import { SeedVector } from "../../src/engine/rank/seed-vector.ts";

/** The steps as plain passes over every node (the definitions the seed vector must match). */
const dense = {
	normalize(seeds: Float64Array): number {
		const total = sumOf(seeds);
		if (total === 0) return 0;
		let positive = 0;
		for (let i = 0; i < seeds.length; i++) {
			if ((seeds[i] as number) > 0) positive++;
			seeds[i] = (seeds[i] as number) / total;
		}
		return positive;
	},
	textShare(seeds: Float64Array, text: Float64Array, nameShare: number, total: number): void {
		for (let id = 0; id < text.length; id++)
			seeds[id] = nameShare * (seeds[id] as number) + ((1 - nameShare) * (text[id] as number)) / total;
	},
	scaleFrom(seeds: Float64Array, from: number, factor: number): void {
		for (let i = from; i < seeds.length; i++) seeds[i] = factor * (seeds[i] as number);
	},
	positive: (seeds: Float64Array) => seeds.filter((x) => x > 0).length,
};

describe("SeedVector", () => {
	it("adds mass per listing, normalizes to sum 1 and counts the positive seeds", () => {
		const seeds = new SeedVector();
		const values = seeds.reset(4);
		seeds.add(1, 1);
		seeds.addEach([1, 3, 3], 0.5);
		seeds.addEach([], 7);
		assert.deepEqual([...values], [0, 1.5, 0, 1]);
		assert.equal(seeds.normalize(), 2);
		assert.deepEqual([...values], [0, 0.6, 0, 0.4]);
		assert.deepEqual([...seeds.nonzero()], [1, 3]);
		const empty = new SeedVector();
		empty.reset(3);
		assert.equal(empty.normalize(), 0);
	});

	it("blends the text share into the files' seeds and scales the symbols' seeds", () => {
		const seeds = new SeedVector();
		const values = seeds.reset(4);
		seeds.addEach([0], 0.5);
		seeds.addEach([2, 3], 0.25);
		const text = Float64Array.of(1, 3);
		seeds.addTextShare(text, 0.7, sumOf(text));
		seeds.scaleFrom(text.length, 0.7);
		const expected = [0.7 * 0.5 + 0.3 * 0.25, 0.3 * 0.75, 0.7 * 0.25, 0.7 * 0.25];
		for (const [i, value] of expected.entries()) assert.ok(Math.abs((values[i] as number) - value) < 1e-12);
		assert.equal(seeds.countPositive(), 4);
	});

	it("matches the dense steps to the bit on any seeds, and reads only the seeded nodes, query after query", () => {
		const n = 5000;
		const query = fc.record({
			seeded: fc.array(fc.tuple(fc.nat({ max: n - 1 }), fc.integer({ min: 1, max: 1000 })), { maxLength: 60 }),
			text: fc.array(fc.tuple(fc.nat({ max: 99 }), fc.integer({ min: 0, max: 50 })), { maxLength: 20 }),
			nameShare: fc.constantFrom(0, 0.7),
			namedShare: fc.constantFrom(0.5, 1),
		});
		const seeds = new SeedVector();
		fc.assert(
			fc.property(query, ({ seeded, text: textAt, nameShare, namedShare }) => {
				const values = seeds.reset(n);
				const expected = new Float64Array(n);
				for (const [id, mass] of seeded) {
					seeds.add(id, mass / 7);
					expected[id] = (expected[id] as number) + mass / 7;
				}
				const text = new Float64Array(100);
				for (const [id, score] of textAt) text[id] = score / 3;
				const read = seeds.nodesRead;
				assert.equal(seeds.normalize(), dense.normalize(expected));
				const total = sumOf(text);
				if (total > 0) {
					seeds.addTextShare(text, nameShare, total);
					dense.textShare(expected, text, nameShare, total);
				}
				seeds.scaleFrom(text.length, nameShare);
				dense.scaleFrom(expected, text.length, nameShare);
				seeds.scaleFrom(0, 1 - namedShare);
				dense.scaleFrom(expected, 0, 1 - namedShare);
				assert.equal(seeds.countPositive(), dense.positive(expected));
				assert.deepEqual(values, expected);
				const nonzero = [...seeds.nonzero()];
				assert.deepEqual(
					nonzero,
					[...expected.keys()].filter((i) => expected[i] !== 0),
				);
				// Seeded symbols and files with text, never the 5,000 nodes: six passes over what was marked.
				const marked = new Set([...seeded.map(([id]) => id), ...textAt.map(([id]) => id)]).size;
				assert.ok(seeds.nodesRead - read <= 6 * marked, `${seeds.nodesRead - read} nodes read, ${marked} marked`);
			}),
			{ numRuns: 200 },
		);
	});
});
