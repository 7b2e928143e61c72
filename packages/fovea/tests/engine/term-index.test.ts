/**
 * The term index: a file is found by the terms of its path, a symbol by those of its container and name, each node
 * once per term however often its text repeats it; patching node by node reads as a fresh index. Checked against
 * the plain definition (the distinct terms of the node's text, `container name` joined by a space).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { GraphNode } from "../../src/engine/graph/model.ts";
import { TermIndex } from "../../src/engine/rank/term-index.ts";
import { rememberedTerms, terms } from "../../src/engine/terms/query.ts";

const PARTS = ["parse", "Parse", "HTTP", "request", "Request", "2", "token", "x", "_", "-", "$", "Queue"];
const identifier = fc.array(fc.constantFrom(...PARTS), { minLength: 1, maxLength: 6 }).map((p) => p.join(""));

const node = fc.oneof(
	identifier.map((name): GraphNode => ({ kind: "file", path: `src/${name}.ts`, name, line: 1, endLine: 1 })),
	fc.record({ name: identifier, container: fc.option(identifier, { nil: undefined }) }).map(({ name, container }) => {
		const symbol: GraphNode = { kind: "function", path: "src/a.ts", name, line: 1, endLine: 2 };
		if (container !== undefined) symbol.container = container;
		return symbol;
	}),
);

/** The plain definition: which nodes carry each term. */
function expectedPostings(nodes: readonly GraphNode[]): Map<string, number[]> {
	const out = new Map<string, number[]>();
	nodes.forEach((n, id) => {
		const text = n.kind === "file" ? n.path : `${n.container ?? ""} ${n.name}`;
		for (const term of new Set(terms(text))) out.set(term, [...(out.get(term) ?? []), id]);
	});
	return out;
}

describe("TermIndex", () => {
	it("indexes each node under the distinct terms of its text, no more and no fewer", () => {
		fc.assert(
			fc.property(fc.array(node, { maxLength: 30 }), (nodes) => {
				const index = new TermIndex(nodes);
				const expected = expectedPostings(nodes);
				for (const [term, ids] of expected) assert.deepEqual([...index.postings(term)].sort(), ids, term);
				for (const word of ["parse", "http", "request", "token", "queue", "src", "ts", "absent"]) {
					assert.deepEqual([...index.postings(word)].sort(), expected.get(word) ?? [], word);
				}
			}),
			{ numRuns: 300 },
		);
	});

	it("removing and adding nodes back reads as a fresh index", () => {
		fc.assert(
			fc.property(fc.array(node, { minLength: 1, maxLength: 20 }), fc.array(fc.nat(19)), (nodes, drops) => {
				const index = new TermIndex(nodes);
				const gone = new Set(drops.filter((id) => id < nodes.length));
				for (const id of gone) index.remove(id, nodes[id] as GraphNode);
				const kept = nodes.map((n, id): GraphNode => (gone.has(id) ? { ...n, removed: true } : n));
				const fresh = new TermIndex(kept);
				for (const term of expectedPostings(nodes).keys()) {
					assert.deepEqual([...index.postings(term)].sort(), [...fresh.postings(term)].sort(), term);
					assert.equal(index.idf(term), fresh.idf(term), term);
				}
			}),
			{ numRuns: 200 },
		);
	});
});

describe("TermIndex.exact", () => {
	const NAMES = ["parseHTTP", "ParseHttp", "parsehttp", "Größe", "GRÖSSE", "größe", "İd", "i̇d", "token", "Token"];
	const symbol = fc
		.constantFrom(...NAMES)
		.map((name): GraphNode => ({ kind: "function", path: "src/a.ts", name, line: 1, endLine: 2 }));
	const file: GraphNode = { kind: "file", path: "src/parsehttp.ts", name: "parsehttp.ts", line: 1, endLine: 9 };

	/** The plain definition: the live symbols whose name lower-cased is the word's, in the order of the nodes. */
	function named(nodes: readonly GraphNode[], word: string): number[] {
		const lower = word.toLowerCase();
		return nodes.flatMap((n, id) =>
			n.kind !== "file" && n.removed !== true && n.name.toLowerCase() === lower ? [id] : [],
		);
	}

	it("finds the symbols of a name in any case, in node order, after removals and additions as fresh", () => {
		fc.assert(
			fc.property(
				fc.array(symbol, { maxLength: 25 }),
				fc.array(fc.nat(24)),
				fc.array(symbol, { maxLength: 6 }),
				(built, drops, added) => {
					const nodes = [file, ...built];
					const index = new TermIndex(nodes);
					const gone = new Set(drops.filter((id) => id > 0 && id < nodes.length));
					for (const id of gone) {
						index.remove(id, nodes[id] as GraphNode);
						nodes[id] = { ...(nodes[id] as GraphNode), name: "", removed: true };
					}
					for (const node of added) {
						nodes.push(node);
						index.add(nodes.length - 1, node);
					}
					const fresh = new TermIndex(nodes);
					for (const word of [...NAMES, "PARSEHTTP", "absent", "parsehttp.ts"]) {
						assert.deepEqual(index.exact(word, nodes), named(nodes, word), word);
						assert.deepEqual(fresh.exact(word, nodes), named(nodes, word), word);
					}
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe("rememberedTerms", () => {
	it("gives what terms gives, short text or long, the first time and again", () => {
		fc.assert(
			fc.property(identifier, (text) => {
				assert.deepEqual(rememberedTerms(text), terms(text));
				assert.deepEqual(rememberedTerms(text), terms(text));
			}),
		);
	});
});
