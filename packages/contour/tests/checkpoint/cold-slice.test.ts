/**
 * A cold review (the CLI's: its code map would be built from nothing) reads only the slice of the project its change
 * reaches: it reports the same import cycles, imports, clones and exposure as a review over the whole code map,
 * while parsing only the files the change reaches; the whole map is built only when a finding needs its exposure.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { ReviewCache } from "../../src/checkpoint/review-cache.ts";
import { reviewRoot } from "../../src/checkpoint/review-root.ts";
import type { ReviewReport } from "../../src/report/report.ts";
import { cleanup, git, repo, write } from "../git/support.ts";
import { encoder, moduleNeighbours } from "./fixtures.ts";
import { heldMaps } from "./held-maps.ts";

after(cleanup);

/** Files no change below touches or names: a cold review never parses them. */
const PILE = 30;

function project(): string {
	const files: Record<string, string> = {
		"src/a.ts": 'import { b } from "./b";\n\nexport function a(): number {\n\treturn b() + 1;\n}\n',
		"src/b.ts": "export function b(): number {\n\treturn 2;\n}\n",
		"src/c.ts": 'import { a } from "./a";\n\nexport const c = a();\n',
		"lib/deep/abi/encode.ts": encoder("encodeTopics"),
		"lib/other/decoy.ts": encoder("decodeOne", ["alpha", "beta", "gamma", "delta", "epsilon"]),
		"app/feature/target.ts": "export function target(x: number): number {\n\treturn x + 1;\n}\n",
	};
	for (let i = 0; i < PILE; i++) files[`pile/p${String(i).padStart(2, "0")}.ts`] = `export const p${i} = ${i};\n`;
	return repo(files, { commit: true });
}

async function review(dir: string, cold: boolean): Promise<{ report: ReviewReport; mapBuilt: boolean }> {
	const held = heldMaps({ cold });
	const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" }, maps: held });
	return { report, mapBuilt: held.built() && report.work.mapFilesParsed > 0 };
}

/** What a review reports about the project, without what identifies the run or counts its work. */
function reported(report: ReviewReport) {
	return {
		findings: report.findings,
		imports: report.imports,
		deltas: report.deltas,
		notes: report.notes,
		exposureNote: report.exposureNote,
	};
}

