/**
 * `analyzeChange` end to end on plain before/after content: moved code is no finding, complexity growth is one with
 * before and after values and lines, needless code is new only if the before side lacks it, bad input is a gap or a
 * clear error, and cached measures replace parsing. Issue: "Before and after values for each", "Moving lines
 * without changing them is not a new finding", "Bad input … give a clear answer or a visible coverage gap".
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { analyzeChange, analyzeMeasured } from "../../src/review/analyze.ts";
import { ensureMeasureLanguages, measureFile } from "../../src/review/measure.ts";

before(() => ensureMeasureLanguages(["a.ts", "a.py"]));

/** A TS function named `name` with `branches` ifs: cyclomatic complexity `branches + 1`. */
function branchy(name: string, branches: number): string {
	const body = Array.from({ length: branches }, (_, i) => `  if (x === ${i}) { y += ${i}; }`).join("\n");
	return `export function ${name}(x: number): number {\n  let y = 0;\n${body}\n  return y;\n}\n`;
}

const HELPER = "export function helper(a: number): number {\n  return a > 1 ? a * 2 : a;\n}\n";

describe("moved code", () => {
	it("reordering functions within a file gives no finding; only the one cut and pasted moved", async () => {
		const beforeText = `${branchy("parse", 12)}\n${HELPER}`;
		const afterText = `${HELPER}\n// moved below\n${branchy("parse", 12)}`;
		const review = await analyzeChange({ files: [{ path: "src/a.ts", before: beforeText, after: afterText }] });
		assert.deepEqual(review.findings, []);
		assert.deepEqual(
			review.deltas.map((d) => [d.status, d.before?.line, d.after?.line]),
			[["moved", 18, 1]],
		);
	});

	it("an insertion above callables shifts their lines but moves none of them", async () => {
		const five = ["a", "b", "c", "d", "e"].map((name) => branchy(name, 2)).join("\n");
		const review = await analyzeChange({
			files: [{ path: "src/a.ts", before: five, after: `${branchy("first", 2)}\n${five}` }],
		});
		assert.deepEqual(
			review.deltas.map((d) => [d.status, d.after?.name]),
			[["added", "first"]],
		);
	});

	it("moving a function to another file unchanged gives no finding", async () => {
		const review = await analyzeChange({
			files: [
				{ path: "src/a.ts", before: `${HELPER}\n${branchy("parse", 12)}`, after: HELPER },
				{ path: "src/parse.ts", after: `import { helper } from "./a.ts";\n\n${branchy("parse", 12)}` },
			],
		});
		assert.deepEqual(review.findings, []);
		assert.deepEqual(review.deltas, [
			{
				status: "moved",
				before: {
					file: "src/a.ts",
					key: "parse",
					name: "parse",
					line: 5,
					endLine: 20,
					sourceLines: 16,
					decisions: 12,
					cyclomatic: 13,
				},
				after: {
					file: "src/parse.ts",
					key: "parse",
					name: "parse",
					line: 3,
					endLine: 18,
					sourceLines: 16,
					decisions: 12,
					cyclomatic: 13,
				},
			},
		]);
	});

	it("moving a function into a class as a method, its body unchanged, gives no finding", async () => {
		const fn = branchy("parse", 12);
		const method = fn.replace("export function parse", "parse").replace(/^/gm, "  ");
		const review = await analyzeChange({
			files: [
				{ path: "src/a.ts", before: `${fn}\nexport class Parser {}\n`, after: `export class Parser {\n${method}}\n` },
			],
		});
		assert.deepEqual(review.findings, [], "the complexity is the function's own, moved");
		assert.deepEqual(
			review.deltas.map((d) => [d.status, d.before?.key, d.after?.key]),
			[["renamed", "parse", "Parser.parse"]],
		);
		// An edited body is still an edit: added and removed, and a finding for the complex new method.
		const edited = method.replace("let y = 0", "let y = 1");
		const changed = await analyzeChange({
			files: [
				{ path: "src/a.ts", before: `${fn}\nexport class Parser {}\n`, after: `export class Parser {\n${edited}}\n` },
			],
		});
		assert.deepEqual(changed.deltas.map((d) => d.status).sort(), ["added", "removed"]);
	});

	it("an arrow function or a Python function turned into a method, its body unchanged, is renamed", async () => {
		const fn = branchy("parse", 12);
		const arrow = fn.replace(
			"export function parse(x: number): number {",
			"export const parse = (x: number): number => {",
		);
		const method = fn.replace("export function parse", "parse").replace(/^/gm, "  ");
		const field = arrow.replace("export const parse =", "parse =").replace(/^/gm, "  ");
		for (const [before, after] of [
			[arrow, `export class Parser {\n${method}}\n`],
			[`export class Parser {\n${field}}\n`, `export class Parser {\n${method}}\n`],
		]) {
			const review = await analyzeChange({ files: [{ path: "src/a.ts", before, after }] });
			assert.deepEqual(review.findings, [], "the complexity is the function's own, moved");
			assert.deepEqual(
				review.deltas.map((d) => d.status),
				// A class field holding an arrow keeps its key as a method: the same callable, edited, equally complex.
				[before === arrow ? "renamed" : "changed"],
			);
		}
		const body = Array.from({ length: 12 }, (_, i) => `    if x == ${i}:\n        y += ${i}`).join("\n");
		const python = `def parse(x):\n    y = 0\n${body}\n    return y\n`;
		const pythonMethod = `class Parser:\n${python.replace("def parse(x)", "def parse(self, x)").replace(/^/gm, "    ")}`;
		const review = await analyzeChange({ files: [{ path: "a.py", before: python, after: pythonMethod }] });
		assert.deepEqual(review.findings, []);
		assert.deepEqual(
			review.deltas.map((d) => [d.status, d.before?.key, d.after?.key]),
			[["renamed", "parse", "Parser.parse"]],
		);
	});

	it("a renamed file keeps its callables matched, in place (the file moved, not they)", async () => {
		const review = await analyzeChange({
			files: [
				{ path: "src/b.ts", previousPath: "src/a.ts", before: branchy("parse", 12), after: branchy("parse", 12) },
			],
		});
		assert.deepEqual(review.findings, []);
		assert.deepEqual(review.files, [
			{
				path: "src/b.ts",
				previousPath: "src/a.ts",
				status: "modified",
				lines: { before: 16, after: 16 },
				sourceLines: { before: 16, after: 16 },
			},
		]);
		assert.deepEqual(
			review.deltas.map((d) => [d.status, d.before?.file, d.after?.file]),
			[],
		);
	});

	it("renaming a function is a delta, not a finding", async () => {
		const review = await analyzeChange({
			files: [{ path: "src/a.ts", before: branchy("parse", 12), after: branchy("parseInput", 12) }],
		});
		assert.deepEqual(review.findings, []);
		assert.deepEqual(
			review.deltas.map((d) => [d.status, d.before?.name, d.after?.name]),
			[["renamed", "parse", "parseInput"]],
		);
	});
});

