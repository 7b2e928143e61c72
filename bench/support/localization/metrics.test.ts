// The localization metrics on hand-computed cases (not run by `npm test`, which covers packages/ and test/e2e/):
//   node --test bench/support/localization/*.test.ts
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkTarget, DEPTH, headToHead, scoreCase, summarize } from "./metrics.ts";

test("one gold file: Acc@k, Recall@10 and reciprocal rank follow its rank", () => {
	const s = scoreCase(["a", "b", "c", "gold", "e", "f"], ["gold"]);
	assert.deepEqual([s.acc1, s.acc5, s.recall10, s.rr], [0, 1, 1, 0.25]);
	assert.deepEqual(s.ranks, { gold: 4 });
});

test("several gold files: Acc@k needs all of them within k, MRR counts the best, recall the share within 10", () => {
	const ranking = ["g1", ...Array.from({ length: 10 }, (_, i) => `x${i}`), "g2"];
	const s = scoreCase(ranking, ["g1", "g2", "g3"]);
	assert.deepEqual([s.acc1, s.acc5, s.rr], [0, 0, 1]);
	assert.equal(s.recall10, 1 / 3);
	assert.deepEqual(s.ranks, { g1: 1, g2: 12, g3: null });
	assert.equal(scoreCase(["g2", "g1"], ["g1", "g2"]).acc5, 1);
});

test("a gold file beyond DEPTH counts as not found, for every ranker alike", () => {
	const ranking = [...Array.from({ length: DEPTH }, (_, i) => `x${i}`), "gold"];
	assert.equal(scoreCase(ranking, ["gold"]).rr, 0);
	assert.throws(() => scoreCase(ranking, []), /empty gold/);
});

test("summaries are means; targets compare a ratio; head-to-head counts cases by reciprocal rank", () => {
	const a = scoreCase(["g"], ["g"]);
	const b = scoreCase(["x", "g"], ["g"]);
	const none = scoreCase(["x"], ["g"]);
	assert.deepEqual(summarize([a, b]), { acc1: 0.5, acc5: 1, recall10: 1, rr: 0.75 });
	assert.deepEqual(summarize([]), { acc1: 0, acc5: 0, recall10: 0, rr: 0 });
	assert.equal(checkTarget("rr", 0.55, 0.5, 1.1, "bm25").met, true);
	assert.equal(checkTarget("rr", 0.54, 0.5, 1.1, "bm25").met, false);
	assert.equal(checkTarget("rr", 0.54, 0.5, 1.1, "bm25").ratio, 1.08);
	assert.equal(checkTarget("acc1", 0, 0, 1, "bm25").ratio, null);
	assert.deepEqual(headToHead([a, b, none], [b, b, a]), { foveaBetter: 1, otherBetter: 1, tied: 1 });
});
