/**
 * Import aliases that a root's `tsconfig.json` takes from a configuration it extends reach the graph, and an edit to
 * any of those settings files rebuilds it at the next query, though no source file changed.
 */
import assert from "node:assert/strict";
import { utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { CodeMap } from "../../src/engine/code-map.ts";
import { makeTempDir, removeTempDir, writeTree } from "../support/temp-tree.ts";

const temps: string[] = [];
after(async () => {
	for (const dir of temps) await removeTempDir(dir);
});

describe("import settings", () => {
	it("resolves paths from an extended tsconfig, and rebuilds when an extended file changes", async () => {
		const root = await makeTempDir();
		temps.push(root);
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
});