describe("a cold review reads the slice of the project its change reaches", () => {
	it("a new cycle and a clone from afar: the same findings and exposure as over the whole map, the pile never parsed", async () => {
		const dir = project();
		write(dir, {
			"src/b.ts": 'import { a } from "./a";\n\nexport function b(): number {\n\treturn a() > 9 ? 2 : 3;\n}\n',
			"app/feature/target.ts": `export function target(x: number): number {\n\treturn x + 1;\n}\n\n${encoder("encodeTopicsCopy")}`,
		});
		git(dir, "add", "-A");
		const whole = await review(dir, false);
		const cold = await review(dir, true);
		assert.deepEqual(
			whole.report.findings.map((f) => f.kind).sort(),
			["exact-clone", "import-cycle"],
			JSON.stringify(whole.report.findings.map((f) => f.title)),
		);
		assert.deepEqual(reported(cold.report), reported(whole.report));
		assert.ok(
			cold.report.findings.every((f) => f.exposure !== undefined),
			"findings ask for exposure: the map is built for it",
		);
		// Parsed outside the change: src/a.ts (imports b, and b now imports it), src/c.ts (names a, reached backward)
		// and the clone's original (it calls the copy's names); the changed target's facts are its staged side's.
		assert.equal(cold.report.work.sliceFilesParsed, 3);
		assert.equal(whole.report.work.sliceFilesParsed, 0);
		assert.equal(
			whole.report.work.mapFilesParsed,
			PILE + 4,
			"the whole map parses every file but the two changed ones, whose staged sides offer their facts",
		);
		assert.equal(
			cold.report.work.mapFilesParsed,
			PILE + 6 - 5,
			"built for exposure, the map takes the facts of the slice's three files and of both staged sides",
		);
	});

	it("a changed file's before side gives its imports alone, unless a map could take its facts", async () => {
		const dir = repo(
			{
				"go.mod": "module example.com/demo\n\ngo 1.22\n",
				"util/util.go": "package util\n\nfunc Twice(x int) int {\n\treturn 2 * x\n}\n",
				"app/app.go":
					'package app\n\nimport (\n\t"fmt"\n\n\t"example.com/demo/util"\n)\n\nfunc Run() {\n\tfmt.Println(util.Twice(2))\n}\n',
			},
			{ commit: true },
		);
		write(dir, { "app/app.go": 'package app\n\nimport "fmt"\n\nfunc Run() {\n\tfmt.Println(4)\n}\n' });
		git(dir, "add", "-A");
		const whole = await review(dir, false);
		const cold = await review(dir, true);
		assert.deepEqual(reported(cold.report), reported(whole.report));
		assert.deepEqual(
			whole.report.imports?.removed?.map((edge) => [edge.file, edge.target]),
			[["app/app.go", "util/util.go"]],
			`the before side's import is seen: ${JSON.stringify(whole.report.imports)}`,
		);
		assert.deepEqual(
			[cold.report.work.sidesMeasured, cold.report.work.sideFactsTaken],
			[2, 1],
			"without a map to offer them to, the before side's facts are not taken: its imports are all it gives",
		);
		assert.deepEqual([whole.report.work.sidesMeasured, whole.report.work.sideFactsTaken], [2, 2]);
	});

	it("a change with no finding builds no map at all", async () => {
		const dir = project();
		write(dir, { "src/b.ts": "export function b(): number {\n\treturn 3;\n}\n" });
		git(dir, "add", "-A");
		const whole = await review(dir, false);
		const cold = await review(dir, true);
		assert.deepEqual(cold.report.findings, []);
		assert.deepEqual(reported(cold.report), reported(whole.report));
		assert.equal(cold.mapBuilt, false, "no finding asks for exposure");
		assert.deepEqual([cold.report.work.mapFilesParsed, cold.report.work.graphsBuilt], [0, 0]);
		assert.equal(cold.report.work.sliceFilesParsed, 1, "src/a.ts, the one file that names b");
	});

	it("a cycle closed through a directory import and a cycle broken are the whole map's too", async () => {
		const dir = repo(
			{
				"pkg/index.ts": 'export { leaf } from "./leaf";\n',
				"pkg/leaf.ts": "export function leaf(): number {\n\treturn 1;\n}\n",
				"use/one.ts": 'import { two } from "./two";\n\nexport const one = two;\n',
				"use/two.ts": 'import { one } from "./one";\n\nexport const two = 2;\nexport const again = one;\n',
				...Object.fromEntries(
					Array.from({ length: PILE }, (_, i) => [`pile/p${i}.ts`, `export const p${i} = ${i};\n`]),
				),
			},
			{ commit: true },
		);
		write(dir, {
			// leaf now imports its directory's entry (named by the directory, not by a file name): a new cycle.
			"pkg/leaf.ts": 'import * as all from ".";\n\nexport function leaf(): number {\n\treturn all ? 1 : 0;\n}\n',
			// one no longer imports two: a cycle broken.
			"use/one.ts": "export const one = 1;\n",
		});
		git(dir, "add", "-A");
		const whole = await review(dir, false);
		const cold = await review(dir, true);
		assert.equal(whole.report.imports?.cycles?.added.length, 1, JSON.stringify(whole.report.imports));
		assert.equal(whole.report.imports?.cycles?.broken.length, 1, JSON.stringify(whole.report.imports));
		assert.deepEqual(reported(cold.report), reported(whole.report));
		assert.equal(cold.report.work.sliceFilesParsed, 2, "pkg/index.ts (imports leaf) and use/two.ts (names one)");
	});

	it("neighbours named by a module path (not a relative specifier) are parsed once, measured in that parse", async () => {
		const { files, change } = moduleNeighbours(PILE);
		const dir = repo(files, { commit: true });
		write(dir, change);
		git(dir, "add", "-A");
		const whole = await review(dir, false);
		const cold = await review(dir, true);
		assert.deepEqual(reported(cold.report), reported(whole.report));
		assert.equal(cold.report.work.cloneFilesMeasured, 2, "lib/helpers.py and checks/check_service.py, compared");
		assert.equal(cold.report.work.parses, 2, "the changed file's two sides: each neighbour's one parse measured it");
	});

	it("a Python module named like a common word: only files whose import statements name it are parsed", async () => {
		const files: Record<string, string> = {
			"pkg/__init__.py": "",
			"pkg/helpers.py": "def helper():\n    return 1\n",
			// Imports helpers through a parenthesized list over several lines.
			"pkg/user.py": "from . import (\n    helpers,\n)\n\n\ndef use():\n    return helpers.helper()\n",
			// Imports it in a statement after a colon.
			"pkg/guarded.py": "TYPE_CHECKING = False\nif TYPE_CHECKING: from .helpers import helper\n",
		};
		// Files that use the word as a name and import nothing: no import reaches helpers through them.
		for (let i = 0; i < PILE; i++)
			files[`pkg/w${String(i).padStart(2, "0")}.py`] = `def f${i}(helpers):\n    return helpers + ${i}\n`;
		const dir = repo(files, { commit: true });
		// helpers now imports user, which imports helpers: a new cycle, closed through the multi-line import.
		write(dir, { "pkg/helpers.py": "from . import user\n\n\ndef helper():\n    return 1\n" });
		git(dir, "add", "-A");
		const whole = await review(dir, false);
		const cold = await review(dir, true);
		assert.deepEqual(
			whole.report.findings.map((f) => f.kind),
			["import-cycle"],
			JSON.stringify(whole.report.findings.map((f) => f.title)),
		);
		assert.deepEqual(reported(cold.report), reported(whole.report));
		assert.ok(cold.report.findings.every((f) => f.exposure !== undefined));
		assert.equal(cold.report.work.sliceFilesParsed, 2, "pkg/user.py and pkg/guarded.py, whose imports name helpers");
	});

	it("a new import into a region another file of its region already imported is not reported as a crossing", async () => {
		const files: Record<string, string> = {
			"src/index.ts": "export const version = 1;\n",
			// Only the last of the declarations imports src: the region was dependent before the change.
			"types/z-last.ts": 'import { version } from "../src/index";\n\nexport type V = typeof version;\n',
		};
		for (let i = 0; i < PILE; i++) files[`types/t${String(i).padStart(2, "0")}.ts`] = `export type T${i} = ${i};\n`;
		const dir = repo(files, { commit: true });
		write(dir, { "types/added.ts": 'import { version } from "../src/index";\n\nexport const again = version;\n' });
		git(dir, "add", "-A");
		const whole = await review(dir, false);
		const cold = await review(dir, true);
		assert.equal(whole.report.imports?.addedAcrossRegions, 1, JSON.stringify(whole.report.imports));
		assert.deepEqual(
			whole.report.findings.filter((f) => f.kind === "region-crossing"),
			[],
			"types already depended on src",
		);
		assert.deepEqual(reported(cold.report), reported(whole.report));
		assert.equal(cold.report.work.sliceFilesParsed, PILE + 1, "the types region, read until its one import of src");
	});
});
