// The work of one focus query on a graph larger than the diffusion's budget (`rank/bounded-heat.ts`): a word that
// matches most symbols seeds a bounded number of them, heat reaches a bounded number of nodes, and the products read
// the rows of that region only, not the whole graph, and the symbols are picked among that region; what the query names precisely still ranks first.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildGraph } from "../../src/engine/graph/build.ts";
import type { GraphLinks } from "../../src/engine/graph/model.ts";
import { callSitesOf, type FileFacts } from "../../src/engine/model/facts.ts";
import { HEAT_BUDGET } from "../../src/engine/rank/bounded-heat.ts";
import { focus, prepareGraph } from "../../src/engine/rank/focus.ts";
import { file, fn } from "../support/hand-facts.ts";

const links: GraphLinks = {
	imports: (f) => f.imports.map((i) => `${i.specifier.replace(/^\.\//, "")}.ts`),
	subjects: () => [],
};

/** `files` files of `perFile` symbols each, every one named `handle…`, each file importing and calling the one before. */
function corpus(files: number, perFile: number): FileFacts[] {
	const out: FileFacts[] = [];
	for (let f = 0; f < files; f++) {
		const names = Array.from({ length: perFile }, (_, k) => `handleItem${f}x${k}`);
		if (f === 1234) names[0] = "renderGadget";
		out.push(
			file(`src/m${f}.ts`, {
				symbols: names.map((name, k) => fn(name, 1 + 10 * k)),
				imports: f === 0 ? [] : [{ specifier: `./m${f - 1}`, line: 1 }],
				calls:
					f === 0
						? callSitesOf([])
						: callSitesOf([{ callee: `handleItem${f - 1}x1`, line: 3, caller: names[1] as string }]),
			}),
		);
	}
	return out;
}

describe("focus work on a graph larger than the heat budget", () => {
	it("seeds, heats and reads a bounded share of the graph for a word most symbols carry", () => {
		const graph = buildGraph(corpus(2000, 35), links);
		assert.ok(graph.nodes.length > HEAT_BUDGET, `${graph.nodes.length} nodes`);
		const prepared = prepareGraph(graph);
		const result = focus(prepared, { text: "handle item renderGadget" });
		assert.ok(result.seededNodes > HEAT_BUDGET, `${result.seededNodes} nodes match the words`);
		const { stats } = result;
		assert.ok((stats.seedsDiffused ?? Number.POSITIVE_INFINITY) <= HEAT_BUDGET / 2, `${stats.seedsDiffused} seeds`);
		assert.ok((stats.touched ?? Number.POSITIVE_INFINITY) <= HEAT_BUDGET, `${stats.touched} nodes with heat`);
		// A dense diffusion reads every row entry in each product.
		const dense = stats.products * graph.targets.length;
		assert.ok((stats.edgeVisits ?? Number.POSITIVE_INFINITY) < dense, `${stats.edgeVisits} of ${dense} entries`);
		// The symbols' selection reads the nodes with heat (no route is named), not every node.
		assert.equal(result.symbolsRead, stats.touched);
		assert.equal(graph.nodes[result.symbols[0]?.id as number]?.name, "renderGadget");
		assert.equal(graph.nodes[result.files[0]?.id as number]?.path, "src/m1234.ts");
	});
	it("reads the nodes a query seeds, not every node, to mix, count and list its seeds", () => {
		const graph = buildGraph(corpus(2000, 35), links);
		const prepared = prepareGraph(graph);
		focus(prepared, { text: "handle item" });
		const read = prepared.seeds.nodesRead;
		const result = focus(prepared, { text: "renderGadget" });
		assert.equal(graph.nodes[result.symbols[0]?.id as number]?.name, "renderGadget");
		const seedsRead = prepared.seeds.nodesRead - read;
		assert.ok(
			seedsRead > 0 && seedsRead <= 10 * result.seededNodes,
			`${seedsRead} nodes read, ${result.seededNodes} seeded`,
		);
		assert.ok(seedsRead < graph.nodes.length / 100, `${seedsRead} of ${graph.nodes.length} nodes`);
	});
});
