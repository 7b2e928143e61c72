// The edit-by-edit graph: after any sequence of edits it holds exactly the graph a full build would, and an edit
// derives again only the edges of the edited file and of the files that use the names it added or removed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CodeGraph, GraphLinks, GraphNode } from "../../src/engine/graph/model.ts";
import { GraphStore } from "../../src/engine/graph/store.ts";
import { callSitesOf, type FileFacts, noCalls, type SymbolFact } from "../../src/engine/model/facts.ts";
import { focus, patchPreparedGraph, prepareGraph } from "../../src/engine/rank/focus.ts";
import { contentTerms } from "../../src/engine/terms/content.ts";

const links: GraphLinks = {
	imports: (f) => f.imports.map((i) => i.specifier),
	subjects: (path) => (path.endsWith(".test.ts") ? [path.replace(/\.test\.ts$/, ".ts")] : []),
};

function rng(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

const NAMES = ["parse", "emit", "run", "load", "save", "render", "Store", "Parser", "check", "merge", "split", "flush"];
/** Words of a file's text beyond the names it defines (comments, strings, locals). */
const WORDS = [...NAMES, "store", "buffer", "token", "queue", "retry", "cache", "parse"];

function randomText(random: () => number): string {
	const count = 2 + Math.floor(random() * 10);
	return contentTerms(Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" "));
}

function randomFile(path: string, random: () => number, paths: readonly string[]): FileFacts {
	const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
	const symbols: SymbolFact[] = [];
	const count = Math.floor(random() * 5);
	for (let i = 0; i < count; i++) {
		const name = pick(NAMES);
		const isClass = name[0] === name[0]?.toUpperCase();
		symbols.push({
			name,
			kind: isClass ? "class" : "function",
			line: i * 10 + 1,
			endLine: i * 10 + 8,
			signature: name,
		});
		if (isClass && random() < 0.7) {
			symbols.push({
				name: pick(NAMES),
				kind: "method",
				container: name,
				line: i * 10 + 2,
				endLine: i * 10 + 4,
				signature: "m",
			});
		}
	}
	const calls = Array.from({ length: Math.floor(random() * 6) }, (_, i) => {
		const caller = symbols.length > 0 && random() < 0.6 ? pick(symbols).name : undefined;
		return caller === undefined ? { callee: pick(NAMES), line: i } : { callee: pick(NAMES), line: i, caller };
	});
	const inherits = symbols
		.filter((s) => s.kind === "class" && random() < 0.4)
		.map((s) => ({ symbol: s.name, base: pick(NAMES), line: s.line, relation: "extends" as const }));
	const imports = Array.from({ length: Math.floor(random() * 3) }, (_, i) => ({ specifier: pick(paths), line: i + 1 }));
	// Anchors from small pools, so literals are shared by a few files (or too many) and paths name routes.
	const literals = LITERALS.filter(() => random() < 0.15);
	const routes = ROUTES.filter(() => random() < 0.1).map((route, i) => ({
		...route,
		line: i + 1,
		handler: pick(NAMES),
	}));
	return {
		path,
		language: "typescript",
		...(literals.length > 0 ? { literals } : {}),
		...(routes.length > 0 ? { routes } : {}),
		hash: `${path}:${random()}`,
		bytes: 1,
		lines: 60,
		symbols,
		imports,
		calls: callSitesOf(calls),
		inherits,
		parseErrors: 0,
		contentTerms: randomText(random),
	};
}

const LITERALS = ["x-request-id", "user:created", "cfg.pool_size", "/users/7", "/api/orders/3", "/health"];
const ROUTES = [
	{ method: "GET", path: "/users/:id" },
	{ method: "GET", path: "/orders/:id" },
	{ method: "ANY", path: "/health" },
];

