// The impact reach over a small graph built from hand-written facts: it follows edges from the change to what
// depends on it (never to what the change depends on), decays per hop by relation, keeps the strongest path as
// evidence, trusts guessed links less, and lists the change's own dependencies apart.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildGraph } from "../../src/engine/graph/build.ts";
import type { CodeGraph, GraphLinks } from "../../src/engine/graph/model.ts";
import { callSitesOf } from "../../src/engine/model/facts.ts";
import { dependentReach, RELATION_DECAY, type Reach } from "../../src/engine/rank/dependent-reach.ts";
import { whyOf } from "../../src/engine/render/impact.ts";
import { file, fn } from "../support/hand-facts.ts";

const imports = (...names: string[]) => names.map((name, i) => ({ specifier: `./${name}`, line: i + 1 }));

/** Imports `./x` resolve to `x.ts`; `x.test.ts` tests `x.ts`, then `helpers.ts` (a second, guessed subject). */
const links: GraphLinks = {
	imports: (f) => f.imports.map((i) => `${i.specifier.replace(/^\.\//, "")}.ts`),
	subjects: (path) => (path.endsWith(".test.ts") ? [path.replace(/\.test\.ts$/, ".ts"), "helpers.ts"] : []),
};

/** top imports mid and calls midValue; mid imports low and calls lowValue; low.test tests low; sub extends Base. */
const graph: CodeGraph = buildGraph(
	[
		file("low.ts", { symbols: [fn("lowValue", 1), { ...fn("Base", 10), kind: "class" }, fn("spare", 20)] }),
		file("mid.ts", {
			symbols: [fn("midValue", 1)],
			imports: imports("low"),
			calls: callSitesOf([{ callee: "lowValue", line: 2, caller: "midValue" }]),
		}),
		file("top.ts", {
			symbols: [fn("topValue", 1)],
			imports: imports("mid"),
			calls: callSitesOf([{ callee: "midValue", line: 2, caller: "topValue" }]),
		}),
		file("low.test.ts", {
			symbols: [fn("checksLow", 1)],
			imports: imports("low"),
			calls: callSitesOf([{ callee: "lowValue", line: 2, caller: "checksLow" }]),
		}),
		file("sub.ts", {
			symbols: [{ ...fn("Sub", 1), kind: "class" }],
			imports: imports("low"),
			inherits: [{ symbol: "Sub", base: "Base", line: 1, relation: "extends" }],
		}),
		file("shape.ts", { symbols: [{ ...fn("Shape", 1), kind: "interface" }] }),
		file("circle.ts", {
			symbols: [{ ...fn("Circle", 1), kind: "class" }],
			imports: imports("shape"),
			inherits: [{ symbol: "Circle", base: "Shape", line: 1, relation: "implements" }],
		}),
		file("helpers.ts", { symbols: [fn("helper", 1)] }),
		file("guess.ts", {
			symbols: [fn("guesser", 1)],
			calls: callSitesOf([{ callee: "helper", line: 2, caller: "guesser" }]),
		}),
	],
	links,
);

const id = (path: string) => graph.fileNode.get(path) as number;
const symbol = (name: string) => graph.byName.get(name) as number;
const paths = (reach: Reach) => reach.files.map((r) => graph.nodes[r.id]?.path);
const why = (reach: Reach, path: string) => {
	const found = reach.files.find((r) => r.id === id(path));
	return found?.evidence === undefined ? undefined : whyOf(graph, found.evidence);
};
const scoreOf = (reach: Reach, path: string) => reach.files.find((r) => r.id === id(path))?.score;

describe("dependent reach", () => {
	it("a change to low reaches mid directly and top through mid, with evidence", () => {
		const reach = dependentReach(graph, { changed: [id("low.ts")] });
		const found = paths(reach);
		for (const path of ["mid.ts", "top.ts", "low.test.ts", "sub.ts"]) assert.ok(found.includes(path), found.join());
		assert.ok(!found.includes("low.ts"), "the change itself is not exposure");
		assert.equal(why(reach, "mid.ts"), "calls lowValue");
		assert.equal(why(reach, "low.test.ts"), "tests it");
		assert.equal(why(reach, "sub.ts"), "subclass of Base");
		assert.equal(why(reach, "top.ts"), "via mid.ts (calls midValue)");
		assert.equal(reach.files.find((r) => r.id === id("top.ts"))?.evidence?.hops, 2);
		assert.equal(scoreOf(reach, "mid.ts"), RELATION_DECAY.calls);
		assert.equal(scoreOf(reach, "top.ts"), RELATION_DECAY.calls * RELATION_DECAY.calls);
		assert.equal(found[0], "low.test.ts", "a test of the change ranks first");
		assert.deepEqual(reach.dependsOn, []);
	});

	it("a change to top exposes nothing: what it depends on is listed apart, never ranked", () => {
		const reach = dependentReach(graph, { changed: [id("top.ts")] });
		assert.deepEqual(paths(reach), []);
		assert.deepEqual(reach.symbols, []);
		assert.deepEqual(
			reach.dependsOn.map((d) => [graph.nodes[d.id]?.path, d.relation]),
			[["mid.ts", "calls"]],
		);
		assert.equal(reach.seededNodes, 2, "top.ts and its one symbol");
	});

	it("a changed symbol reaches its own dependents, not those of the other symbols of its file", () => {
		const reach = dependentReach(graph, { changed: [symbol("Base")] });
		assert.deepEqual(paths(reach), ["sub.ts"]);
		assert.equal(why(reach, "sub.ts"), "subclass of Base");
		assert.deepEqual(
			reach.symbols.map((r) => graph.nodes[r.id]?.name),
			["Sub"],
		);
	});

	it("implementers say so", () => {
		const reach = dependentReach(graph, { changed: [id("shape.ts")] });
		assert.equal(paths(reach)[0], "circle.ts");
		assert.equal(why(reach, "circle.ts"), "implements Shape");
	});

	it("guessed links count a third: a call matched by name alone, a test's subject other than its nearest", () => {
		const reach = dependentReach(graph, { changed: [id("helpers.ts")] });
		const guessed = scoreOf(reach, "guess.ts") as number;
		assert.ok(Math.abs(guessed - RELATION_DECAY.calls / 3) < 1e-9, `${guessed}`);
		const test = scoreOf(reach, "low.test.ts") as number;
		assert.ok(Math.abs(test - RELATION_DECAY.tests / 3) < 1e-9, `${test}`);
	});

	it("a deleted file's importers are exposed first, and what depends on them after", () => {
		const reach = dependentReach(graph, { changed: [], importersOfGone: [id("mid.ts")] });
		assert.deepEqual(paths(reach).slice(0, 2), ["mid.ts", "top.ts"]);
		assert.equal(why(reach, "mid.ts"), "imports a deleted file");
	});

	it("is built once per graph generation and follows the edges' direction, not the symmetric rows", () => {
		assert.equal(graph.directed.dependents(), graph.directed.dependents());
		const rows = graph.directed.dependents();
		const low = id("low.ts");
		const dependents = new Set<number>();
		for (let e = rows.offsets[low] as number; e < (rows.offsets[low + 1] as number); e++)
			dependents.add(rows.sources[e] as number);
		assert.deepEqual(
			[...dependents].map((n) => graph.nodes[n]?.path).sort(),
			["low.test.ts", "mid.ts", "sub.ts"],
			"importers and tests of low.ts; low.ts's own symbols are containment, not dependents",
		);
	});
});
