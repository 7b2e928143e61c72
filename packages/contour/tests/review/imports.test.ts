/**
 * Import findings of a change from the resolved import graphs of both sides: new cycles (with edge witnesses),
 * new region dependencies and policy violations. Issue: "new import cycles, new imports across region boundaries";
 * "Optional policy file (forbidden import boundaries) gives exit code 1 in the CLI; advisory by default."
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeChange, analyzeMeasured } from "../../src/review/analyze.ts";
import { importChanges } from "../../src/review/import-changes.ts";
import { type ImportEdges, importCycles, newImportCycles, newImportEdges } from "../../src/review/import-cycles.ts";
import { parsePolicy } from "../../src/review/policy.ts";
import { regionChanges, regionOf } from "../../src/review/regions.ts";

/** `{"a.ts": {"b.ts": 3}}` → edges (importing file → imported file → line). */
function graph(spec: Record<string, Record<string, number>>): ImportEdges {
	return new Map(Object.entries(spec).map(([from, targets]) => [from, new Map(Object.entries(targets))]));
}

/** A change of `paths` that only matters for imports: empty content needs no parse. */
function change(paths: string[]) {
	return paths.map((path) => ({ path, before: "", after: "" }));
}

describe("import cycles", () => {
	const before = graph({
		"src/a.ts": { "src/b.ts": 1 },
		"src/b.ts": { "src/c.ts": 2 },
		"src/x.ts": { "src/y.ts": 1 },
		"src/y.ts": { "src/x.ts": 4 },
	});
	const after = graph({
		"src/a.ts": { "src/b.ts": 1 },
		"src/b.ts": { "src/c.ts": 2 },
		"src/c.ts": { "src/a.ts": 7, "src/d.ts": 8 },
		"src/x.ts": { "src/y.ts": 2 },
		"src/y.ts": { "src/x.ts": 4 },
	});

	it("finds strongly connected components of two or more files", () => {
		assert.deepEqual(importCycles(after), [
			["src/a.ts", "src/b.ts", "src/c.ts"],
			["src/x.ts", "src/y.ts"],
		]);
	});

	it("a new three-file cycle is reported with its edge witnesses; the pre-existing cycle is not", () => {
		const touched = newImportCycles(before, after, new Set(["src/c.ts", "src/x.ts"]));
		assert.deepEqual(touched, [
			{
				files: ["src/a.ts", "src/b.ts", "src/c.ts"],
				loop: [
					{ from: "src/c.ts", to: "src/a.ts", line: 7 },
					{ from: "src/a.ts", to: "src/b.ts", line: 1 },
					{ from: "src/b.ts", to: "src/c.ts", line: 2 },
				],
			},
		]);
	});

	it("the report's imports say which cycles the change made and which it broke", async () => {
		const broken = graph({
			"src/a.ts": { "src/b.ts": 1 },
			"src/b.ts": { "src/c.ts": 2 },
			"src/x.ts": { "src/y.ts": 2 },
		});
		const review = await analyzeChange({
			files: change(["src/c.ts", "src/x.ts"]),
			importEdges: { before: after, after: broken },
		});
		assert.deepEqual(review.imports?.cycles, {
			added: [],
			broken: [
				["src/a.ts", "src/b.ts", "src/c.ts"],
				["src/x.ts", "src/y.ts"],
			],
		});
		const made = await analyzeChange({ files: change(["src/c.ts"]), importEdges: { before, after } });
		assert.deepEqual(made.imports?.cycles, { added: [["src/a.ts", "src/b.ts", "src/c.ts"]], broken: [] });
	});

	it("through analyzeChange: one finding, witnessed edge by edge", async () => {
		const review = await analyzeChange({
			files: [{ path: "src/c.ts", before: "export const c = 1;\n", after: 'import "./a.ts";\nexport const c = 1;\n' }],
			importEdges: { before, after },
		});
		const cycles = review.findings.filter((f) => f.kind === "import-cycle");
		assert.equal(cycles.length, 1);
		const [cycle] = cycles;
		assert.ok(cycle);
		assert.equal(cycle.title, "New import cycle: src/c.ts → src/a.ts → src/b.ts → src/c.ts");
		assert.deepEqual([cycle.file, cycle.line, cycle.after.value], ["src/c.ts", 7, 3]);
		assert.deepEqual(
			cycle.witnesses.map((w) => `${w.side} ${w.file}:${w.line}`),
			["after src/c.ts:7", "after src/a.ts:1", "after src/b.ts:2"],
		);
		assert.match(cycle.question, /Which import in src\/c\.ts → src\/a\.ts/);
	});

	it("a pre-existing cycle that gains an edge is not new; one that grows by a file is", () => {
		const base = graph({ "a.ts": { "b.ts": 1 }, "b.ts": { "a.ts": 1 } });
		const denser = graph({ "a.ts": { "b.ts": 1, "c.ts": 2 }, "b.ts": { "a.ts": 1 } });
		assert.deepEqual(newImportCycles(base, denser, new Set(["a.ts"])), []);
		const grown = graph({ "a.ts": { "b.ts": 1 }, "b.ts": { "a.ts": 1, "c.ts": 3 }, "c.ts": { "a.ts": 5 } });
		assert.deepEqual(
			newImportCycles(base, grown, new Set(["c.ts"])).map((c) => c.files),
			[["a.ts", "b.ts", "c.ts"]],
		);
	});

	it("a moved import line is not a new edge, and a renamed file adds no import", () => {
		const moved = graph({ "a.ts": { "b.ts": 9 } });
		assert.deepEqual(newImportEdges(graph({ "a.ts": { "b.ts": 1 } }), moved), []);
		const review = analyzeMeasured({
			files: [{ path: "ui/new.ts", previousPath: "ui/old.ts", before: "", after: "" }],
			importEdges: {
				before: graph({ "ui/old.ts": { "db/store.ts": 1 } }),
				after: graph({ "ui/new.ts": { "db/store.ts": 1 } }),
			},
			policy: parsePolicy('{"forbid": [{"from": "ui", "to": "db"}]}'),
		});
		assert.deepEqual(review.findings, []);
	});
});

