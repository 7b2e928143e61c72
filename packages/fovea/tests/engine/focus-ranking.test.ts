/**
 * The node-sized steps of a focus query against their plain definitions: `topK` picks what a full sort picks (ties
 * by lower id, only accepted ids, only scores above zero); the seed steps are `seed-vector.test.ts`'s.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { topK, topKAmong } from "../../src/engine/rank/ranking.ts";

/** Scores with zeros and ties (as a sparse heat has), or mostly distinct. */
const scores = fc.oneof(
	fc.array(fc.constantFrom(0, 0, 0.25, 0.5, 0.5, 1, 2, 3.75, 1e-13), { maxLength: 120, size: "max" }),
	fc.array(
		fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
		{ maxLength: 200, size: "max" },
	),
);

/** A selection to make: scores, a limit, where the range starts, and which ids are not accepted. */
const selections = fc.tuple(scores, fc.nat({ max: 60 }), fc.nat({ max: 30 }), fc.nat({ max: 3 }));

/** The vectors and range of a selection. */
function selection([values, limit, from, skipEvery]: [number[], number, number, number]) {
	const score = Float64Array.from(values);
	const seeds = Float64Array.from(values, (_, i) => i / 10);
	const start = Math.min(from, score.length);
	const accept = (id: number) => skipEvery === 0 || id % (skipEvery + 1) !== 0;
	return { score, seeds, start, limit, accept };
}

describe("topK", () => {
	it("picks the best `limit` accepted ids of the range, best first, ties by lower id", () => {
		fc.assert(
			fc.property(selections, (drawn) => {
				const { score, seeds, start, limit, accept } = selection(drawn);
				const expected = Array.from({ length: score.length - start }, (_, k) => start + k)
					.filter((id) => (score[id] as number) > 1e-12 && accept(id))
					.sort((a, b) => (score[b] as number) - (score[a] as number) || a - b)
					.slice(0, limit)
					.map((id) => ({ id, score: score[id] as number, seed: seeds[id] as number }));
				assert.deepEqual(topK(score, start, score.length, limit, seeds, accept), expected);
			}),
			{ numRuns: 500 },
		);
	});
});

describe("topKAmong", () => {
	it("picks what topK picks when the score is zero outside the listed and extra ids, reading only those", () => {
		fc.assert(
			fc.property(selections, fc.array(fc.nat({ max: 199 }), { maxLength: 8 }), (drawn, extraAt) => {
				const { score, seeds, start, limit, accept } = selection(drawn);
				// Listed: the even ids, out of order; the odd ones score zero but for the extra ids, which may repeat
				// listed ones or each other, as the routes a focus promotes do.
				const even = Array.from({ length: Math.ceil(score.length / 2) }, (_, k) => 2 * k);
				const listed = Int32Array.from(even.sort((a, b) => ((a * 7919) % 13) - ((b * 7919) % 13)));
				const extra = extraAt.filter((id) => id < score.length);
				for (let id = 1; id < score.length; id += 2) if (!extra.includes(id)) score[id] = 0;
				const stats = { read: 0 };
				assert.deepEqual(
					topKAmong(score, listed, extra, start, score.length, limit, seeds, accept, stats),
					topK(score, start, score.length, limit, seeds, accept),
				);
				assert.equal(stats.read, limit > 0 ? listed.length + extra.length : 0);
			}),
			{ numRuns: 500 },
		);
	});
});
