/**
 * Reports are immutable and identify their snapshot and origin; the store bounds retention per root and across
 * roots (CONTOUR_MAX_ROOTS), independently of anything else, and retirement keeps stale work from publishing.
 * Issue: "Reports are immutable, identify the snapshot they analysed (root, HEAD, index, worktree digests), label
 * the root and record the agent's origin separately. Report retention is bounded per root and separate from the two
 * hot graph generations … across up to CONTOUR_MAX_ROOTS roots (default 32, 1–32)."
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkOrigin, emptyWork, reissueReport } from "../../src/report/report.ts";
import { ReportStore } from "../../src/report/report-store.ts";
import { makeReport } from "./support.ts";

describe("reports", () => {
	it("are deeply frozen: writing any part throws", () => {
		const report = makeReport("/r");
		assert.throws(() => {
			(report as { root: string }).root = "/elsewhere";
		}, TypeError);
		assert.throws(() => {
			(report.findings as unknown[]).push({});
		}, TypeError);
		assert.throws(() => {
			(report.findings[0] as { line: number }).line = 99;
		}, TypeError);
		assert.throws(() => {
			(report.findings[0]?.witnesses[0] as { line: number }).line = 99;
		}, TypeError);
		assert.throws(() => {
			(report.snapshot as { head: string }).head = "x";
		}, TypeError);
		assert.throws(() => {
			(report.origin as { agent: string }).agent = "someone else";
		}, TypeError);
	});

	it("a reissued report keeps the analysis and records its own origin, time and work", () => {
		const earlier = makeReport("/r");
		const work = { ...emptyWork(), gitProcesses: 7 };
		const again = reissueReport(earlier, { id: "new", origin: { kind: "background" }, createdAt: "later", work });
		assert.equal(again.reusedFrom, earlier.id);
		assert.equal(again.findings, earlier.findings, "the frozen analysis is shared, not copied");
		assert.deepEqual(again.origin, { kind: "background" });
		assert.equal(again.work.gitProcesses, 7);
		assert.ok(Object.isFrozen(again) && Object.isFrozen(again.origin) && Object.isFrozen(again.work));
		const third = reissueReport(again, { id: "third", origin: { kind: "cli" }, createdAt: "later", work });
		assert.equal(third.reusedFrom, earlier.id, "always names the report that did the analysis");
	});

	it("an origin crossing a boundary is validated", () => {
		assert.deepEqual(checkOrigin({ kind: "checkpoint", agent: "a", sessionId: "s" }), {
			kind: "checkpoint",
			agent: "a",
			sessionId: "s",
		});
		assert.throws(() => checkOrigin({ kind: "model" }), /origin kind must be checkpoint, background or cli/);
		assert.throws(() => checkOrigin({ kind: "cli", agent: "" }), /agent must be a non-empty string/);
		assert.throws(() => checkOrigin(null), /must be an object/);
	});
});

describe("report store", () => {
	it("keeps the latest reports per root, one per analysis key, newest first", () => {
		const store = new ReportStore({ perRoot: 3, maxRoots: 4 });
		const reports = Array.from({ length: 5 }, () => makeReport("/a"));
		for (const report of reports) assert.equal(store.add(report), true);
		assert.deepEqual(
			store.list("/a").map((r) => r.id),
			[reports[4], reports[3], reports[2]].map((r) => r?.id),
		);
		assert.equal(store.get(reports[0]?.id as string), undefined, "dropped reports are gone by id too");
		const same = makeReport("/a", { key: reports[3]?.key as string });
		store.add(same);
		assert.deepEqual(
			store.list("/a").map((r) => r.id),
			[same.id, reports[4]?.id, reports[2]?.id],
			"a repeated analysis replaces its earlier report",
		);
		assert.equal(store.find("/a", same.key)?.id, same.id);
	});

	it("latest(root, target) picks the newest report of that target", () => {
		const store = new ReportStore();
		const staged = makeReport("/a", { target: "staged" });
		const worktree = makeReport("/a", { target: "working-tree" });
		store.add(staged);
		store.add(worktree);
		assert.equal(store.latest("/a")?.id, worktree.id);
		assert.equal(store.latest("/a", "staged")?.id, staged.id);
		assert.equal(store.latest("/b"), undefined);
	});

	it("keeps at most maxRoots roots, dropping the least recently reviewed", () => {
		const store = new ReportStore({ maxRoots: 3 });
		for (const root of ["/a", "/b", "/c"]) store.add(makeReport(root));
		store.add(makeReport("/a"));
		store.add(makeReport("/d"));
		assert.deepEqual(store.roots(), ["/d", "/a", "/c"]);
		assert.equal(store.latest("/b"), undefined);
	});

	it("CONTOUR_MAX_ROOTS sets the default bound: 32 by default, clamped to 1–32", () => {
		const withEnv = (value: string | undefined) => {
			const saved = process.env.CONTOUR_MAX_ROOTS;
			if (value === undefined) delete process.env.CONTOUR_MAX_ROOTS;
			else process.env.CONTOUR_MAX_ROOTS = value;
			try {
				return new ReportStore().maxRoots;
			} finally {
				if (saved === undefined) delete process.env.CONTOUR_MAX_ROOTS;
				else process.env.CONTOUR_MAX_ROOTS = saved;
			}
		};
		assert.deepEqual([withEnv(undefined), withEnv("5"), withEnv("0"), withEnv("99"), withEnv("x")], [32, 5, 1, 32, 32]);
		const store = new ReportStore();
		for (let i = 0; i < 40; i++) store.add(makeReport(`/root${i}`));
		assert.equal(store.roots().length, 32);
		assert.equal(store.roots()[0], "/root39");
	});

	it("forgetting a root (retirement) drops its reports and refuses reports of reviews begun before", () => {
		const store = new ReportStore();
		const epoch = store.epoch("/a");
		store.add(makeReport("/a"), epoch);
		assert.equal(store.forget("/a"), true);
		assert.equal(store.latest("/a"), undefined);
		assert.equal(store.add(makeReport("/a"), epoch), false, "a stale review cannot publish");
		assert.equal(store.size, 0);
		assert.equal(store.add(makeReport("/a"), store.epoch("/a")), true, "a review of the new boundary can");
		const before = store.epoch("/b");
		store.clear();
		assert.equal(store.size, 0);
		assert.equal(store.add(makeReport("/b"), before), false);
	});
});