describe("complexity", () => {
	it("a function whose complexity rises past the threshold is a finding with before and after values and lines", async () => {
		const review = await analyzeChange({
			files: [
				{
					path: "src/a.ts",
					before: `${HELPER}${branchy("parseArgs", 3)}`,
					after: `${HELPER}\n${branchy("parseArgs", 10)}`,
				},
			],
		});
		assert.equal(review.findings.length, 1);
		const [finding] = review.findings;
		assert.ok(finding);
		assert.equal(finding.kind, "complexity");
		assert.equal(finding.file, "src/a.ts");
		assert.equal(finding.line, 5);
		assert.deepEqual(finding.before, { file: "src/a.ts", line: 4, value: 4 });
		assert.deepEqual(finding.after, { file: "src/a.ts", line: 5, value: 11 });
		assert.deepEqual(finding.witnesses, [
			{ file: "src/a.ts", line: 4, side: "before" },
			{ file: "src/a.ts", line: 5, side: "after" },
		]);
		assert.equal(finding.question, "Can `parseArgs` (complexity 4 → 11) be split so each branch is testable alone?");
		assert.equal(finding.exposure, undefined, "exposure is left for the integrator to fill from heat");
	});

	it("a small rise below the thresholds is a delta only; a new complex function is a finding", async () => {
		const review = await analyzeChange({
			files: [
				{ path: "src/a.ts", before: branchy("small", 1), after: branchy("small", 2) },
				{ path: "src/b.ts", after: branchy("fresh", 9) },
			],
		});
		assert.deepEqual(
			review.findings.map((f) => [f.kind, f.file, f.before, f.after.value]),
			[["complexity", "src/b.ts", undefined, 10]],
		);
		assert.deepEqual(
			review.deltas.map((d) => [d.status, d.before?.cyclomatic, d.after?.cyclomatic]),
			[
				["changed", 2, 3],
				["added", undefined, 10],
			],
		);
	});

	it("one more branch in a callable already over the threshold is a delta, two are a finding", async () => {
		const review = await analyzeChange({
			files: [
				{ path: "src/a.ts", before: branchy("one", 20), after: branchy("one", 21) },
				{ path: "src/b.ts", before: branchy("two", 20), after: branchy("two", 22) },
			],
		});
		assert.deepEqual(
			review.findings.map((f) => f.title),
			["`two` cyclomatic complexity 21 → 23"],
		);
		assert.deepEqual(
			review.deltas.map((d) => [d.after?.name, d.before?.cyclomatic, d.after?.cyclomatic]),
			[
				["one", 21, 22],
				["two", 21, 23],
			],
		);
	});

	it("thresholds are options", async () => {
		const review = await analyzeChange({
			files: [{ path: "src/a.ts", before: branchy("small", 1), after: branchy("small", 2) }],
			options: { complexityJump: 1 },
		});
		assert.deepEqual(
			review.findings.map((f) => [f.before?.value, f.after.value]),
			[[2, 3]],
		);
	});
});