describe("import changes (structural deltas, not findings)", () => {
	it("lists every added and removed import with its line, target and crossings", () => {
		const before = graph({ "pkg/a/x.ts": { "pkg/a/y.ts": 1, "pkg/b/z.ts": 2 } });
		const after = graph({
			"pkg/a/x.ts": { "pkg/a/y.ts": 3, "pkg/a/w.ts": 4, "pkg/c/v.ts": 5 },
			"packages/web/a.ts": { "packages/api/b.ts": 7 },
		});
		const changes = importChanges(before, after, new Map());
		assert.deepEqual(changes.added, [
			{ file: "packages/web/a.ts", line: 7, target: "packages/api/b.ts", crossesDirectory: true, crossesRegion: true },
			{ file: "pkg/a/x.ts", line: 4, target: "pkg/a/w.ts", crossesDirectory: false, crossesRegion: false },
			{ file: "pkg/a/x.ts", line: 5, target: "pkg/c/v.ts", crossesDirectory: true, crossesRegion: false },
		]);
		assert.deepEqual(changes.removed, [
			{ file: "pkg/a/x.ts", line: 2, target: "pkg/b/z.ts", crossesDirectory: true, crossesRegion: false },
		]);
		assert.deepEqual(
			[changes.addedCount, changes.removedCount, changes.addedAcrossDirectories, changes.addedAcrossRegions],
			[3, 1, 2, 1],
		);
	});

	it("a renamed file neither adds nor removes imports; what it drops is named under its old path", () => {
		const before = graph({ "src/old.ts": { "src/dep.ts": 1, "src/gone.ts": 2 }, "src/user.ts": { "src/old.ts": 1 } });
		const after = graph({ "src/new.ts": { "src/dep.ts": 1 }, "src/user.ts": { "src/new.ts": 1 } });
		const changes = importChanges(before, after, new Map([["src/old.ts", "src/new.ts"]]));
		assert.deepEqual(changes.added, []);
		assert.deepEqual(
			changes.removed.map((c) => `${c.file}:${c.line} → ${c.target}`),
			["src/old.ts:2 → src/gone.ts"],
		);
	});

	it("bounded lists keep region crossings, then directory crossings, in file order; the counts stay full", () => {
		const after = graph({
			"a/one.ts": { "a/two.ts": 1, "a/sub/three.ts": 2, "b/four.ts": 3 },
			"a/two.ts": { "a/one.ts": 1, "c/five.ts": 2 },
		});
		const changes = importChanges(graph({}), after, new Map(), undefined, 3);
		assert.deepEqual(
			changes.added.map((c) => `${c.file}:${c.line}`),
			["a/one.ts:2", "a/one.ts:3", "a/two.ts:2"],
		);
		assert.equal(changes.addedCount, 5);
	});

	it("a review with import graphs carries them; the policy's regions decide what crosses a region", () => {
		const policy = parsePolicy('{"regions": {"ui": "src/ui/**"}, "forbid": []}');
		const review = analyzeMeasured({
			files: change(["src/ui/view.ts"]),
			importEdges: { before: graph({}), after: graph({ "src/ui/view.ts": { "src/db/store.ts": 2 } }) },
			policy,
		});
		assert.deepEqual(review.imports?.added, [
			{ file: "src/ui/view.ts", line: 2, target: "src/db/store.ts", crossesDirectory: true, crossesRegion: true },
		]);
		assert.equal(analyzeMeasured({ files: change(["src/a.ts"]) }).imports, undefined);
	});
});

