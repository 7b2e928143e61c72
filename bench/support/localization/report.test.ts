// Target judgement of the localization report (not run by `npm test`): node --test bench/support/localization/*.test.ts
import assert from "node:assert/strict";
import { test } from "node:test";
import type { CorpusResult, Task } from "./corpus-result.ts";
import type { CaseScore } from "./metrics.ts";
import { summarizeCases } from "./report.ts";

const score = (rr: number, recall10 = 1): CaseScore => ({ acc1: 0, acc5: 0, recall10, rr, ranks: {}, top: [] });

/** One repository's result with a single case scored as given. */
function oneCase(task: Task, scores: Record<string, CaseScore>): CorpusResult {
	const cases = [{ id: "c", query: "q", gold: ["g"], goldDropped: [], scores }];
	return { task, repo: "r", group: "history", cases, skipped: {}, seconds: 0, timingMs: {} };
}

test("a target is judged on exact means, not on the ratio of rounded ones", () => {
	// 0.48634 / 0.44164 = 1.1012 meets 1.10; rounded first, 0.486 / 0.442 = 1.0995 would not.
	const summary = summarizeCases("subjects", "r", [
		oneCase("subjects", { fovea: score(0.48634), bm25: score(0.44164) }),
	]);
	const mrr = summary.targets.find((t) => t.metric === "rr");
	assert.equal(mrr?.met, true);
	assert.deepEqual([mrr?.fovea, mrr?.baseline, mrr?.ratio], [0.486, 0.442, 1.101]);
	assert.deepEqual(summary.rankers.fovea, { acc1: 0, acc5: 0, recall10: 1, rr: 0.486 });
});

test("impact is judged against the best baseline on each metric", () => {
	const scores = { fovea: score(0.5, 0.5), "co-change": score(1, 0.4), "same-folder": score(0.25, 0.6) };
	const targets = summarizeCases("impact", "r", [oneCase("impact", scores)]).targets;
	assert.deepEqual(
		targets.map((t) => [t.metric, t.against, t.met]),
		[
			["recall10", "same-folder", false],
			["rr", "co-change", false],
		],
	);
});
