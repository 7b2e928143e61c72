/**
 * Beyond the reference: languages other than JS/TS, near clones of code outside the change, and branch-base review,
 * each through the whole pipeline on a real repository.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { ReviewCache } from "../../src/checkpoint/review-cache.ts";
import { reviewRoot } from "../../src/checkpoint/review-root.ts";
import { cleanup, commitAll, git, repo, write } from "../git/support.ts";
import { LANGUAGES, NEAR_TOTAL, TOTAL } from "./fixtures.ts";

after(cleanup);

describe("languages other than JavaScript and TypeScript", () => {
	for (const name of ["python", "go", "rust", "java"] as const) {
		const { path, simple, branchy } = LANGUAGES[name];
		it(`${name}: a function that gains eleven branches is a complexity finding with witnesses on both sides`, async () => {
			const dir = repo({ [path]: simple }, { commit: true });
			write(dir, { [path]: branchy });
			git(dir, "add", "-A");
			const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" } });
			assert.deepEqual(report.gaps, []);
			const [finding] = report.findings;
			assert.equal(finding?.kind, "complexity", JSON.stringify(report.findings));
			assert.equal(finding?.file, path);
			assert.deepEqual([finding?.before?.value, finding?.after.value], [1, 12]);
			assert.deepEqual(
				finding?.witnesses.map((w) => w.side),
				["before", "after"],
			);
			assert.match(finding?.question ?? "", /complexity 1 → 12/);
			assert.equal(report.files[0]?.lines.after, branchy.split("\n").length - 1);
		});
	}
});

describe("near clones", () => {
	it("a new function that nearly copies one in a neighbouring, unchanged file is a near-clone finding", async () => {
		const dir = repo(
			{ "src/orders/total.ts": TOTAL, "src/orders/other.ts": "export const x = 1;\n" },
			{ commit: true },
		);
		write(dir, { "src/orders/sum.ts": NEAR_TOTAL });
		git(dir, "add", "-A");
		const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" } });
		const clone = report.findings.find((f) => f.kind === "near-clone");
		assert.ok(clone, JSON.stringify(report.findings));
		assert.equal(clone.file, "src/orders/sum.ts");
		assert.ok(clone.after.value >= 0.7 && clone.after.value < 1, `similarity ${clone.after.value}`);
		assert.deepEqual(
			clone.witnesses.map((w) => `${w.side} ${w.file}:${w.line}`),
			["after src/orders/sum.ts:1", "after src/orders/total.ts:1"],
		);
		assert.match(clone.question, /totalPrice/);
		assert.equal(report.work.cloneFilesMeasured, 2, "the two siblings were measured for clone search");
	});

	it("an exact copy within the change is reported once, as an exact clone", async () => {
		const dir = repo({ "README.md": "x\n" }, { commit: true });
		write(dir, { "lib/a.ts": TOTAL, "lib/b.ts": TOTAL.replace("totalPrice", "grandTotal") });
		const report = await reviewRoot({
			root: dir,
			target: "working-tree",
			cache: new ReviewCache(),
			origin: { kind: "cli" },
		});
		assert.equal(report.findings.filter((f) => f.kind === "exact-clone").length, 1);
	});
});

describe("branch-base review", () => {
	it("reviews every commit of the branch since the merge base, across languages, and names the base", async () => {
		const py = LANGUAGES.python;
		const go = LANGUAGES.go;
		const dir = repo({ [py.path]: py.simple, [go.path]: go.simple }, { commit: true });
		git(dir, "checkout", "-q", "-b", "topic");
		write(dir, { [py.path]: py.branchy });
		commitAll(dir, "python");
		write(dir, { [go.path]: go.branchy });
		commitAll(dir, "go");
		write(dir, { "notes.txt": "uncommitted work is not part of a branch review\n" });
		const report = await reviewRoot({
			root: dir,
			target: "branch",
			base: "main",
			cache: new ReviewCache(),
			origin: { kind: "cli" },
		});
		assert.equal(report.base?.ref, "main");
		assert.equal(report.base?.mergeBase, git(dir, "rev-parse", "main").trim());
		assert.deepEqual(
			report.findings.map((f) => [f.kind, f.file]),
			[
				["complexity", py.path],
				["complexity", go.path],
			],
		);
		assert.deepEqual(
			report.files.map((f) => f.path),
			[py.path, go.path].sort(),
		);
	});

	it("an unknown base is a clear error", async () => {
		const dir = repo({ "a.ts": "export const a = 1;\n" }, { commit: true });
		await assert.rejects(
			reviewRoot({
				root: dir,
				target: "branch",
				base: "no-such-branch",
				cache: new ReviewCache(),
				origin: { kind: "cli" },
			}),
			/unknown base "no-such-branch"/,
		);
	});
});
