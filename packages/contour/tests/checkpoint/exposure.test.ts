/**
 * Exposure and import graphs from a real code map (Fovea's engine, facts kept in memory): a changed function called
 * from three files reaches them, labelled as exposure; exposure orders findings of one kind; import cycles through
 * unchanged files are seen with the map and not without; reports outlive the map's eviction. Issue: "the modelled
 * exposure of the changed code from Fovea's heat (how far it reaches), clearly labelled as exposure, not severity";
 * "reports outlive graph paging".
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { ResidentMaps } from "pi-fovea/engine";
import { ReviewCache } from "../../src/checkpoint/review-cache.ts";
import { reviewRoot } from "../../src/checkpoint/review-root.ts";
import { renderReport } from "../../src/report/render-report.ts";
import { cleanup, git, repo, write } from "../git/support.ts";
import { LANGUAGES } from "./fixtures.ts";

after(cleanup);

const branchyCompute = LANGUAGES.typescript.branchy.replace("route", "compute");

/** `compute` in src/core.ts, called from a, b and c; d calls a; and an unrelated ring of modules. */
function calledProject(extra: Record<string, string> = {}): string {
	const files: Record<string, string> = {
		...extra,
		"src/core.ts": LANGUAGES.typescript.simple.replace("route", "compute"),
		"src/a.ts": 'import { compute } from "./core.ts";\nexport function alpha() {\n\treturn compute(1);\n}\n',
		"src/b.ts": 'import { compute } from "./core.ts";\nexport function beta() {\n\treturn compute(2);\n}\n',
		"src/c.ts": 'import { compute } from "./core.ts";\nexport function gamma() {\n\treturn compute(3);\n}\n',
		"src/d.ts": 'import { alpha } from "./a.ts";\nexport function delta() {\n\treturn alpha();\n}\n',
		"src/aaa-lonely.ts": LANGUAGES.typescript.simple.replace("route", "lonely"),
	};
	for (let i = 0; i < 8; i++) {
		const next = (i + 1) % 8;
		files[`other/m${i}.ts`] =
			`import { n${next} } from "./m${next}.ts";\nexport function n${i}() {\n\treturn n${next}();\n}\n`;
	}
	return repo(files, { commit: true });
}

describe("exposure from the code map's heat", () => {
	it("a changed function called from three other files reaches them; unrelated modules are not reached", async () => {
		const dir = calledProject();
		write(dir, { "src/core.ts": branchyCompute });
		git(dir, "add", "-A");
		const maps = new ResidentMaps(2, { cache: false });
		const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "checkpoint" }, maps });
		assert.equal(report.exposureNote, undefined);
		const [finding] = report.findings;
		assert.equal(finding?.kind, "complexity");
		const exposure = finding?.exposure;
		assert.ok(exposure, "the finding carries exposure");
		assert.deepEqual(exposure.files.slice(0, 3).sort(), ["src/a.ts", "src/b.ts", "src/c.ts"]);
		assert.ok(exposure.reach >= 3, `reach ${exposure.reach}`);
		assert.ok(!exposure.files.some((file) => file.startsWith("other/") || file === "src/core.ts"));
		assert.equal(report.work.exposureQueries, 1);
		const text = renderReport(report, { maxTokens: 1000 });
		assert.match(text, /exposure is modelled reach through the code graph, not severity/);
		assert.match(text, new RegExp(`exposure: reaches ${exposure.reach} files \\(src/`));
	});

	it("exposure lists only what depends on the changed file, never what it depends on", async () => {
		// core.ts calls base.ts (its dependency); a, b and c call core.ts (its dependents).
		const dir = calledProject({
			"src/base.ts": "export function base(n: number) {\n\treturn n + 1;\n}\n",
			"src/basetwo.ts":
				'import { base } from "./base.ts";\nexport function twice(n: number) {\n\treturn base(base(n));\n}\n',
		});
		write(dir, {
			"src/core.ts": `import { base } from "./base.ts";\nimport { twice } from "./basetwo.ts";\n${branchyCompute}\nexport const seed = () => twice(base(0));\n`,
		});
		git(dir, "add", "-A");
		const maps = new ResidentMaps(2, { cache: false });
		const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "checkpoint" }, maps });
		const exposure = report.findings.find((f) => f.file === "src/core.ts" && f.kind === "complexity")?.exposure;
		assert.ok(exposure, JSON.stringify(report.findings));
		assert.deepEqual(exposure.files.slice(0, 3).sort(), ["src/a.ts", "src/b.ts", "src/c.ts"]);
		assert.ok(
			!exposure.files.includes("src/base.ts") && !exposure.files.includes("src/basetwo.ts"),
			exposure.files.join(),
		);
		assert.equal(exposure.reach, 4, `a, b, c and d (through a): ${exposure.files.join()}`);
	});

	it("among findings of one kind, the more exposed ranks first", async () => {
		const dir = calledProject();
		write(dir, {
			"src/core.ts": branchyCompute,
			"src/aaa-lonely.ts": LANGUAGES.typescript.branchy.replace("route", "lonely"),
		});
		git(dir, "add", "-A");
		const maps = new ResidentMaps(2, { cache: false });
		const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "checkpoint" }, maps });
		assert.deepEqual(
			report.findings.filter((f) => f.kind === "complexity").map((f) => [f.file, f.exposure?.reach === 0]),
			[
				["src/core.ts", false],
				["src/aaa-lonely.ts", true],
			],
		);
	});
});

