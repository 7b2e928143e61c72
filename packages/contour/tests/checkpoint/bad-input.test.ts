/**
 * Bad input through the pipeline: each gives a clear answer or a visible coverage gap, never a silently clean
 * review. Issue: "binary files, invalid UTF-8, giant files, syntax errors, submodules, a deleted root, a detached
 * HEAD and an empty repository each give a clear answer or a visible coverage gap."
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, describe, it } from "node:test";
import { ReviewCache } from "../../src/checkpoint/review-cache.ts";
import { reviewRoot } from "../../src/checkpoint/review-root.ts";
import { ConflictError } from "../../src/git/index.ts";
import { renderReport } from "../../src/report/render-report.ts";
import { cleanup, commitAll, git, repo, tempDir, write } from "../git/support.ts";
import { LANGUAGES } from "./fixtures.ts";

after(cleanup);

const TS = LANGUAGES.typescript;
const review = (root: string, target: "staged" | "working-tree" = "staged") =>
	reviewRoot({ root, target, cache: new ReviewCache(), origin: { kind: "cli" } });

describe("content the review cannot read as code is a visible gap", () => {
	it("binary, invalid UTF-8, giant and unsupported files are listed as not covered; the rest is still reviewed", async () => {
		const dir = repo({ [TS.path]: TS.simple }, { commit: true });
		write(dir, {
			[TS.path]: TS.branchy,
			"src/blob.ts": Buffer.from([0x65, 0x78, 0x00, 0x01, 0x02]),
			"src/latin1.ts": Buffer.from("export const s = '\xe9t\xe9';\n", "latin1"),
			"src/giant.ts": `export const big = "${"x".repeat(1.1 * 1024 * 1024)}";\n`,
			"assets/logo.svg": "<svg/>\n",
		});
		git(dir, "add", "-A");
		const report = await review(dir);
		assert.deepEqual(
			report.gaps.map((gap) => [gap.path, gap.reason]),
			[
				["assets/logo.svg", "unsupported-language"],
				["src/blob.ts", "binary"],
				["src/giant.ts", "too-large"],
				["src/latin1.ts", "invalid-utf8"],
			],
		);
		assert.deepEqual(
			report.files.map((file) => [file.path, file.gap ?? "covered"]),
			[
				["assets/logo.svg", "unsupported-language"],
				["src/blob.ts", "binary"],
				["src/giant.ts", "too-large"],
				["src/latin1.ts", "invalid-utf8"],
				[TS.path, "covered"],
			],
		);
		assert.equal(report.findings[0]?.file, TS.path, "the readable file is still reviewed");
		assert.equal(report.work.blobsRead, 4, "the giant file is never read; the svg needs no read either");
		const text = renderReport(report, { maxTokens: 600 });
		assert.match(
			text,
			/not covered: 4 gaps in 4 files — unsupported-language: assets\/logo\.svg; binary: src\/blob\.ts; too-large: src\/giant\.ts; invalid-utf8: src\/latin1\.ts/,
		);
	});

	it("a syntax error is measured best effort and noted as a parse-error gap", async () => {
		const dir = repo({ [TS.path]: TS.simple }, { commit: true });
		write(dir, { [TS.path]: `${TS.branchy}\nfunction broken( {\n` });
		git(dir, "add", "-A");
		const report = await review(dir);
		assert.deepEqual(
			report.gaps.map((gap) => [gap.path, gap.side, gap.reason]),
			[[TS.path, "after", "parse-error"]],
		);
		assert.equal(report.findings[0]?.kind, "complexity", "metrics still come through");
		assert.match(renderReport(report, { maxTokens: 600 }), /parse-error: src\/router\.ts/);
	});

	it("a submodule (gitlink) is a gap, not a file to read", async () => {
		const dir = repo({ "a.ts": "export const a = 1;\n" }, { commit: true });
		const head = git(dir, "rev-parse", "HEAD").trim();
		git(dir, "update-index", "--add", "--cacheinfo", `160000,${head},vendor/lib`);
		const report = await review(dir);
		assert.deepEqual(report.gaps, [
			{ path: "vendor/lib", reason: "submodule", detail: "a submodule (gitlink) is not reviewed" },
		]);
		assert.equal(report.work.blobsRead, 0);
	});
});

describe("repository states", () => {
	it("a detached HEAD is reviewed and labelled detached", async () => {
		const dir = repo({ [TS.path]: TS.simple }, { commit: true });
		git(dir, "checkout", "-q", "--detach");
		write(dir, { [TS.path]: TS.branchy });
		git(dir, "add", "-A");
		const report = await review(dir);
		assert.equal(report.snapshot.branch, null);
		assert.equal(report.findings[0]?.kind, "complexity");
		assert.match(renderReport(report, { maxTokens: 400 }), /HEAD [0-9a-f]{10} detached/);
	});

	it("an empty repository: nothing staged is a clean answer; staged files are reviewed against nothing", async () => {
		const dir = repo();
		const empty = await review(dir);
		assert.equal(empty.snapshot.head, null);
		assert.deepEqual([empty.files, empty.findings, empty.gaps], [[], [], []]);
		assert.match(renderReport(empty, { maxTokens: 400 }), /HEAD none \(no commits yet\)[\s\S]*no changes/);
		write(dir, { [TS.path]: TS.branchy });
		git(dir, "add", "-A");
		const first = await review(dir);
		assert.deepEqual(
			first.files.map((f) => [f.path, f.status]),
			[[TS.path, "added"]],
		);
		assert.match(first.findings[0]?.title ?? "", /New `route` has cyclomatic complexity 12/);
		await assert.rejects(
			reviewRoot({ root: dir, target: "branch", base: "main", cache: new ReviewCache(), origin: { kind: "cli" } }),
			/no commits yet: a branch review needs a HEAD commit/,
		);
	});

	it("a deleted root, a directory outside Git, and unresolved conflicts are clear errors", async () => {
		const gone = repo({ "a.ts": "x\n" }, { commit: true });
		rmSync(gone, { recursive: true, force: true });
		await assert.rejects(review(gone), /does not exist \(was the root deleted or moved\?\)/);
		const plain = tempDir("contour-plain-");
		await assert.rejects(review(plain), /is not inside a Git repository/);
		const dir = repo({ "a.ts": "export const a = 1;\n" }, { commit: true });
		git(dir, "checkout", "-q", "-b", "other");
		write(dir, { "a.ts": "export const a = 2;\n" });
		commitAll(dir, "other");
		git(dir, "checkout", "-q", "main");
		write(dir, { "a.ts": "export const a = 3;\n" });
		commitAll(dir, "main");
		try {
			git(dir, "merge", "-q", "other");
		} catch {
			// the conflict is the point
		}
		await assert.rejects(review(dir), (error: Error) => error instanceof ConflictError && /a\.ts/.test(error.message));
	});
});
