// DESIGN, "Layout": no import cycles in the packages' sources. Every import counts, `import type` and `import()`
// included: a cycle of types still ties two modules so neither can be read, moved or tested without the other (four
// of the five cycles this test was written against were type-only on one side), and a lazy `import()` still makes
// the loaded module part of its importer. Cycles are found with the review's own strongly-connected components.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { importCycles } from "../src/review/import-cycles.ts";
import { allSpecifiers, resolveWorkspaceExport } from "./support/import-graph.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const SOURCE = /\.(ts|js)$/;

/** The source files under `dir`, recursively. */
function sourcesUnder(dir: string): string[] {
	const out: string[] = [];
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) out.push(...sourcesUnder(path));
		else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
	}
	return out;
}

function isFile(path: string): boolean {
	return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

/**
 * The import graph reached from every file of `roots` (importing file → imported file → 1): relative specifiers to
 * files that exist, and workspace package subpaths (`pi-fovea/engine`) through their package's `exports`.
 */
function importGraph(roots: readonly string[], workspace: string): Map<string, Map<string, number>> {
	const edges = new Map<string, Map<string, number>>();
	const queue = roots.flatMap((root) => sourcesUnder(root));
	while (queue.length > 0) {
		const file = queue.pop() as string;
		if (edges.has(file)) continue;
		const targets = new Map<string, number>();
		edges.set(file, targets);
		for (const specifier of allSpecifiers(readFileSync(file, "utf8"))) {
			const target = specifier.startsWith(".")
				? resolve(dirname(file), specifier)
				: resolveWorkspaceExport(specifier, workspace);
			if (target === undefined || !isFile(target)) continue;
			targets.set(target, 1);
			queue.push(target);
		}
	}
	return edges;
}

describe("import cycles", () => {
	it("packages/*/src has none", () => {
		const packages = ["fovea", "contour", "crew"].map((name) => join(repoRoot, "packages", name, "src"));
		const graph = importGraph(packages, repoRoot);
		assert.ok(graph.size > 200, `the walk read the sources (${graph.size} files)`);
		const cycles = importCycles(graph).map((files) => files.map((file) => relative(repoRoot, file)));
		assert.deepEqual(
			cycles,
			[],
			`files that import each other in a circle:\n${cycles.map((c) => c.join(", ")).join("\n")}`,
		);
	});

	it("finds a cycle through a type-only import, a re-export and an import()", () => {
		const dir = mkdtempSync(join(tmpdir(), "import-cycles-"));
		try {
			mkdirSync(join(dir, "src"));
			writeFileSync(join(dir, "src/a.ts"), 'import type { B } from "./b.ts";\nexport type A = B;\n');
			writeFileSync(join(dir, "src/b.ts"), 'export { c } from "./c.ts";\nexport type B = number;\n');
			writeFileSync(join(dir, "src/c.ts"), 'export const c = () => import("./a.ts");\n');
			writeFileSync(join(dir, "src/d.ts"), '/** import("./a.ts") in a comment is no import. */\n');
			writeFileSync(join(dir, "src/e.ts"), '// import "./d.ts"\nimport "./a.ts";\n');
			const cycles = importCycles(importGraph([join(dir, "src")], repoRoot));
			assert.deepEqual(
				cycles.map((files) => files.map((file) => relative(dir, file))),
				[["src/a.ts", "src/b.ts", "src/c.ts"]],
			);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