/** A realistic edit: shift lines, add, drop or rename a symbol, rewrite the calls, or (rarely) rewrite the file. */
function editFile(file: FileFacts, random: () => number, paths: readonly string[]): FileFacts {
	const roll = random();
	const fresh = randomFile(file.path, random, paths);
	const symbols = [...file.symbols];
	if (roll < 0.3) return { ...file, symbols: symbols.map((s) => ({ ...s, line: s.line + 1, endLine: s.endLine + 1 })) };
	if (roll < 0.5) return { ...file, symbols: [...symbols, ...fresh.symbols.slice(0, 1)] };
	if (roll < 0.65) return { ...file, symbols: symbols.slice(0, -1) };
	if (roll < 0.75 && symbols.length > 0) {
		symbols[0] = { ...(symbols[0] as SymbolFact), name: `${symbols[0]?.name}2` };
		return { ...file, symbols };
	}
	if (roll < 0.85) return { ...file, calls: fresh.calls, imports: fresh.imports, inherits: [] };
	if (roll < 0.95) {
		const { literals: _, routes: __, ...rest } = file;
		return {
			...rest,
			...(fresh.literals ? { literals: fresh.literals } : {}),
			...(fresh.routes ? { routes: fresh.routes } : {}),
		};
	}
	return fresh;
}

/**
 * The graph as a map from node-identity pairs to merged weight, independent of node ids. Entries of zero weight
 * (edges a patch took out, inert until the rows are assembled anew) are left out.
 */
function canonicalEdges(graph: CodeGraph): Map<string, number> {
	const key = (id: number) => {
		const n = graph.nodes[id] as GraphNode;
		return `${n.path}#${n.kind}:${n.container ?? ""}.${n.name}@${n.line}`;
	};
	const edges = new Map<string, number>();
	for (let i = 0; i < graph.size; i++) {
		const row = new Set<number>();
		for (let e = graph.offsets[i] as number; e < (graph.offsets[i + 1] as number); e++) {
			const j = graph.targets[e] as number;
			if (graph.weights[e] === 0) continue;
			assert.equal(row.has(j), false, `parallel edges are merged: ${key(i)} -> ${key(j)}`);
			row.add(j);
			// Nodes that look alike (same file, kind, name and line) are summed together.
			const k = `${key(i)} -> ${key(j)}`;
			edges.set(k, Math.round(((edges.get(k) ?? 0) + (graph.weights[e] as number)) * 1e9) / 1e9);
		}
	}
	return edges;
}

function liveNodes(graph: CodeGraph): string[] {
	return graph.nodes
		.filter((n) => n.removed !== true)
		.map((n) => `${n.path}#${n.kind}:${n.container ?? ""}.${n.name}@${n.line}-${n.endLine}`)
		.sort();
}

