// Contour's words for the person (issue 33 items 2, 7): a kept report reads as what, when and who asked, with no
// report id or ISO time; `/contour review` becomes a report coloured by its verdict; the footer item says the last
// verdict while its root is enrolled.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Roaming } from "pi-fovea/roaming";
import { reviewReport } from "../src/extension/review-report.ts";
import type { ContourReviews } from "../src/extension/reviews.ts";
import { contourStatusText } from "../src/extension/status-item.ts";
import { newestWords } from "../src/extension/status-text.ts";

const NOW = Date.parse("2026-12-07T10:00:12Z");

describe("contour in words", () => {
	it("a kept report: target, short commit, counts, who asked and how long ago", () => {
		const summary = {
			id: "ec4c3816-58b4-4239-8453-3a8350f07fda",
			createdAt: "2026-12-07T10:00:00.000Z",
			target: "staged" as const,
			head: "8eb83faeccc5f1ae9cdb80f05ebfed9774eedeb5",
			files: 1,
			findings: 2,
			origin: "checkpoint" as const,
		};
		const words = newestWords(summary, NOW);
		assert.equal(words, "staged review of 8eb83fa · 1 file · 2 findings · asked for 12 s ago");
		assert.doesNotMatch(words, /ec4c3816|T10:00/);
		assert.match(
			newestWords({ ...summary, origin: "background", head: null }, NOW),
			/of an unborn HEAD .* in the background 12 s ago$/,
		);
	});

	it("a review as a report: the counts as title, findings as warnings, the commits as a detail", () => {
		const text = [
			"contour review · root /w/shop · staged (HEAD→index) · HEAD d287495ad9 master",
			"origin: checkpoint · made just now",
			"1 changed file · 1 finding · advisory (no policy)",
			"findings (rank order; exposure is modelled reach through the code graph, not severity):",
			"1. exact-clone a.ts:1 — `a` duplicates `b` (a.ts:2)",
			"   question: Should `a` reuse `b`?",
		].join("\n");
		const report = reviewReport(text, "/w/shop", 1);
		assert.equal(report.title, "Contour review of /w/shop: 1 changed file · 1 finding · advisory (no policy)");
		assert.equal(report.verdict, "warning");
		assert.deepEqual(
			report.lines.map((l) => l.tone),
			["text", "muted", "warning", "text"],
		);
		assert.deepEqual(report.more, [{ text: text.split("\n")[0], tone: "muted" }]);
		assert.equal(reviewReport("header\n1 changed file · 0 findings", "/w/shop", 0).verdict, "success");
	});

	it("the footer item: the last verdict while its root is enrolled, else nothing reviewed yet", () => {
		const enrolled = new Set(["/w/shop"]);
		const roaming = { ring: () => ({ has: (root: string) => enrolled.has(root) }) } as unknown as Roaming;
		const reviews = {} as ContourReviews;
		assert.deepEqual(contourStatusText(roaming, reviews), { text: "contour: no review yet", tone: "dim" });
		reviews.verdict = { root: "/w/shop", findings: 0 };
		assert.deepEqual(contourStatusText(roaming, reviews), { text: "contour: ✓ shop clean", tone: "success" });
		reviews.verdict = { root: "/w/shop", findings: 3 };
		assert.deepEqual(contourStatusText(roaming, reviews), { text: "contour: shop 3 findings", tone: "warning" });
		enrolled.clear();
		assert.equal(contourStatusText(roaming, reviews).text, "contour: no review yet", "its root left the ring");
	});
});