describe("regions and policy", () => {
	it("the region of a file is its top-level directory, a unit under packages/, or a policy region", () => {
		assert.equal(regionOf("src/ui/panel.ts"), "src");
		assert.equal(regionOf("packages/web/src/a.ts"), "packages/web");
		assert.equal(regionOf("main.go"), ".");
		const policy = parsePolicy('{"regions": {"ui": ["src/ui/**"], "core": "src/core"}, "forbid": []}');
		assert.equal(regionOf("src/ui/panel.ts", policy), "ui");
		assert.equal(regionOf("src/core/deep/x.ts", policy), "core");
		assert.equal(regionOf("src/other.ts", policy), "src");
	});

	it("a new dependency between regions is one advisory finding per region pair; an existing pair is not news", () => {
		const before = graph({ "web/a.ts": { "lib/x.ts": 1 } });
		const after = graph({
			"web/a.ts": { "lib/x.ts": 1, "lib/y.ts": 2 },
			"api/h.ts": { "db/q.ts": 3, "db/r.ts": 4 },
		});
		const { crossings, violations } = regionChanges(before, after);
		assert.deepEqual(violations, []);
		assert.deepEqual(crossings, [
			{
				fromRegion: "api",
				toRegion: "db",
				edges: [
					{ from: "api/h.ts", to: "db/q.ts", line: 3 },
					{ from: "api/h.ts", to: "db/r.ts", line: 4 },
				],
			},
		]);
		const review = analyzeMeasured({ files: change(["api/h.ts"]), importEdges: { before, after } });
		assert.deepEqual(
			review.findings.map((f) => [f.kind, f.file, f.line, f.policy]),
			[["region-crossing", "api/h.ts", 3, undefined]],
		);
		assert.equal(review.policyViolations, 0);
		assert.match(review.findings[0]?.question ?? "", /Should region `api` depend on `db` directly/);
	});

	it("a new import that a policy forbids is a policy violation, ranked first", () => {
		const policy = parsePolicy(
			JSON.stringify({
				regions: { ui: "src/ui/**", storage: ["src/db/**"] },
				forbid: [{ from: "ui", to: "storage", reason: "the UI goes through src/api" }],
			}),
		);
		const before = graph({ "src/ui/panel.ts": { "src/api/client.ts": 1 } });
		const after = graph({
			"src/ui/panel.ts": { "src/api/client.ts": 1, "src/db/store.ts": 2 },
			"src/api/client.ts": { "src/ui/panel.ts": 5 },
		});
		const review = analyzeMeasured({
			files: change(["src/ui/panel.ts", "src/api/client.ts"]),
			importEdges: { before, after },
			policy,
		});
		assert.deepEqual(
			review.findings.map((f) => [f.kind, f.file, f.line, f.policy === true]),
			[
				["forbidden-import", "src/ui/panel.ts", 2, true],
				["import-cycle", "src/api/client.ts", 5, false],
				["region-crossing", "src/api/client.ts", 5, false],
			],
		);
		assert.equal(review.policyViolations, 1);
		const violation = review.findings[0];
		assert.ok(violation);
		assert.deepEqual(violation.witnesses, [{ file: "src/ui/panel.ts", line: 2, side: "after" }]);
		assert.match(violation.question, /forbids `ui` importing `storage` \(the UI goes through src\/api\)/);
	});

	it("forbid rules may use globs instead of region names", () => {
		const policy = parsePolicy('{"forbid": [{"from": "src/**/*.test.ts", "to": "src/internal"}]}');
		const { violations } = regionChanges(
			graph({}),
			graph({ "src/a/x.test.ts": { "src/internal/secret.ts": 4 }, "src/a/x.ts": { "src/internal/secret.ts": 1 } }),
			policy,
		);
		assert.deepEqual(
			violations.map((v) => v.edge.from),
			["src/a/x.test.ts"],
		);
	});
});

describe("policy validation", () => {
	const cases: Array<[string, RegExp]> = [
		["not json", /is not valid JSON: /],
		["[]", /the policy must be a JSON object/],
		["{}", /`forbid` is missing/],
		['{"forbid": {}}', /`forbid` must be a list/],
		['{"forbids": []}', /key "forbids" is not known/],
		['{"forbid": [{"from": "a"}]}', /forbid\[0\]\.to must be a non-empty string/],
		['{"forbid": [{"from": "a", "to": "b", "why": 1}]}', /forbid\[0\]\.why is not known/],
		['{"forbid": [{"from": "a", "to": "b", "reason": 3}]}', /forbid\[0\]\.reason must be a string/],
		['{"forbid": [{"from": "/abs/**", "to": "b"}]}', /must be relative to the repository root/],
		['{"forbid": [{"from": "../x", "to": "b"}]}', /must not contain "\.\." segments/],
		['{"regions": [], "forbid": []}', /`regions` must be an object/],
		['{"regions": {"ui": []}, "forbid": []}', /regions\["ui"\] must be a glob or a non-empty list/],
		['{"regions": {"ui": [""]}, "forbid": []}', /regions\["ui"\]\[0\] must be a non-empty string/],
	];
	for (const [text, message] of cases) {
		it(`rejects ${text}`, () => {
			assert.throws(() => parsePolicy(text, "policy .contour/policy.json"), message);
		});
	}

	it("names the policy source in errors and accepts a minimal policy", () => {
		assert.throws(() => parsePolicy("{}", ".contour/policy.json"), /^Error: Contour \.contour\/policy\.json: /);
		assert.deepEqual(parsePolicy('{"forbid": []}'), { regions: [], forbid: [] });
	});
});
