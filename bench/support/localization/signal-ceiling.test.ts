// The hindsight ceiling of impact's fusion (not run by `npm test`): node --test bench/support/localization/*.test.ts
import assert from "node:assert/strict";
import { test } from "node:test";
import type { CaseDetail } from "./corpus-result.ts";
import type { CaseScore } from "./metrics.ts";
import { signalCeiling } from "./signal-ceiling.ts";

const score = (recall10: number, rr: number): CaseScore => ({ acc1: 0, acc5: 0, recall10, rr, ranks: {}, top: [] });

/** An impact case with the fused score and the signals' scores as given. */
function impactCase(fovea: CaseScore, signals?: Record<string, CaseScore>): CaseDetail {
	return { id: "c", query: "q", gold: ["g"], goldDropped: [], scores: { fovea }, ...(signals ? { signals } : {}) };
}

test("the ceiling takes, per case and per metric, the best of the signals and the fused answer", () => {
	const summary = signalCeiling([
		// The fused answer is best on MRR, text on recall.
		impactCase(score(0.5, 1), { reach: score(0.5, 0.5), coupling: score(0, 0), text: score(1, 0.25) }),
		// Coupling is best on both.
		impactCase(score(0, 0.1), { reach: score(0, 0), coupling: score(1, 0.5), text: score(0, 0.2) }),
	]);
	assert.equal(summary.cases, 2);
	assert.deepEqual(summary.ceiling, { recall10: 1, rr: 0.75 });
	assert.deepEqual(summary.signals.text, { recall10: 0.5, rr: 0.225 });
	assert.deepEqual(summary.signals.coupling, { recall10: 0.5, rr: 0.25 });
});

test("cases without signals (other tasks, older runs) are left out, and none gives zeros", () => {
	assert.deepEqual(signalCeiling([impactCase(score(1, 1))]), {
		cases: 0,
		signals: {},
		ceiling: { recall10: 0, rr: 0 },
	});
	assert.deepEqual(signalCeiling([]).ceiling, { recall10: 0, rr: 0 });
});