describe("needless code in a change", () => {
	const CHECK = "def ready(x):\n    if x.ok:\n        return True\n    else:\n        return False\n";

	it("a new hit is a finding with the file's before and after counts; an old hit that moved is not", async () => {
		const review = await analyzeChange({
			files: [
				{ path: "pkg/a.py", before: `${CHECK}\ndef other():\n    pass\n`, after: `def other():\n    pass\n\n${CHECK}` },
				{ path: "pkg/b.py", before: "X = 1\n", after: `X = 1\n${CHECK.replace("ready", "armed")}` },
			],
		});
		assert.deepEqual(
			review.findings.map((f) => [f.kind, f.file, f.line, f.before?.value, f.after.value]),
			[["boolean-return", "pkg/b.py", 3, 0, 1]],
		);
		assert.deepEqual(
			review.findings[0]?.before,
			{ file: "pkg/b.py", value: 0 },
			"no line to point at on the before side",
		);
		assert.match(review.findings[0]?.question ?? "", /in `armed`/);
	});
});

describe("coverage gaps and input errors", () => {
	it("unsupported, binary and oversized files are gaps with no callable findings", async () => {
		const review = await analyzeChange({
			files: [
				{ path: "docs/readme.md", before: "# a", after: "# b" },
				{ path: "src/logo.ts", after: new Uint8Array([1, 0, 2]) },
				{ path: "src/huge.ts", before: branchy("parse", 1), after: branchy("parse", 30) },
			],
			options: { maxBytes: 600 },
		});
		assert.deepEqual(review.findings, []);
		assert.deepEqual(
			review.gaps.map((g) => [g.path, g.side, g.reason]),
			[
				["docs/readme.md", undefined, "unsupported-language"],
				["src/logo.ts", "after", "binary"],
				["src/huge.ts", "after", "too-large"],
			],
		);
	});

	it("a side with syntax errors is measured best effort and noted as a parse-error gap", async () => {
		const broken = `${branchy("parse", 12)}\nfunction oops( {\n`;
		const review = await analyzeChange({ files: [{ path: "src/a.ts", before: branchy("parse", 2), after: broken }] });
		assert.deepEqual(
			review.gaps.map((g) => [g.path, g.side, g.reason]),
			[["src/a.ts", "after", "parse-error"]],
		);
		assert.ok(review.findings.some((f) => f.kind === "complexity" && f.after.value === 13));
	});

	it("malformed input is a clear error naming the entry", async () => {
		await assert.rejects(analyzeChange({ files: [{ path: "" }] }), /files\[0\]\.path must be a non-empty string/);
		await assert.rejects(analyzeChange({ files: [{ path: "/etc/passwd", after: "" }] }), /root-relative/);
		await assert.rejects(analyzeChange({ files: [{ path: "a.ts" }] }), /neither a before nor an after/);
		await assert.rejects(
			analyzeChange({
				files: [
					{ path: "a.ts", after: "" },
					{ path: "a.ts", after: "" },
				],
			}),
			/appears twice/,
		);
		const stale = { ...measureFile("a.ts", "let a = 1;"), version: 0 } as unknown as ReturnType<typeof measureFile>;
		await assert.rejects(analyzeChange({ files: [{ path: "a.ts", afterMeasure: stale }] }), /not a measure of version/);
	});
});

describe("cached measures", () => {
	it("measures computed during a review are returned, and supplying them skips parsing", async () => {
		const files = [{ path: "src/a.ts", before: branchy("parse", 3), after: branchy("parse", 12) }];
		const first = await analyzeChange({ files });
		assert.deepEqual(
			first.measured.map((m) => [m.path, m.side]),
			[
				["src/a.ts", "before"],
				["src/a.ts", "after"],
			],
		);
		const [beforeMeasure, afterMeasure] = first.measured.map((m) => JSON.parse(JSON.stringify(m.measure)));
		const second = analyzeMeasured({ files: [{ path: "src/a.ts", beforeMeasure, afterMeasure }] });
		assert.deepEqual(second.measured, [], "nothing was parsed");
		assert.deepEqual(second.findings, first.findings);
	});
});
