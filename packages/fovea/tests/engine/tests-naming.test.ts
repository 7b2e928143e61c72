/**
 * Tests that name what a change defines (`rank/tests-naming.ts`), and how impact fuses them (`rank/impact-fusion.ts`):
 * a test no edge links (it reaches the module through a package entry point) but whose text holds the changed
 * file's names ranks by how rare those names are; production files that name them, private names, names most files
 * hold and the names a changed test defines count for nothing. Pure: hand facts, a graph and a content index.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildGraph } from "../../src/engine/graph/build.ts";
import type { FileFacts } from "../../src/engine/model/facts.ts";
import { ContentIndex } from "../../src/engine/rank/content-index.ts";
import type { Reach } from "../../src/engine/rank/dependent-reach.ts";
import { fuseImpact, namingText } from "../../src/engine/rank/impact-fusion.ts";
import { testsNaming } from "../../src/engine/rank/tests-naming.ts";
import { contentTerms } from "../../src/engine/terms/content.ts";
import { file, fn } from "../support/hand-facts.ts";

/** A file with `text` as its content terms and `names` defined at its top level. */
function withText(path: string, text: string, names: string[] = []): FileFacts {
	return file(path, { symbols: names.map((name, i) => fn(name, i * 10 + 1)), contentTerms: contentTerms(text) });
}

const FILES = [
	withText("src/renderer.ts", "export function createRenderer options patch", [
		"createRenderer",
		"RendererOptions",
		"_flushQueue",
		"patch",
	]),
	withText("src/index.ts", "export createRenderer from renderer; patch"),
	withText(
		"tests/optimized.spec.ts",
		"const r = createRenderer(nodeOps as RendererOptions) from runtime test; patch it",
	),
	withText("tests/patching.spec.ts", "patch a node, patch it again"),
	withText("tests/flush.spec.ts", "flushQueue runs jobs; patch"),
	withText("tests/unrelated.spec.ts", "nothing in common here but patch"),
	withText("src/patch-util.ts", "patch helpers"),
	withText("tests/helpers.spec.ts", "helpers for specs", ["createRenderer"]),
];
const graph = buildGraph(FILES, { imports: () => [], subjects: () => [] });
const content = new ContentIndex(FILES.map((f) => [graph.fileNode.get(f.path) as number, f] as const));
const id = (path: string) => graph.fileNode.get(path) as number;
const pathOf = (n: number) => graph.nodes[n]?.path;

describe("tests naming what a change defines", () => {
	it("ranks tests by the rarity of the changed file's top-level names they hold; production files never", () => {
		const found = testsNaming(graph, content, [id("src/renderer.ts")], 10);
		// RendererOptions: 1 holder beside the change; createRenderer: 3 (src/index.ts is production); patch: 6 of 8
		// files, over half, tells none apart.
		assert.deepEqual(
			found.map((t) => pathOf(t.id)),
			["tests/optimized.spec.ts", "tests/helpers.spec.ts"],
		);
		assert.deepEqual(found[0]?.names, ["RendererOptions", "createRenderer"], "rarest first");
		assert.deepEqual(found[1]?.names, ["createRenderer"]);
		assert.ok((found[0]?.score ?? 0) > (found[1]?.score ?? 0) && (found[1]?.score ?? 0) > 0);
		// _flushQueue is private to its file: flush.spec.ts holds its words but is not listed.
		assert.ok(!found.some((t) => pathOf(t.id) === "tests/flush.spec.ts"));
	});

	it("takes no names from a changed test: its cases would only find tests written like it", () => {
		assert.deepEqual(testsNaming(graph, content, [id("tests/helpers.spec.ts")], 10), []);
	});

	it("fuses the naming tests as a fourth signal, weaker than the reach's sure test, with their names as evidence", () => {
		const reach: Reach = {
			files: [{ id: id("tests/patching.spec.ts"), score: 0.9, reasons: 1 }],
			symbols: [],
			dependsOn: [],
			seededNodes: 1,
		};
		const named = testsNaming(graph, content, [id("src/renderer.ts")], 10);
		const fused = fuseImpact(reach, graph, { named }, { changed: new Set(["src/renderer.ts"]) });
		assert.deepEqual(
			fused.files.map((f) => pathOf(f.id)),
			["tests/patching.spec.ts", "tests/optimized.spec.ts", "tests/helpers.spec.ts"],
		);
		const optimized = fused.files.find((f) => pathOf(f.id) === "tests/optimized.spec.ts");
		assert.deepEqual(optimized?.named, { names: ["RendererOptions", "createRenderer"] });
		assert.equal(namingText({ names: ["createRenderer", "patch"] }), "holds the words of createRenderer, patch");
	});
});
