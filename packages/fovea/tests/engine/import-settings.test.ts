/**
 * Import aliases that a root's `tsconfig.json` takes from a configuration it extends reach the graph, and an edit to
 * any of those settings files rebuilds it at the next query, though no source file changed. In a monorepo each
 * package's own configuration decides how its files' aliases resolve.
 */
import assert from "node:assert/strict";
import { utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CodeGraph } from "../../src/engine/graph/model.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

/** Files linked to `path` (imports either way: nothing else links two files in these roots). */
function linked(graph: CodeGraph, path: string): (string | undefined)[] {
	const id = graph.fileNode.get(path) as number;
	const targets = [...graph.targets.slice(graph.offsets[id], graph.offsets[id + 1])];
	return targets.filter((node) => node < graph.fileCount).map((node) => graph.nodes[node]?.path);
}

describe("import settings", () => {
	it("resolves paths from an extended tsconfig, and rebuilds when an extended file changes", async () => {
		const root = await temps.make();
		await writeTree(root, {
			"tsconfig.json": '{ "extends": "./tsconfig.base.json", "compilerOptions": { "strict": true } }',
			"tsconfig.base.json": '{ "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["lib/*"] } } }',
			"src/app.ts": 'import { util } from "@lib/util";\nexport function main() {\n\treturn util();\n}\n',
			"lib/util.ts": "export function util() {\n\treturn 1;\n}\n",
		});
		const map = new CodeMap(root, { cache: false });
		const first = await map.refresh();
		assert.equal(first.graph.graph.edgeCounts.imports, 1, "src/app.ts imports lib/util.ts through the alias");
		assert.equal(map.stats.graphsBuilt, 1);

		await map.refresh({ paths: [] });
		assert.equal(map.stats.graphsBuilt, 1, "nothing changed: the graph stands");

		const base = join(root, "tsconfig.base.json");
		await writeFile(base, '{ "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["vendor/*"] } } }');
		const later = new Date(Date.now() + 5000);
		await utimes(base, later, later);
		const second = await map.refresh({ paths: [] });
		assert.equal(map.stats.graphsBuilt, 2, "an edit to the extended configuration rebuilt the graph");
		assert.equal(second.graph.graph.edgeCounts.imports, 0, "the alias now names no file of the root");
	});

	it("refreshFacts gives the facts and the same resolution without a graph; a later query builds it once", async () => {
		const root = await temps.make();
		await writeTree(root, {
			"tsconfig.json": '{ "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["lib/*"] } } }',
			"src/app.ts": 'import { util } from "@lib/util";\nexport function main() {\n\treturn util();\n}\n',
			"lib/util.ts": "export function util() {\n\treturn 1;\n}\n",
		});
		const map = new CodeMap(root, { cache: false });
		const { snapshot, resolution } = await map.refreshFacts();
		assert.deepEqual([...snapshot.files.keys()].sort(), ["lib/util.ts", "src/app.ts"]);
		assert.equal(map.stats.graphsBuilt, 0, "facts only");
		assert.equal(map.index.stats.filesParsed, 2);
		assert.deepEqual(resolution, await map.importResolution(), "the resolution the graph itself uses");
		assert.equal(map.stats.graphsBuilt, 1);
		assert.equal(map.index.stats.filesParsed, 2, "the graph took the facts already read");
		await map.refreshFacts({ paths: [] });
		assert.equal(map.stats.graphsBuilt, 1, "a graph of this generation stands");

		// A file added and read by refreshFacts: the next graph is built for the new set of files, not patched.
		await writeFile(join(root, "lib/extra.ts"), 'import { util } from "@lib/util";\nexport const extra = util();\n');
		const { snapshot: grown } = await map.refreshFacts({ paths: ["lib/extra.ts"] });
		assert.equal(grown.files.size, 3);
		const { graph } = await map.refresh({ paths: [] });
		assert.deepEqual(linked(graph.graph, "lib/extra.ts"), ["lib/util.ts"], "the new file's import is in the graph");
	});

	it("a package's own tsconfig decides its aliases; one added later is found by the next walk", async () => {
		const root = await temps.make();
		const app = 'import { util } from "@/util";\nexport function main() {\n\treturn util();\n}\n';
		const util = "export function util() {\n\treturn 1;\n}\n";
		await writeTree(root, {
			"tsconfig.json": '{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["shared/*"] } } }',
			"shared/util.ts": util,
			"packages/web/tsconfig.json": '{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } } }',
			"packages/web/src/app.ts": app,
			"packages/web/src/util.ts": util,
			"packages/api/src/app.ts": app,
			"packages/api/src/util.ts": util,
		});
		const map = new CodeMap(root, { cache: false });
		const first = await map.refresh();
		assert.deepEqual(linked(first.graph.graph, "packages/web/src/app.ts"), ["packages/web/src/util.ts"]);
		assert.deepEqual(
			linked(first.graph.graph, "packages/api/src/app.ts"),
			["shared/util.ts"],
			"no configuration of its own: the root's aliases",
		);

		await writeTree(root, {
			"packages/api/tsconfig.json": '{ "compilerOptions": { "baseUrl": "src", "paths": { "@/*": ["*"] } } }',
		});
		const second = await map.refresh({ fresh: true });
		assert.equal(map.stats.graphsBuilt, 2, "the walk found a new configuration: the graph was built again");
		assert.deepEqual(linked(second.graph.graph, "packages/api/src/app.ts"), ["packages/api/src/util.ts"]);

		const web = join(root, "packages/web/tsconfig.json");
		await writeFile(web, '{ "compilerOptions": { "strict": true } }');
		const later = new Date(Date.now() + 5000);
		await utimes(web, later, later);
		const third = await map.refresh({ paths: [] });
		assert.equal(map.stats.graphsBuilt, 3, "an edit to a package's configuration rebuilt the graph");
		assert.deepEqual(
			linked(third.graph.graph, "packages/web/src/app.ts"),
			[],
			"a configuration without aliases governs its package: the root's do not apply",
		);
	});

	it("an import of another package of the monorepo by its name links to that package's sources", async () => {
		const root = await temps.make();
		await writeTree(root, {
			"package.json": '{ "name": "acme", "private": true, "workspaces": ["packages/*"] }',
			"packages/lib/package.json": '{ "name": "@acme/lib", "main": "dist/index.js", "types": "dist/index.d.ts" }',
			"packages/lib/src/index.ts": "export function util() {\n\treturn 1;\n}\n",
			"packages/app/package.json": '{ "name": "@acme/app" }',
			"packages/app/src/main.ts": 'import { util } from "@acme/lib";\nexport const main = () => util();\n',
		});
		const map = new CodeMap(root, { cache: false });
		const first = await map.refresh();
		assert.deepEqual(linked(first.graph.graph, "packages/app/src/main.ts"), ["packages/lib/src/index.ts"]);

		const manifest = join(root, "packages/lib/package.json");
		await writeFile(manifest, '{ "name": "@acme/core", "main": "dist/index.js" }');
		const later = new Date(Date.now() + 5000);
		await utimes(manifest, later, later);
		const second = await map.refresh({ paths: [] });
		assert.equal(map.stats.graphsBuilt, 2, "a renamed package rebuilt the graph");
		assert.deepEqual(linked(second.graph.graph, "packages/app/src/main.ts"), [], "@acme/lib is no package any more");
	});

	it("a `#` subpath import links through its package's `imports`; an edit to them rebuilds the graph", async () => {
		const root = await temps.make();
		await writeTree(root, {
			"package.json": '{ "name": "acme", "private": true }',
			"packages/api/package.json": '{ "name": "@acme/api", "imports": { "#db/*": "./dist/db/*.js" } }',
			"packages/api/src/db/pool.ts": "export function connect() {\n\treturn 1;\n}\n",
			"packages/api/src/db/replica.ts": "export function connect() {\n\treturn 2;\n}\n",
			"packages/api/src/server.ts": 'import { connect } from "#db/pool";\nexport const serve = () => connect();\n',
		});
		const map = new CodeMap(root, { cache: false });
		const first = await map.refresh();
		assert.deepEqual(linked(first.graph.graph, "packages/api/src/server.ts"), ["packages/api/src/db/pool.ts"]);

		const manifest = join(root, "packages/api/package.json");
		await writeFile(manifest, '{ "name": "@acme/api", "imports": { "#db/pool": "./src/db/replica.ts" } }');
		const later = new Date(Date.now() + 5000);
		await utimes(manifest, later, later);
		const second = await map.refresh({ paths: [] });
		assert.equal(map.stats.graphsBuilt, 2, "an edit to the imports rebuilt the graph");
		assert.deepEqual(linked(second.graph.graph, "packages/api/src/server.ts"), ["packages/api/src/db/replica.ts"]);
	});

	it("a Go module in a subdirectory resolves its imports; its go.mod is found by the walk and stamped", async () => {
		const root = await temps.make();
		await writeTree(root, {
			"web/package.json": '{ "name": "web" }',
			"backend/go.mod": "module github.com/acme/backend\n\ngo 1.22\n",
			"backend/cmd/main.go": 'package main\n\nimport "github.com/acme/backend/store"\n\nfunc main() { store.Open() }\n',
			"backend/store/store.go": "package store\n\nfunc Open() {}\n",
		});
		const map = new CodeMap(root, { cache: false });
		const first = await map.refresh();
		assert.deepEqual(linked(first.graph.graph, "backend/cmd/main.go"), ["backend/store/store.go"]);
		const goMod = join(root, "backend/go.mod");
		await writeFile(goMod, "module github.com/acme/server\n");
		const later = new Date(Date.now() + 5000);
		await utimes(goMod, later, later);
		const second = await map.refresh({ paths: [] });
		assert.equal(map.stats.graphsBuilt, 2, "an edited go.mod rebuilt the graph");
		assert.deepEqual(linked(second.graph.graph, "backend/cmd/main.go"), [], "the import names another module now");
	});

	it("a Rust path naming another crate of the workspace links to that crate's module", async () => {
		const root = await temps.make();
		await writeTree(root, {
			"Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n',
			"crates/core/Cargo.toml": '[package]\nname = "acme-core"\nversion = "0.1.0"\n',
			"crates/core/src/lib.rs": "pub mod parse;\n",
			"crates/core/src/parse.rs": "pub fn run() {}\n",
			"crates/app/Cargo.toml": '[package]\nname = "acme-app"\n',
			"crates/app/src/main.rs": "use acme_core::parse::run;\n\nfn main() {\n    run();\n}\n",
		});
		const map = new CodeMap(root, { cache: false });
		const { graph } = await map.refresh();
		assert.deepEqual(linked(graph.graph, "crates/app/src/main.rs"), ["crates/core/src/parse.rs"]);
	});

	it("with a quiet change watch, the walk's settings files are not stat-checked again; an edit to one is seen", async () => {
		const root = await temps.make();
		const packages: Record<string, string> = {};
		for (let i = 0; i < 20; i++) {
			packages[`packages/p${i}/package.json`] = `{ "name": "@acme/p${i}" }`;
			packages[`packages/p${i}/src/index.ts`] = `export const p${i} = ${i};\n`;
		}
		await writeTree(root, {
			...packages,
			"apps/web/main.ts": 'import { p1 } from "@acme/p1";\nexport const main = () => p1;\n',
		});
		const map = new CodeMap(root, { cache: false, watch: true });
		try {
			await map.refresh();
			await map.refresh(); // the new watches are verified by one more walk
			const before = map.stats.settingsStatted;
			for (let i = 0; i < 3; i++) await map.refresh();
			assert.ok(map.watch?.healthy);
			// The three root defaults (tsconfig.json, go.mod, jsconfig.json) per query, none of the 20 manifests.
			assert.equal(map.stats.settingsStatted - before, 3 * 3);

			await writeFile(join(root, "packages/p1/package.json"), '{ "name": "@acme/renamed" }');
			const { graph } = await map.refresh();
			assert.equal(map.stats.graphsBuilt, 2, "the watch named the manifest: checked, changed, rebuilt");
			assert.deepEqual(linked(graph.graph, "apps/web/main.ts"), []);
		} finally {
			await map.close();
		}
	});

	it("a Python import of another project of the monorepo links to its module", async () => {
		const root = await temps.make();
		await writeTree(root, {
			"libs/core/pyproject.toml": '[project]\nname = "acme-core"\n',
			"libs/core/src/acme_core/__init__.py": "",
			"libs/core/src/acme_core/db.py": "def connect():\n    return 1\n",
			"services/api/pyproject.toml": '[project]\nname = "acme-api"\n',
			"services/api/acme_api/main.py": "from acme_core.db import connect\n\nconnect()\n",
		});
		const map = new CodeMap(root, { cache: false });
		const { graph } = await map.refresh();
		assert.deepEqual(linked(graph.graph, "services/api/acme_api/main.py"), ["libs/core/src/acme_core/db.py"]);
	});
});
