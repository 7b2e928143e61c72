// The crew extension's startup budget, held like Fovea's and Contour's (packages/contour/tests/startup.test.ts): the
// entry's static import graph stays within 32 KiB with no third-party package and none of the runtime, state,
// definitions or worktree modules, and importing it and running its factory touches no file and spawns nothing.
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { staticImportGraph } from "../../../contour/tests/support/import-graph.ts";
import { probeLoad } from "../../../contour/tests/support/probe-load.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const entry = join(repoRoot, "packages/crew/src/extension/index.ts");
const STARTUP_BYTE_BUDGET = 32 * 1024;

describe("crew startup", () => {
	it(`static imports stay within ${STARTUP_BYTE_BUDGET} bytes, with no third-party package`, () => {
		const { modules, external } = staticImportGraph(entry, repoRoot);
		const total = modules.reduce((sum, m) => sum + m.bytes, 0);
		const listing = modules.map((m) => `${relative(repoRoot, m.path)} ${m.bytes}`).join("\n");
		assert.ok(total <= STARTUP_BYTE_BUDGET, `crew loads ${total} bytes at startup:\n${listing}`);
		assert.deepEqual(external, []);
		assert.ok(modules.length >= 3, "the walker followed the entry's imports");
	});

	it("no runtime, state, definitions, worktree or discovery module is imported at startup", () => {
		const { modules } = staticImportGraph(entry, repoRoot);
		const forbidden = /\/(runtime|state|definitions|worktree|engine)\/|discovery\.ts$|crew-session\.ts$/;
		assert.deepEqual(
			modules.map((m) => relative(repoRoot, m.path)).filter((p) => forbidden.test(p)),
			[],
		);
	});

	it("importing the entry and running its factory touches no file and spawns nothing", () => {
		const report = probeLoad(entry);
		assert.deepEqual(report.fsCalls, []);
		assert.deepEqual(report.spawns, []);
		assert.deepEqual(report.handlers.sort(), [
			"before_agent_start",
			"model_select",
			"session_shutdown",
			"session_start",
			// The reports' entry renderer (pi-fovea/subcommands) loads at session start, before restored entries draw.
			"session_start",
		]);
		assert.deepEqual(report.commands, ["team"]);
	});
});
