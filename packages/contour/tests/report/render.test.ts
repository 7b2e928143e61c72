/**
 * Text and JSON forms of a report. DESIGN: "Output always fits maxTokens, is labelled with its root, and says what
 * it could not cover"; "in JSON every finding names its file (relative to the root) and line, in rank order".
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { estimateTokens } from "pi-fovea/engine";
import { renderReport } from "../../src/report/render-report.ts";
import { reportJson } from "../../src/report/report-json.ts";
import { makeReport } from "./support.ts";

describe("text", () => {
	const big = makeReport("/work/big-project", { findings: 400, gaps: 150 });

	for (const maxTokens of [120, 300, 1000, 4000]) {
		it(`a large report fits ${maxTokens} tokens, keeps its root, origin and coverage, and counts what did not fit`, () => {
			const text = renderReport(big, { maxTokens });
			assert.ok(estimateTokens(text) <= maxTokens, `${estimateTokens(text)} tokens`);
			assert.match(text, /^contour review · root \/work\/big-project · staged \(HEAD→index\) · HEAD 0123456789 main/);
			assert.match(text, /not covered: 150 gaps in 150 files/);
			assert.match(text, /… \d+ more findings(, \d+ more detail lines)? not shown/);
			if (maxTokens >= 300) assert.match(text, /\norigin: checkpoint · agent worker-1 · made /);
		});
	}

	it("writes out control characters a root or path carries instead of printing them", () => {
		const root = "/work/evil\u001b]0;pwned\u0007\nfake: line";
		const text = renderReport(makeReport(root, { findings: 2 }), { maxTokens: 2000 });
		// biome-ignore lint/suspicious/noControlCharactersInRegex: no control character but the line breaks
		assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f]/);
		assert.match(text, /^contour review · root \/work\/evil\\u001b\]0;pwned\\u0007\\u000afake: line · /);
		assert.doesNotMatch(text, /^fake: line/m, "a newline in the root forges no line");
	});

	it("findings appear in rank order with question, witnesses and exposure; maxFindings caps them", () => {
		const report = makeReport("/r", { findings: 3 });
		const text = renderReport(report, { maxTokens: 2000, maxFindings: 2 });
		const ranks = [...text.matchAll(/^(\d+)\. complexity (\S+)/gm)].map((m) => `${m[1]} ${m[2]}`);
		assert.deepEqual(ranks, ["1 src/file0.ts:1", "2 src/file1.ts:2"]);
		assert.match(text, /question: Can `f1`/);
		assert.match(text, /witnesses: before src\/file0\.ts:1 · after src\/file0\.ts:1/);
		assert.match(text, /exposure: reaches no other file/);
		assert.match(text, /exposure: reaches 1 file \(src\/caller0\.ts\)/);
		assert.match(text, /… 1 more finding not shown/);
		assert.match(text, /not covered: nothing \(every changed file analysed\)/);
		assert.doesNotMatch(text, /^imports:/m, "no import line when the report has no import changes");
	});

	it("the imports a change added and removed take one line", () => {
		const text = renderReport(makeReport("/r", { imports: 6 }), { maxTokens: 2000 });
		assert.match(text, /^imports: 6 added \(4 across directories, 2 across regions\), 1 removed$/m);
		const removedOnly = renderReport(makeReport("/r", { imports: 0 }), { maxTokens: 2000 });
		assert.match(removedOnly, /^imports: 0 added, 1 removed$/m);
	});
});

describe("JSON", () => {
	it("ranks findings with file and line first, and counts everything", () => {
		const report = makeReport("/r", { findings: 5, gaps: 2 });
		const json = reportJson(report, { maxFindings: 3 });
		assert.deepEqual(
			json.findings.map((f) => Object.keys(f).slice(0, 3)),
			[
				["file", "line", "rank"],
				["file", "line", "rank"],
				["file", "line", "rank"],
			],
		);
		assert.deepEqual(
			json.findings.map((f) => [f.rank, f.file, f.line]),
			[
				[1, "src/file0.ts", 1],
				[2, "src/file1.ts", 2],
				[3, "src/file2.ts", 3],
			],
		);
		assert.deepEqual(json.summary, { files: 5, findings: 5, deltas: 0, gaps: 2, policyViolations: 0 });
		assert.deepEqual(json.omitted, { findings: 2, files: 0, deltas: 0, gaps: 0, imports: 0 });
		assert.equal(json.imports, undefined, "a report without import changes has none in its JSON");
		assert.equal(json.root, "/r");
		const first = json.findings[0];
		assert.ok(first);
		first.line = 42;
		assert.equal(report.findings[0]?.line, 1, "the JSON is a copy: the report stays as it was");
	});

	it("within maxTokens, details go first and the findings that fit stay in rank order", () => {
		const report = makeReport("/r", { findings: 200, gaps: 50 });
		const json = reportJson(report, { maxTokens: 3000 });
		assert.ok(estimateTokens(JSON.stringify(json, null, 2)) <= 3000);
		assert.equal(json.files.length, 0);
		assert.equal(json.gaps.length, 0);
		assert.ok(json.findings.length > 3 && json.findings.length < 200);
		assert.deepEqual(
			json.findings.map((f) => f.rank),
			json.findings.map((_, i) => i + 1),
		);
		assert.equal(json.omitted.findings, 200 - json.findings.length);
		assert.equal(json.summary.gaps, 50, "the counts still say what exists");
	});

	it("lists every added and removed import with its place and crossings; within maxTokens they go first", () => {
		const report = makeReport("/r", { findings: 5, imports: 300 });
		const json = reportJson(report);
		assert.equal(json.imports?.added.length, 300);
		assert.deepEqual(json.imports?.added[2], {
			file: "src/app.ts",
			line: 3,
			target: "lib/dep2.ts",
			crossesDirectory: true,
			crossesRegion: true,
		});
		assert.deepEqual(
			[json.imports?.addedCount, json.imports?.removedCount, json.imports?.removed[0]?.target],
			[300, 1, "src/gone.ts"],
		);
		const fitted = reportJson(report, { maxTokens: 3000 });
		assert.ok(estimateTokens(JSON.stringify(fitted, null, 2)) <= 3000);
		assert.equal(fitted.findings.length, 5, "findings are kept before import lists");
		assert.deepEqual([fitted.imports?.removed.length, fitted.imports?.addedCount], [0, 300]);
		assert.ok((fitted.imports?.added.length ?? 300) < 300);
		assert.equal(fitted.omitted.imports, 301 - (fitted.imports?.added.length ?? 0));
	});
});