describe("GraphStore", () => {
	it("matches a full build after every one of 300 random edits", () => {
		const random = rng(7);
		const paths = Array.from({ length: 40 }, (_, i) => (i % 8 === 7 ? `m${i - 1}.test.ts` : `m${i}.ts`));
		const files = new Map(paths.map((p) => [p, randomFile(p, random, paths)]));
		let store = new GraphStore(files.values(), links);
		let prepared = prepareGraph(store.graph(), files);
		let patched = 0;
		let rowsPatched = 0;
		for (let step = 0; step < 300; step++) {
			const edited = Array.from(
				{ length: 1 + Math.floor(random() * 2) },
				() => paths[Math.floor(random() * paths.length)] as string,
			);
			for (const path of edited) {
				const file = editFile(files.get(path) as FileFacts, random, paths);
				files.set(path, random() < 0.5 ? { ...file, contentTerms: randomText(random) } : file);
			}
			const delta = store.update([...new Set(edited)], files);
			if (delta === undefined) {
				// Too many inert nodes: the caller builds anew, which compacts the ids.
				store = new GraphStore(files.values(), links);
				prepared = prepareGraph(store.graph(), files);
				continue;
			}
			patched++;
			if (delta.rows !== undefined) rowsPatched++;
			const incremental = store.graph();
			prepared = patchPreparedGraph(prepared, incremental, delta, files, [...new Set(edited)]);
			const full = new GraphStore(files.values(), links).graph();
			assert.deepEqual(liveNodes(incremental), liveNodes(full), `nodes after step ${step}`);
			assert.deepEqual(canonicalEdges(incremental), canonicalEdges(full), `edges after step ${step}`);
			assert.deepEqual(incremental.edgeCounts, full.edgeCounts);
			assert.equal(incremental.symbolCount, full.symbolCount);
			// The patched term and content indexes rank like fresh ones.
			const fresh = prepareGraph(full, files);
			const rank = (p: typeof prepared) => {
				const result = focus(p, { text: "parse store retry" }, 10_000);
				return [...result.symbols, ...result.files].map((r) => {
					const n = p.graph.nodes[r.id] as GraphNode;
					return `${n.path}:${n.name}@${n.line}:${r.score.toFixed(9)}`;
				});
			};
			assert.deepEqual(new Set(rank(prepared)), new Set(rank(fresh)), `ranking after step ${step}`);
		}
		assert.ok(patched >= 250, `most edits patch in place (${patched} of 300)`);
		assert.ok(rowsPatched >= 200, `most patches carry the rows over without assembling them (${rowsPatched})`);
	});

	it("re-derives only the edited file when its symbols keep their identity", () => {
		const random = rng(3);
		const paths = Array.from({ length: 30 }, (_, i) => `f${i}.ts`);
		const files = new Map(paths.map((p) => [p, randomFile(p, random, paths)]));
		const store = new GraphStore(files.values(), links);
		const target = paths.find((p) => (files.get(p)?.symbols.length ?? 0) > 0) as string;
		const before = files.get(target) as FileFacts;
		files.set(target, {
			...before,
			symbols: before.symbols.map((s) => ({ ...s, line: s.line + 3, endLine: s.endLine + 3 })),
		});
		store.graph();
		const delta = store.update([target], files);
		assert.deepEqual(delta, { removed: [], added: [], rederived: 1, rows: [] }, "same edges: no row changes");
	});

	it("re-derives the callers of an added name, and no one else", () => {
		const files = new Map<string, FileFacts>([
			["a.ts", { ...blank("a.ts"), symbols: [] }],
			["b.ts", { ...blank("b.ts"), calls: callSitesOf([{ callee: "fresh", line: 1 }]) }],
			["c.ts", { ...blank("c.ts"), calls: callSitesOf([{ callee: "other", line: 1 }]) }],
		]);
		const store = new GraphStore(files.values(), links);
		assert.equal(store.graph().edgeCounts.calls, 0);
		files.set("a.ts", {
			...blank("a.ts"),
			symbols: [{ name: "fresh", kind: "function", line: 1, endLine: 2, signature: "" }],
		});
		const delta = store.update(["a.ts"], files);
		assert.equal(delta?.rederived, 2, "a.ts and its caller b.ts");
		assert.equal(store.graph().edgeCounts.calls, 1);
	});

	it("links files sharing a rare name-like literal, but not files sharing a command-line option", () => {
		const holding = (path: string, literals: string[]) => ({ ...blank(path), literals });
		const files = [holding("a.ts", ["--setup-show", "x-request-id"]), holding("b.ts", ["--setup-show"])];
		assert.equal(new GraphStore(files.values(), links).graph().edgeCounts.literal, 0);
		files.push(holding("c.ts", ["x-request-id"]));
		assert.ok(new GraphStore(files.values(), links).graph().edgeCounts.literal > 0, "a.ts and c.ts share x-request-id");
	});

	it("asks for a full build when a file is added or removed", () => {
		const files = new Map<string, FileFacts>([["a.ts", blank("a.ts")]]);
		const store = new GraphStore(files.values(), links);
		files.set("b.ts", blank("b.ts"));
		assert.equal(store.update(["b.ts"], files), undefined);
		files.delete("a.ts");
		assert.equal(store.update(["a.ts"], files), undefined);
	});
});

function blank(path: string): FileFacts {
	return {
		path,
		language: "typescript",
		hash: path,
		bytes: 1,
		lines: 5,
		symbols: [],
		imports: [],
		calls: noCalls(),
		inherits: [],
		parseErrors: 0,
	};
}
