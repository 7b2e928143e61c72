/**
 * Clone search beyond the changed files' neighbours: with a code map, files anywhere in the project that hold a
 * callable of a similar span calling the same names are measured too (a bounded number), so a function body copied
 * into a distant directory is found; their measures are cached like every other. The ranking itself is checked on
 * plain facts.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { callSitesOf, type FileFacts, ResidentMaps } from "pi-fovea/engine";
import { MAX_CLONE_FILES } from "../../src/checkpoint/clone-candidates.ts";
import { ReviewCache } from "../../src/checkpoint/review-cache.ts";
import { reviewRoot } from "../../src/checkpoint/review-root.ts";
import { similarCallableFiles } from "../../src/checkpoint/similar-callables.ts";
import { renderReport } from "../../src/report/render-report.ts";
import { MAX_CLONE_COMPARISONS } from "../../src/review/clones.ts";
import { cleanup, git, repo, write } from "../git/support.ts";
import { encoder } from "./fixtures.ts";

after(cleanup);

const SIBLINGS = MAX_CLONE_FILES + 6;

/** A function of about the encoder's length but of another shape: no clone of it. */
function sibling(i: number): string {
	return `export function f${i}(input: string, limit: number): number {
	let total = 0;
	const parts = input.split(",");
	while (total < limit && parts.length > 0) {
		const part = parts.pop() ?? "";
		total += part.length * ${i};
		if (total > limit * 2) break;
	}
	switch (parts.length) {
		case 0:
			return total;
		default:
			return -total;
	}
}
`;
}

/**
 * The original deep under lib/, two decoys of its length that call other names, many siblings of the changed file
 * (functions of that length too when `longSiblings`, else one-liners) and a few small files.
 */
function project(longSiblings = true): string {
	const files: Record<string, string> = {
		"lib/deep/abi/encode.ts": encoder("encodeTopics"),
		"lib/other/decoy1.ts": encoder("decodeOne", ["alpha", "beta", "gamma", "delta", "epsilon"]),
		"lib/other/decoy2.ts": encoder("decodeTwo", ["zeta", "eta", "theta", "iota", "kappa"]),
		"app/feature/target.ts": "export function target(x: number): number {\n\treturn x + 1;\n}\n",
	};
	for (let i = 0; i < SIBLINGS; i++) {
		files[`app/feature/f${String(i).padStart(2, "0")}.ts`] = longSiblings
			? sibling(i)
			: `export function f${i}(x: number): number {\n\treturn x * ${i};\n}\n`;
	}
	for (let i = 0; i < 10; i++) files[`tools/t${i}.ts`] = `export const t${i} = ${i};\n`;
	return repo(files, { commit: true });
}

function stageCopy(dir: string, copy = encoder("encodeTopicsCopy")): void {
	write(dir, { "app/feature/target.ts": `export function target(x: number): number {\n\treturn x + 1;\n}\n\n${copy}` });
	git(dir, "add", "-A");
}

