/**
 * The node-sized steps of a focus query against their plain definitions: `topK` picks what a full sort picks (ties
 * by lower id, only accepted ids, only scores above zero), and the seed steps compute what they say.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
	addMass,
	addTextShare,
	countPositive,
	normalizeSeeds,
	scaleFrom,
	sumOf,
	topK,
} from "../../src/engine/rank/ranking.ts";

/** Scores with zeros and ties (as a sparse heat has), or mostly distinct. */
const scores = fc.oneof(
	fc.array(fc.constantFrom(0, 0, 0.25, 0.5, 0.5, 1, 2, 3.75, 1e-13), { maxLength: 120, size: "max" }),
	fc.array(
		fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
		{ maxLength: 200, size: "max" },
	),
);

describe("topK", () => {
	it("picks the best `limit` accepted ids of the range, best first, ties by lower id", () => {
		fc.assert(
			fc.property(
				scores,
				fc.nat({ max: 60 }),
				fc.nat({ max: 30 }),
				fc.nat({ max: 3 }),
				(values, limit, from, skipEvery) => {
					const score = Float64Array.from(values);
					const seeds = Float64Array.from(values, (_, i) => i / 10);
					const start = Math.min(from, score.length);
					const accept = (id: number) => skipEvery === 0 || id % (skipEvery + 1) !== 0;
					const expected = Array.from({ length: score.length - start }, (_, k) => start + k)
						.filter((id) => (score[id] as number) > 1e-12 && accept(id))
						.sort((a, b) => (score[b] as number) - (score[a] as number) || a - b)
						.slice(0, limit)
						.map((id) => ({ id, score: score[id] as number, seed: seeds[id] as number }));
					assert.deepEqual(topK(score, start, score.length, limit, seeds, accept), expected);
				},
			),
			{ numRuns: 500 },
		);
	});
});

describe("seed steps", () => {
	it("adds a term's mass to each node holding it, once per listing", () => {
		const seeds = Float64Array.of(0, 1, 0, 0);
		addMass(seeds, [1, 3, 3], 0.5);
		addMass(seeds, [], 7);
		assert.deepEqual([...seeds], [0, 1.5, 0, 1]);
	});

	it("normalizes seeds to sum 1 and counts the positive ones", () => {
		const seeds = Float64Array.of(0, 2, 0, 6);
		assert.equal(normalizeSeeds(seeds), 2);
		assert.deepEqual([...seeds], [0, 0.25, 0, 0.75]);
		assert.equal(normalizeSeeds(new Float64Array(3)), 0);
	});

	it("blends the text share into the files' seeds and scales the symbols' seeds", () => {
		const seeds = Float64Array.of(0.5, 0, 0.25, 0.25);
		const text = Float64Array.of(1, 3);
		addTextShare(seeds, text, 0.7, sumOf(text));
		scaleFrom(seeds, text.length, 0.7);
		const expected = [0.7 * 0.5 + 0.3 * 0.25, 0.3 * 0.75, 0.7 * 0.25, 0.7 * 0.25];
		for (const [i, value] of expected.entries()) assert.ok(Math.abs((seeds[i] as number) - value) < 1e-12);
		assert.equal(countPositive(seeds), 4);
		assert.equal(countPositive(Float64Array.of(0, -1, 2)), 1);
	});
});
