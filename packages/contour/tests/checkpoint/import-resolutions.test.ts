/**
 * A review resolves each import once per file list: its import graphs are built more than once and for both sides,
 * whose file lists are equal unless the change adds, deletes or renames a file, and each remembered answer is the
 * one Fovea's `resolveImport` gives.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { callSitesOf, type FileFacts, type ResolutionContext, resolveImport } from "pi-fovea/engine";
import { importGraphs, type ProjectFacts } from "../../src/checkpoint/import-edges.ts";
import { ImportResolutions } from "../../src/checkpoint/import-resolutions.ts";
import type { MeasuredChange } from "../../src/checkpoint/side-measures.ts";
import type { ChangedFile } from "../../src/git/index.ts";
import { emptyMeasure } from "../../src/review/index.ts";

type Imports = FileFacts["imports"];

/** Python facts of `path` importing `imports`. */
function facts(path: string, imports: Imports): FileFacts {
	return {
		path,
		language: "python",
		hash: path,
		bytes: 0,
		lines: 10,
		symbols: [],
		imports,
		calls: callSitesOf([]),
		inherits: [],
		parseErrors: 0,
	};
}

const COMMON: Imports = [
	{ specifier: "os", line: 1 },
	{ specifier: "pkg.util", line: 2 },
	{ specifier: ".", line: 3, names: ["models"] },
];

/** A project of five Python files, each importing `COMMON`; `pkg/app.py` is the changed one. */
function project(): ProjectFacts {
	const paths = ["pkg/__init__.py", "pkg/util.py", "pkg/models.py", "pkg/views.py", "pkg/app.py"];
	return {
		files: new Map(paths.map((path) => [path, facts(path, COMMON)])),
		context: { files: new Set(paths), pythonProjects: [] },
	};
}

function side(path: string, imports: Imports): MeasuredChange["after"] {
	return { path, measure: emptyMeasure(path, 0), imports };
}

function changed(path: string, status: ChangedFile["status"]): ChangedFile {
	const blob = { oid: null, mode: "100644", bytes: 0, source: "index" as const };
	return {
		path,
		status,
		...(status === "added" ? {} : { before: blob }),
		...(status === "deleted" ? {} : { after: blob }),
	};
}

describe("import resolutions of a review", () => {
	it("resolve each import once for both sides and every graph when the change adds no file", () => {
		const facts = project();
		const change = changed("pkg/app.py", "modified");
		const measured: MeasuredChange[] = [
			{
				change,
				before: side("pkg/app.py", COMMON),
				after: side("pkg/app.py", [...COMMON, { specifier: "pkg.views", line: 4 }]),
			},
		];
		const resolutions = new ImportResolutions();
		const first = importGraphs([change], measured, facts, new Set(), new Map(), resolutions);
		const again = importGraphs([change], measured, facts, new Set(), new Map(), resolutions);
		// Four unchanged files and the changed one's three imports, plus the import only its after side has.
		assert.equal(resolutions.resolved, 4 * COMMON.length + COMMON.length + 1);
		assert.deepEqual(again, first);
		assert.deepEqual(first, importGraphs([change], measured, facts), "the same graphs as resolved afresh");
		assert.deepEqual([...(first.after.get("pkg/app.py")?.keys() ?? [])].sort(), [
			"pkg/__init__.py",
			"pkg/models.py",
			"pkg/util.py",
			"pkg/views.py",
		]);
	});

	it("resolve anew against a side whose file list differs (an added file)", () => {
		const facts = project();
		const change = changed("pkg/extra.py", "added");
		const measured: MeasuredChange[] = [{ change, after: side("pkg/extra.py", COMMON) }];
		const resolutions = new ImportResolutions();
		const graphs = importGraphs([change], measured, facts, new Set(), new Map(), resolutions);
		// Five unchanged files on each side, and the added file's imports after.
		assert.equal(resolutions.resolved, 2 * 5 * COMMON.length + COMMON.length);
		assert.deepEqual(graphs, importGraphs([change], measured, facts));
	});

	it("give one resolver to file lists of equal content, answering as Fovea's resolveImport", () => {
		const settings: Omit<ResolutionContext, "files"> = { pythonProjects: [] };
		const files = ["a/__init__.py", "a/b.py", "c.py"];
		const resolutions = new ImportResolutions();
		const resolve = resolutions.onSide(settings, new Set(files));
		assert.equal(resolutions.onSide(settings, new Set([...files].reverse())), resolve);
		assert.notEqual(resolutions.onSide(settings, new Set(files.slice(1))), resolve, "another list");
		assert.notEqual(resolutions.onSide({ pythonProjects: [] }, new Set(files)), resolve, "other settings");
		const from = { path: "c.py", language: "python" as const };
		const imported = { specifier: "a", line: 1, names: ["b"] };
		const expected = resolveImport(from, imported, { ...settings, files: new Set(files) });
		assert.deepEqual(resolve(from, imported), expected);
		assert.deepEqual(resolve(from, { ...imported, line: 9 }), expected, "the line does not matter");
		assert.deepEqual(resolve(from, { specifier: "a", line: 1 }), ["a/__init__.py"], "names are part of the import");
		assert.equal(resolutions.resolved, 2);
	});
});
