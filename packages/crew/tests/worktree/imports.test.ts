// Worktree mode needs Git and nothing else of pi-fovea: its modules' static import graph reaches pi-fovea/git (and
// pi-fovea/printable, one module that imports nothing, for escaping what a listing shows) and Node built-ins only,
// never the engine, its parser or its grammar packages. Loading pi-fovea/engine for the Git runner
// loaded every engine module and web-tree-sitter.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { staticImportGraph } from "../../../contour/tests/support/import-graph.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const worktreeDir = join(repoRoot, "packages/crew/src/worktree");
const FOVEA_ALLOWED = ["packages/fovea/src/engine/git/", "packages/fovea/src/cli/printable.ts"];
const allowedFovea = (p: string) => FOVEA_ALLOWED.some((allowed) => p.startsWith(allowed));

test("imports: every worktree module reaches only pi-fovea/git of pi-fovea, and no third-party package", () => {
	const entries = readdirSync(worktreeDir).filter((name) => name.endsWith(".ts"));
	assert.ok(entries.includes("index.ts") && entries.includes("git.ts"));
	for (const name of entries) {
		const { modules, external } = staticImportGraph(join(worktreeDir, name), repoRoot);
		const paths = modules.map((m) => relative(repoRoot, m.path));
		const fovea = paths.filter((p) => p.startsWith("packages/fovea/"));
		assert.deepEqual(
			fovea.filter((p) => !allowedFovea(p)),
			[],
			`${name} reaches pi-fovea beyond its Git runner`,
		);
		assert.deepEqual(external, [], `${name} reaches a third-party package`);
		assert.ok(
			paths.every((p) => p.startsWith("packages/crew/src/") || allowedFovea(p)),
			`${name}: ${paths.join(", ")}`,
		);
	}
	const index = staticImportGraph(join(worktreeDir, "index.ts"), repoRoot).modules.map((m) =>
		relative(repoRoot, m.path),
	);
	assert.ok(index.includes("packages/fovea/src/engine/git/run.ts"), "the walker followed pi-fovea/git");
});