describe("import graphs", () => {
	it("a new import closing a cycle through unchanged files is found with the map, and not without", async () => {
		const dir = repo(
			{
				"src/a.ts": 'import { b } from "./b.ts";\nexport const a = () => b();\n',
				"src/b.ts": 'import { c } from "./c.ts";\nexport const b = () => c();\n',
				"src/c.ts": "export const c = () => 1;\n",
			},
			{ commit: true },
		);
		write(dir, { "src/c.ts": 'import { a } from "./a.ts";\nexport const c = () => 1;\nexport const d = a;\n' });
		git(dir, "add", "-A");
		const maps = new ResidentMaps(2, { cache: false });
		const mapped = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" }, maps });
		const cycle = mapped.findings.find((f) => f.kind === "import-cycle");
		assert.ok(cycle, JSON.stringify(mapped.findings));
		assert.deepEqual([cycle.file, cycle.line], ["src/c.ts", 1]);
		assert.deepEqual(
			cycle.witnesses.map((w) => `${w.file}:${w.line}`),
			["src/c.ts:1", "src/a.ts:1", "src/b.ts:1"],
		);
		const bare = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" } });
		assert.equal(bare.findings.filter((f) => f.kind === "import-cycle").length, 0);
		assert.match(bare.notes.join("\n"), /changed files only/);
	});
});

describe("reports and graph paging", () => {
	it("reports outlive the eviction of their root's graph, and an unchanged root is answered without rebuilding it", async () => {
		const first = calledProject();
		const second = calledProject();
		for (const dir of [first, second]) {
			write(dir, { "src/core.ts": branchyCompute });
			git(dir, "add", "-A");
		}
		const maps = new ResidentMaps(1, { cache: false });
		const cache = new ReviewCache();
		const report = await reviewRoot({ root: first, cache, origin: { kind: "background" }, maps });
		assert.ok(maps.isResident(first));
		await reviewRoot({ root: second, cache, origin: { kind: "background" }, maps });
		assert.equal(maps.isResident(first), false, "the first root's graph was paged out");
		assert.equal(cache.reports.latest(first)?.id, report.id, "its report was not");
		const again = await reviewRoot({ root: first, cache, origin: { kind: "checkpoint" }, maps });
		assert.equal(again.reusedFrom, report.id);
		assert.deepEqual([again.work.graphsBuilt, again.work.mapFilesParsed, again.work.parses], [0, 0, 0]);
		assert.equal(maps.isResident(first), false, "answering from the report did not page the graph back in");
	});
});
