/**
 * Attention on files, line ranges and symbols (`engine/model/attention-keys.ts`) and the heat a dwell seeds from it
 * (`attentionSeeds`, `CodeMap.dwell`). Issue: "Attention: which files and symbols the agent read, searched, edited or
 * focused".
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { attentionKey, attentionTarget, describeAttention } from "../../src/engine/model/attention-keys.ts";
import { attentionSeeds } from "../../src/engine/rank/seeds.ts";
import { tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

const STORE = [
	"export class Store {",
	"\tload(id: string): string {",
	"\t\treturn read(id);",
	"\t}",
	"",
	"\tsave(id: string, value: string): void {",
	"\t\twrite(id, value);",
	"\t}",
	"}",
	"",
	"export function read(id: string): string {",
	"\treturn id;",
	"}",
	"",
	"export function write(id: string, value: string): void {",
	"\tconsole.log(id, value);",
	"}",
	"",
].join("\n");

async function storeMap(): Promise<CodeMap> {
	const root = await temps.make();
	await writeTree(root, {
		"src/store.ts": STORE,
		"src/other/read.ts": "export function read(): number {\n\treturn 1;\n}\n",
	});
	const map = new CodeMap(root, { cache: false });
	await map.refresh();
	return map;
}

describe("attention keys", () => {
	it("name a path, a range of its lines or the symbols of a name within it, and read back", () => {
		for (const target of [
			{ path: "src/a.ts" },
			{ path: "src/a.ts", lines: [10, 24] as const },
			{ path: "src", symbol: "applyTax" },
			{ path: "odd#name:1-2.ts" },
		]) {
			assert.deepEqual(attentionTarget(attentionKey(target)), target);
		}
		assert.equal(describeAttention(attentionKey({ path: "src/a.ts", lines: [10, 24] })), "src/a.ts:10-24");
		assert.equal(describeAttention(attentionKey({ path: "src", symbol: "applyTax" })), "applyTax in src");
		assert.equal(describeAttention(attentionKey({ path: ".", symbol: "applyTax" })), "applyTax");
	});
});

describe("attentionSeeds", () => {
	it("seeds the symbols a line range overlaps beside its file, and a name's symbols within the path", async () => {
		const map = await storeMap();
		const { graph } = await map.refresh({ paths: [] });
		const nodes = graph.graph.nodes;
		const named = (seeds: Map<number, number>) =>
			[...seeds].map(([id, mass]) => [nodes[id]?.kind === "file" ? nodes[id]?.path : nodes[id]?.name, mass]);

		const save = attentionSeeds(graph, [[attentionKey({ path: "src/store.ts", lines: [6, 8] }), 1]]);
		assert.deepEqual(named(save).sort(), [
			["save", 0.5],
			["src/store.ts", 0.5],
		]);
		const middle = attentionSeeds(graph, [[attentionKey({ path: "src/store.ts", lines: [7, 7] }), 1]]);
		assert.deepEqual(
			named(middle).sort(),
			named(save).sort(),
			"a line inside a method attends the method, not its class",
		);
		const whole = attentionSeeds(graph, [[attentionKey({ path: "src/store.ts", lines: [1, 9] }), 1]]);
		assert.deepEqual(named(whole).sort(), [
			["Store", 0.5 / 3],
			["load", 0.5 / 3],
			["save", 0.5 / 3],
			["src/store.ts", 0.5],
		]);
		const blank = attentionSeeds(graph, [[attentionKey({ path: "src/store.ts", lines: [14, 14] }), 1]]);
		assert.deepEqual(named(blank), [["src/store.ts", 1]], "a range over no symbol seeds its file");

		const searched = attentionSeeds(graph, [[attentionKey({ path: "src/other", symbol: "read" }), 1]]);
		assert.deepEqual(
			[...searched.keys()].map((id) => nodes[id]?.path),
			["src/other/read.ts"],
			"only the read within the searched path",
		);
		const everywhere = attentionSeeds(graph, [[attentionKey({ path: ".", symbol: "read" }), 1]]);
		assert.equal(everywhere.size, 2);
		assert.deepEqual(
			attentionSeeds(graph, [
				[attentionKey({ path: "gone.ts" }), 1],
				[attentionKey({ path: ".", symbol: "gone" }), 1],
			]).size,
			0,
			"what no longer resolves seeds nothing",
		);
	});

	it("a dwell on a range of lines ranks the symbol read there first, and says where it dwells", async () => {
		const map = await storeMap();
		const onSave = await map.dwell([[attentionKey({ path: "src/store.ts", lines: [6, 8] }), 1]], 2, 1500);
		assert.equal(onSave.symbols[0]?.name, "Store.save");
		assert.match(onSave.text, /"around src\/store\.ts:6-8"/);
		const onRead = await map.dwell([[attentionKey({ path: "src/store.ts", lines: [11, 13] }), 1]], 2, 1500);
		assert.equal(onRead.symbols[0]?.name, "read");
	});
});
