/**
 * Finding order: policy violations first, then by kind, then by modelled exposure (filled in by the integrator),
 * then by place. Issue: "the modelled exposure of the changed code … clearly labelled as exposure, not severity";
 * DESIGN: "every ranked item or finding names its file and line, in rank order".
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Finding, type FindingKind, rankFindings } from "../../src/review/findings.ts";

function finding(kind: FindingKind, file: string, line: number, extra: Partial<Finding> = {}): Finding {
	return {
		kind,
		file,
		line,
		title: kind,
		after: { file, line, value: 1 },
		witnesses: [{ file, line, side: "after" }],
		question: "?",
		...extra,
	};
}

describe("rankFindings", () => {
	it("puts policy violations first, then kinds in order, wider exposure first, then file and line", () => {
		const ranked = rankFindings([
			finding("boolean-return", "a.ts", 1),
			finding("complexity", "b.ts", 9),
			finding("complexity", "b.ts", 2),
			finding("complexity", "z.ts", 5, { exposure: { reach: 3, files: ["y.ts"] } }),
			finding("region-crossing", "a.ts", 1),
			finding("forbidden-import", "c.ts", 4, { policy: true }),
			finding("import-cycle", "d.ts", 1),
			finding("exact-clone", "a.ts", 3),
		]);
		assert.deepEqual(
			ranked.map((f) => `${f.kind} ${f.file}:${f.line}`),
			[
				"forbidden-import c.ts:4",
				"import-cycle d.ts:1",
				"complexity z.ts:5",
				"complexity b.ts:2",
				"complexity b.ts:9",
				"exact-clone a.ts:3",
				"region-crossing a.ts:1",
				"boolean-return a.ts:1",
			],
		);
	});

	it("does not change its input", () => {
		const input = [finding("boolean-return", "a.ts", 1), finding("import-cycle", "a.ts", 1)];
		rankFindings(input);
		assert.equal(input[0]?.kind, "boolean-return");
	});
});
