// Seed, "Lightweight shared API" and "Bounded continuity": module load does no filesystem work, runs no Git and
// imports no parser, graph or analysis engine; startup with no retained roots never scans the launch directory.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { cleanup, tempDir } from "./git/support.ts";
import { staticImportGraph, staticSpecifiers } from "./support/import-graph.ts";
import { probeLoad } from "./support/probe-load.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const entries = {
	fovea: join(repoRoot, "packages/fovea/src/extension/index.ts"),
	contour: join(repoRoot, "packages/contour/src/extension/index.ts"),
};
/**
 * The reference system holds its startup graph to 32 KiB of source. We hold the code of ours (comments and blank
 * lines out, so a comment saying why costs nothing) to 28 KiB: about the same share of code as the reference's.
 */
const STARTUP_BYTE_BUDGET = 28 * 1024;

after(cleanup);

describe("the load probe", () => {
	it("sees a module's own filesystem and child-process calls at load and in its factory, so empty lists mean none", () => {
		// A module where the probe counts calls: under a packages/<name>/src/ folder, as the extensions' sources are.
		const src = join(tempDir("contour-probe-"), "packages", "probe", "src");
		mkdirSync(src, { recursive: true });
		const entry = join(src, "index.ts");
		writeFileSync(
			entry,
			[
				'import { execFileSync } from "node:child_process";',
				'import { readFileSync } from "node:fs";',
				'import { stat } from "node:fs/promises";',
				"readFileSync(import.meta.filename);",
				"await stat(import.meta.dirname);",
				"export const named = 1;",
				"export default function factory(): void {",
				'\texecFileSync(process.execPath, ["--version"]);',
				"}",
				"",
			].join("\n"),
		);
		const report = probeLoad(entry);
		assert.ok(
			report.fsCalls.some((call) => call.startsWith("fs.readFileSync(")),
			report.fsCalls.join(", "),
		);
		assert.ok(
			report.fsCalls.some((call) => call.startsWith("fs.promises.stat(")),
			report.fsCalls.join(", "),
		);
		assert.ok(
			report.spawns.some((call) => call.startsWith("child_process.execFileSync(")),
			report.spawns.join(", "),
		);
		assert.deepEqual(report.exports.sort(), ["default", "named"]);
	});
});

describe("startup import graph", () => {
	for (const [name, entry] of Object.entries(entries)) {
		it(`${name}: static imports stay within ${STARTUP_BYTE_BUDGET} bytes of code`, () => {
			const { modules, external } = staticImportGraph(entry, repoRoot);
			const total = modules.reduce((sum, m) => sum + m.codeBytes, 0);
			const listing = modules
				.map((m) => `${relative(repoRoot, m.path)} ${m.codeBytes} (${m.bytes} on disk)`)
				.join("\n");
			assert.ok(total <= STARTUP_BYTE_BUDGET, `${name} loads ${total} bytes of code at startup:\n${listing}`);
			assert.deepEqual(external, [], "no third-party package on the startup path");
			assert.ok(modules.length >= 3, "the walker followed the entry's imports");
		});

		it(`${name}: no discovery, parser, graph, analysis or git module is imported at startup`, () => {
			const { modules } = staticImportGraph(entry, repoRoot);
			const forbidden =
				/\/(engine|review|git|runtime|worktree)\/|discovery\.ts$|accessed-paths\.ts$|shell-hints\.ts$|enrollment\.ts$/;
			const offending = modules.map((m) => relative(repoRoot, m.path)).filter((p) => forbidden.test(p));
			assert.deepEqual(offending, []);
		});
	}

	it("the import scanner skips type-only imports and sees re-exports", () => {
		const source = [
			'import type { A } from "./a.ts";',
			'import { type B, type C } from "./b.ts";',
			'import { d } from "./d.ts";',
			'export { e } from "./e.ts";',
			'export type { F } from "./f.ts";',
			'import "./g.ts";',
		].join("\n");
		assert.deepEqual(staticSpecifiers(source), ["./d.ts", "./e.ts", "./g.ts"]);
	});
});

describe("pi-fovea/workspace, the light kernel", () => {
	const kernel = join(repoRoot, "packages/fovea/src/workspace/index.ts");
	/** The exports the seed's "Lightweight shared API" names. */
	const SEED_EXPORTS = [
		"ExecutionRoots",
		"ProjectDiscovery",
		"canonicalPath",
		"accessedPaths",
		"WORKSPACE_ACCESS_EVENT",
		"peerWorkspaceRoot",
		"latestWorkspaceEntry",
		"OBSERVED_ROOT_LIMIT",
		"envInt",
	];

	it("exports exactly the seed's names, imports no parser, graph, analysis or Git module, and nothing third-party", () => {
		const { modules, external } = staticImportGraph(kernel, repoRoot);
		const offending = modules
			.map((m) => relative(repoRoot, m.path))
			.filter((p) => /\/(engine|review|git|runtime|worktree|extension)\//.test(p) || !p.includes("/workspace/"));
		assert.deepEqual(offending, []);
		assert.deepEqual(external, []);
		const { exports } = probeLoad(kernel);
		assert.deepEqual([...exports].sort(), [...SEED_EXPORTS].sort(), "the seed's names and no other value");
	});

	it("loading it touches no file and spawns nothing", () => {
		const report = probeLoad(kernel);
		assert.deepEqual(report.fsCalls, []);
		assert.deepEqual(report.spawns, []);
	});
});

describe("module load and factory are free of side effects", () => {
	it("importing both entries and running their factories touches no file, spawns nothing and reads no env limit eagerly beyond the ring", () => {
		const report = probeLoad(entries.fovea, entries.contour);
		assert.deepEqual(report.fsCalls, [], "no filesystem call during import or factory");
		assert.deepEqual(report.spawns, [], "no child process during import or factory");
		assert.ok(report.handlers.includes("tool_result"), "the factories registered their hooks");
		assert.ok(report.commands.includes("fovea") && report.commands.includes("contour"));
	});
});
