/**
 * How impact fuses its signals (`rank/impact-fusion.ts`): by reciprocal rank, each credit weighed by how sure its own
 * signal is of that file, so a signal's first file with thin evidence (a file two imports away, a file that changed
 * with the change once) yields to another signal's first file with strong evidence. Pure: a graph from hand facts
 * and hand-made signals.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildGraph } from "../../src/engine/graph/build.ts";
import type { CodeGraph } from "../../src/engine/graph/model.ts";
import type { Reach } from "../../src/engine/rank/dependent-reach.ts";
import { fuseImpact } from "../../src/engine/rank/impact-fusion.ts";
import { file } from "../support/hand-facts.ts";

const graph: CodeGraph = buildGraph(
	["changed.ts", "far.ts", "ledger.ts", "once.ts", "test.ts"].map((path) => file(path)),
	{ imports: () => [], subjects: () => [] },
);
const id = (path: string) => graph.fileNode.get(path) as number;
const paths = (reach: Reach) => reach.files.map((f) => graph.nodes[f.id]?.path);
const changed = new Set(["changed.ts"]);

/** A reach of `files` with their scores, best first, as `dependent-reach.ts` gives it. */
function reachOf(files: [string, number][]): Reach {
	return {
		files: files.map(([path, score]) => ({ id: id(path), score, reasons: 1 })),
		symbols: [],
		dependsOn: [],
		seededNodes: 1,
	};
}

describe("impact fusion", () => {
	it("weighs each signal's credit by its own sureness: a weak reach yields to a file that kept changing with it", () => {
		// far.ts is the reach's first, but two imports away (0.25); ledger.ts changed with the change 4 times.
		const fused = fuseImpact(
			reachOf([["far.ts", 0.25]]),
			graph,
			{ coupled: [{ id: id("ledger.ts"), count: 4, weight: 4, commits: 6 }], window: 10 },
			{ changed },
		);
		assert.deepEqual(paths(fused), ["ledger.ts", "far.ts"]);
		assert.deepEqual(fused.files[0]?.coupling, { count: 4, window: 10 });
		// With equal credits both would tie at 1/(K+1) and the lower node id (far.ts) would come first.
		assert.ok(id("far.ts") < id("ledger.ts"));
	});

	it("ranks a sure dependent (its test) before a file that changed with it once", () => {
		const fused = fuseImpact(
			reachOf([["test.ts", 0.9]]),
			graph,
			{ coupled: [{ id: id("once.ts"), count: 1, weight: 1, commits: 3 }], window: 10 },
			{ changed },
		);
		assert.deepEqual(paths(fused), ["test.ts", "once.ts"]);
		// With equal credits both would tie at 1/(K+1) and the lower node id (once.ts) would come first.
		assert.ok(id("once.ts") < id("test.ts"));
	});
});