describe("clone search across the project", () => {
	it("a change of many look-alike functions is searched up to the review's bound, and the report says so", async () => {
		// 1,200 callables of one shape: every one compared with every other would be 1.4 million comparisons (three
		// generated files of 5,500 took a review over 90 s).
		const count = 1200;
		const many = Array.from(
			{ length: count },
			(_, i) =>
				`export function f${i}(a: number, b: number): number { let s = a + ${i}; if (s > b) { s = s * 2 + b; } else { s = s - b * 3; } for (let k = 0; k < a; k++) { s += k; } return s; }`,
		).join("\n");
		const dir = repo({ "gen/keep.ts": "export const keep = 1;\n" }, { commit: true });
		write(dir, { "gen/many.ts": many });
		git(dir, "add", "-A");
		const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" } });
		assert.equal(report.work.cloneComparisons, MAX_CLONE_COMPARISONS, "the bound is reached, never passed");
		assert.deepEqual(
			report.gaps.map((gap) => [gap.path, gap.side, gap.reason]),
			[["gen/many.ts", "after", "clone-search"]],
		);
		assert.match(report.gaps[0]?.detail ?? "", new RegExp(`for ${count} of ${count} new or changed callables`));
		assert.equal(report.files[0]?.gap, undefined, "the file itself was analysed");
		assert.match(
			renderReport(report, { maxTokens: 300 }),
			/^not covered: 1 gap in 1 file — clone-search: gen\/many\.ts$/m,
		);
		// The look-alikes are one clone group: one finding, not one per callable.
		assert.equal(report.findings.filter((f) => f.kind === "exact-clone").length, 1);
	});

	it("a function body copied into a distant directory is found through the code map's facts", async () => {
		const dir = project();
		stageCopy(dir);
		const cache = new ReviewCache();
		const maps = new ResidentMaps(2, { cache: false });
		const report = await reviewRoot({ root: dir, cache, origin: { kind: "cli" }, maps });
		const clone = report.findings.find((f) => f.kind === "exact-clone");
		assert.ok(clone, JSON.stringify(report.findings.map((f) => f.title)));
		assert.equal(clone.file, "app/feature/target.ts");
		assert.match(clone.title, /`encodeTopicsCopy` duplicates `encodeTopics` \(lib\/deep\/abi\/encode\.ts:1\)/);
		// The map was cold: every candidate was measured inside the map's own parse of it (`candidate-measures.ts`),
		// every sibling with a callable of that span (clone search compares the nearest of them) and the one file
		// elsewhere calling the same names (not the decoys). Clone search itself parsed nothing.
		assert.equal(report.work.cloneFilesMeasured, SIBLINGS + 1);
		assert.equal(report.work.parses, 2, "the changed file's two sides only");
		assert.equal(report.work.worktreeFilesRead, 0);
		assert.deepEqual(report.notes, [
			`clone search compared ${MAX_CLONE_FILES} nearby files and 1 elsewhere calling the same names over a similar span; 18 more were not searched`,
		]);

		write(dir, { "app/feature/target.ts": `${encoder("encodeTopicsCopy")}// moved to the top\n` });
		git(dir, "add", "-A");
		const statsBefore = cache.measures.stats;
		const again = await reviewRoot({ root: dir, cache, origin: { kind: "cli" }, maps });
		const statsAfter = cache.measures.stats;
		assert.equal(again.work.cloneFilesMeasured, 0, "every candidate's measure comes from the cache");
		assert.deepEqual(
			[statsAfter.hits - statsBefore.hits, statsAfter.misses - statsBefore.misses],
			[MAX_CLONE_FILES + 1 + 2, 4],
			"each candidate's measure looked up once (a hit), the unchanged side's measure and imports (hits), the new side's looked up before its read and again before its parse (misses)",
		);
		assert.ok(again.findings.some((f) => f.kind === "exact-clone"));
	});

	it("neighbours whose callables are all far shorter are not measured; small changed callables measure nothing", async () => {
		const dir = project(false);
		stageCopy(dir);
		const maps = new ResidentMaps(2, { cache: false });
		const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" }, maps });
		assert.ok(report.findings.some((f) => f.kind === "exact-clone"));
		assert.equal(report.work.cloneFilesMeasured, 1, "only the original: the one-line siblings cannot hold a copy");
		assert.deepEqual(report.notes, [
			`clone search compared 0 nearby files (${SIBLINGS} more ruled out by their callables' spans) and 1 elsewhere calling the same names over a similar span; 12 more were not searched`,
		]);

		const small = project();
		stageCopy(small, "export function tiny(x: number): number {\n\treturn x - 1;\n}\n");
		const quiet = await reviewRoot({ root: small, cache: new ReviewCache(), origin: { kind: "cli" }, maps });
		assert.equal(quiet.work.cloneFilesMeasured, 0, "no callable of the change is large enough to have clones");
		assert.deepEqual(quiet.notes, []);
	});

	it("without a code map only the neighbours are searched, and the report says how many were left", async () => {
		const dir = project();
		stageCopy(dir);
		const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" } });
		assert.equal(
			report.findings.find((f) => f.kind === "exact-clone"),
			undefined,
		);
		assert.equal(report.work.cloneFilesMeasured, MAX_CLONE_FILES);
		assert.match(
			report.notes.join("\n"),
			new RegExp(`compared ${MAX_CLONE_FILES} nearby files; 6 more were not searched`),
		);
	});
});

describe("similar callables from facts", () => {
	/** Facts of a file with callables at [line, endLine] calling `calls` inside them. */
	function facts(path: string, callables: [number, number, string[]][]): FileFacts {
		return {
			path,
			language: "typescript",
			hash: path,
			bytes: 0,
			lines: 100,
			symbols: callables.map(([line, endLine], i) => ({
				name: `f${i}`,
				kind: "function",
				line,
				endLine,
				signature: "",
			})),
			imports: [],
			calls: callSitesOf(
				callables.flatMap(([line, , calls]) => calls.map((callee, k) => ({ callee, line: line + 1 + k }))),
			),
			inherits: [],
			parseErrors: 0,
		};
	}

	const files = new Map<string, FileFacts>([
		["changed.ts", facts("changed.ts", [[10, 30, ["a", "b", "c"]]])],
		["changed2.ts", facts("changed2.ts", [[1, 21, ["x", "y"]]])],
		["same-calls.ts", facts("same-calls.ts", [[1, 21, ["a", "b", "c"]]])],
		["other-calls.ts", facts("other-calls.ts", [[1, 21, ["x", "y"]]])],
		["longer.ts", facts("longer.ts", [[1, 41, ["a", "b", "c"]]])],
		["short.ts", facts("short.ts", [[1, 6, ["p"]]])],
		["near-length.ts", facts("near-length.ts", [[1, 18, ["a", "b"]]])],
		["few-calls.ts", facts("few-calls.ts", [[1, 21, ["a"]]])],
	]);
	const target = { file: "changed.ts", callable: { line: 10, endLine: 30, tokens: 80 } };
	const others = (path: string) => !path.startsWith("changed");

	it("ranks files by shared called names, then by closeness of span; far spans and other calls are no candidates", () => {
		assert.deepEqual(similarCallableFiles([target], files, others), ["same-calls.ts", "near-length.ts"]);
	});

	it("a callable that calls fewer than two names chooses no distant file, however alike the spans", () => {
		const single = { file: "changed3.ts", callable: { line: 1, endLine: 21, tokens: 60 } };
		const withSingle = new Map([...files, ["changed3.ts", facts("changed3.ts", [[1, 21, ["a"]]])]]);
		assert.deepEqual(similarCallableFiles([single], withSingle, others), []);
	});

	it("files rank by their best score for any target, the limit holds, and small callables choose nothing", () => {
		const second = { file: "changed2.ts", callable: { line: 1, endLine: 21, tokens: 60 } };
		assert.deepEqual(similarCallableFiles([target, second], files, others, 2), ["same-calls.ts", "other-calls.ts"]);
		assert.deepEqual(similarCallableFiles([target, second], files, others), [
			"same-calls.ts",
			"other-calls.ts",
			"near-length.ts",
		]);
		assert.deepEqual(
			similarCallableFiles([{ ...target, callable: { ...target.callable, tokens: 10 } }], files, others),
			[],
		);
	});
});
