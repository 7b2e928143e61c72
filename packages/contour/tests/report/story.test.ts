/**
 * The text report tells the structural story first and speaks to people (issue 32): what changed in production code
 * (complexity up and down with both values, callables added, removed and renamed, import cycles made and broken),
 * then findings, then test-only changes; no ids or raw ISO times (the JSON keeps them); the limits named as the CLI's
 * flags or the tool's parameters.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { estimateTokens } from "pi-fovea/engine";
import { renderReport } from "../../src/report/render-report.ts";
import { freezeReport, type ReportDraft } from "../../src/report/report.ts";
import { reportJson } from "../../src/report/report-json.ts";
import type { CallableSide } from "../../src/review/index.ts";
import { makeReport } from "./support.ts";

function side(file: string, name: string, line: number, cyclomatic: number, container?: string): CallableSide {
	return {
		file,
		key: container === undefined ? name : `${container}.${name}`,
		name,
		...(container === undefined ? {} : { container }),
		line,
		endLine: line + 10,
		sourceLines: 10,
		decisions: cyclomatic - 1,
		cyclomatic,
	};
}

/** A router refactor: the main method down 3, a builder down 5, a helper up, a cache helper removed, test cases added. */
function routerReport() {
	const base = makeReport("/r", { findings: 1 });
	const draft = structuredClone(base) as ReportDraft;
	draft.id = "0b9e7a52-6f0c-4d4e-9a43-2b1f7c1e5d11";
	draft.origin = { kind: "checkpoint", sessionId: "5f2d3c1a-8b7e-4c6d-9e0f-1a2b3c4d5e6f" };
	draft.createdAt = "2026-01-02T03:04:05.678Z";
	draft.deltas = [
		{
			status: "changed",
			before: side("src/router.ts", "match", 40, 12, "Router"),
			after: side("src/router.ts", "match", 41, 9, "Router"),
		},
		{ status: "changed", before: side("src/router.ts", "build", 90, 8), after: side("src/router.ts", "build", 80, 3) },
		{ status: "changed", before: side("src/params.ts", "parse", 5, 2), after: side("src/params.ts", "parse", 5, 4) },
		{ status: "removed", before: side("src/router.ts", "cacheKey", 120, 2) },
		{
			status: "renamed",
			before: side("src/router.ts", "add", 20, 3, "Router"),
			after: side("src/router.ts", "addRoute", 20, 3, "Router"),
		},
		{ status: "added", after: side("tests/router.test.ts", "case7", 70, 1) },
	];
	draft.imports = {
		added: [],
		removed: [],
		addedCount: 0,
		removedCount: 0,
		addedAcrossDirectories: 0,
		addedAcrossRegions: 0,
		cycles: { added: [], broken: [["src/params.ts", "src/router.ts"]] },
	};
	return freezeReport(draft);
}

describe("the structural story", () => {
	it("opens with production changes, both values of every complexity change, then findings, then test-only changes", () => {
		const text = renderReport(routerReport(), { maxTokens: 2000, now: Date.parse("2026-01-02T03:04:17.678Z") });
		const lines = text.split("\n");
		const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
		assert.ok(at(/^production changes:$/) === 3, text);
		assert.match(
			text,
			/^ {2}complexity down \(2\): `build` 8 → 3 \(src\/router\.ts:80\), `Router\.match` 12 → 9 \(src\/router\.ts:41\)$/m,
		);
		assert.match(text, /^ {2}complexity up \(1\): `parse` 2 → 4 \(src\/params\.ts:5\)$/m);
		assert.match(text, /^ {2}removed \(1\): `cacheKey` \(src\/router\.ts:120, complexity 2\)$/m);
		assert.match(text, /^ {2}renamed \(1\): `Router\.add` → `Router\.addRoute` \(src\/router\.ts:20\)$/m);
		assert.match(text, /^ {2}import cycles broken: src\/params\.ts ↔ src\/router\.ts$/m);
		assert.ok(at(/^production changes:$/) < at(/^findings /), "production first");
		assert.ok(at(/^findings /) < at(/^test-only changes:$/), "tests after the findings");
		assert.match(text, /^ {2}added \(1\): `case7` \(tests\/router\.test\.ts:70, complexity 1\)$/m);
	});

	it("JSON carries the same story", () => {
		const json = reportJson(routerReport());
		assert.deepEqual(
			json.story.production.complexity.map((c) => [c.name, c.before, c.complexity]),
			[
				["build", 8, 3],
				["Router.match", 12, 9],
				["parse", 2, 4],
			],
		);
		assert.deepEqual([json.story.production.removedCount, json.story.tests.addedCount], [1, 1]);
		assert.deepEqual(json.story.cycles.broken, [["src/params.ts", "src/router.ts"]]);
	});
});

describe("the story within a JSON budget", () => {
	it("its lists shorten before the deltas and findings; its counts stay whole", () => {
		const draft = structuredClone(makeReport("/r", { findings: 2 })) as ReportDraft;
		draft.deltas = Array.from({ length: 120 }, (_, i) => ({
			status: "changed" as const,
			before: side(`src/f${i}.ts`, `f${i}`, 1, 3),
			after: side(`src/f${i}.ts`, `f${i}`, 1, 5),
		}));
		const json = reportJson(freezeReport(draft), { maxTokens: 2500 });
		assert.ok(estimateTokens(JSON.stringify(json, null, 2)) <= 2500);
		assert.equal(json.story.production.complexityCount, 120);
		assert.ok(json.story.production.complexity.length < 50);
		assert.equal(json.findings.length, 2, "the findings are kept");
	});
});

describe("people's text, machines' JSON", () => {
	it("the text names no report or session id and no ISO time; the JSON keeps them", () => {
		const report = routerReport();
		const text = renderReport(report, { maxTokens: 2000, now: Date.parse("2026-01-02T03:04:17.678Z") });
		assert.doesNotMatch(text, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
		assert.doesNotMatch(text, /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
		assert.match(text, /^origin: checkpoint · made 12 s ago$/m);
		const json = reportJson(report);
		assert.deepEqual(
			[json.id, json.origin.sessionId, json.createdAt],
			[report.id, "5f2d3c1a-8b7e-4c6d-9e0f-1a2b3c4d5e6f", "2026-01-02T03:04:05.678Z"],
		);
	});

	it("what did not fit is raised by the CLI's flags there and by the tool's parameters in the tool", () => {
		const big = makeReport("/r", { findings: 60 });
		assert.match(renderReport(big, { maxTokens: 400, speaksOf: "flags" }), /\(raise --max-tokens or --max-findings\)$/);
		assert.match(renderReport(big, { maxTokens: 400 }), /\(raise maxTokens or maxFindings\)$/);
	});
});
