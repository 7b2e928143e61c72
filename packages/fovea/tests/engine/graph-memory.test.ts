/**
 * What the graph keeps resident per file, in bytes of V8's heap, measured around full collections: the graph of a
 * root is held for as long as the root is enrolled, so what it costs per file decides how large a root fits in the
 * 1 GB that issue 35 sets for 100,000 files. The facts it is built from are kept alive on both sides of the
 * measure, so only the graph's own structures count. Bounds are bytes and work counts, never timings.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { FileSymbols } from "../../src/engine/graph/file-symbols.ts";
import type { GraphLinks, GraphNode } from "../../src/engine/graph/model.ts";
import { GraphStore } from "../../src/engine/graph/store.ts";
import { SymbolIds } from "../../src/engine/graph/symbol-ids.ts";
import { callSitesOf, type FileFacts, type SymbolFact } from "../../src/engine/model/facts.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const FILES = 4000;
const SYMBOLS_PER_FILE = 9;

const links: GraphLinks = {
	imports: (f) => f.imports.map((i) => i.specifier),
	subjects: () => [],
};

/** A file like the generated polyglot corpus's: nine symbols (a class and its methods), calls, two imports. */
function fileFacts(i: number): FileFacts {
	const path = `src/m${Math.floor(i / 50)}/file${i}.ts`;
	const cls = `Service${i}`;
	const symbols: SymbolFact[] = [{ name: cls, kind: "class", line: 1, endLine: 90, signature: `export class ${cls}` }];
	for (let k = 1; k < SYMBOLS_PER_FILE; k++) {
		const name = `step${k}Of${i % 300}`;
		symbols.push({ name, kind: "method", line: k * 10, endLine: k * 10 + 8, signature: `${name}()`, container: cls });
	}
	const calls = Array.from({ length: 20 }, (_, k) => ({
		callee: `step${1 + (k % 8)}Of${(i + k) % 300}`,
		line: 10 + k,
		caller: `${cls}.step${1 + (k % 8)}Of${i % 300}`,
	}));
	const imports = [1, 2].map((d) => ({
		specifier: `src/m${Math.floor(((i + d) % FILES) / 50)}/file${(i + d) % FILES}.ts`,
		line: d,
	}));
	return {
		path,
		language: "typescript",
		hash: path,
		bytes: 3000,
		lines: 100,
		symbols,
		imports,
		calls: callSitesOf(calls),
		inherits: [],
		parseErrors: 0,
	};
}

function heapAfterCollection(): number {
	gc();
	gc();
	return process.memoryUsage().heapUsed;
}

describe("the graph's memory per file", () => {
	it("keeps no map of symbols per file: one is made for each file derived, and dropped after", () => {
		const files = Array.from({ length: 600 }, (_, i) => fileFacts(i));
		const store = new GraphStore(files, links);
		const graph = store.graph();
		assert.equal(graph.fileCount, 600);
		// One map per file, for its own derivation; names in the files it imports are found without making theirs.
		assert.equal(store.fileSymbols.made, 600);
		assert.ok(graph.edgeCounts.calls > 0 && graph.edgeCounts.imports > 0);
	});

	it("answers as a map per file would, from the lists as they are when asked", () => {
		const nodes: GraphNode[] = [
			{ kind: "file", path: "a.ts", name: "a.ts", line: 1, endLine: 9 },
			{ kind: "function", path: "a.ts", name: "run", line: 1, endLine: 2, signature: "run()" },
			{ kind: "method", path: "a.ts", name: "run", line: 3, endLine: 4, signature: "run()", container: "A" },
			{ kind: "class", path: "a.ts", name: "A", line: 3, endLine: 9, signature: "class A" },
		];
		const ids = new Map<string, number[]>([["a.ts", [1, 3, 2]]]);
		const symbols = new FileSymbols(ids, nodes);
		assert.deepEqual(
			[...(symbols.get("a.ts") ?? [])],
			[
				["run", [1, 2]],
				["A", 3],
			],
		);
		assert.deepEqual(symbols.named("a.ts", "run"), [1, 2]);
		assert.equal(symbols.named("a.ts", "A"), 3);
		assert.equal(symbols.named("a.ts", "none"), undefined);
		assert.equal(symbols.get("b.ts"), undefined);
		ids.set("a.ts", [3]);
		assert.deepEqual([...(symbols.get("a.ts") ?? [])], [["A", 3]]);
		assert.equal(symbols.named("a.ts", "run"), undefined);
	});

	it("keeps a build's symbol ids of each file as a range, and an edited file's as its list", () => {
		const fileNode = new Map([
			["a.ts", 0],
			["b.ts", 1],
		]);
		const ids = new SymbolIds(fileNode, 2);
		ids.setRange(0, 2, 3);
		ids.setRange(1, 5, 0);
		assert.deepEqual(ids.get("a.ts"), [2, 3, 4]);
		assert.deepEqual(ids.get("b.ts"), []);
		assert.equal(ids.get("c.ts"), undefined);
		const range = { start: -1, end: -1 };
		assert.equal(ids.span("a.ts", range), undefined);
		assert.deepEqual(range, { start: 2, end: 5 });
		ids.set("a.ts", [3, 7]);
		assert.deepEqual(ids.span("a.ts", range), [3, 7]);
		assert.deepEqual(
			[...ids],
			[
				["a.ts", [3, 7]],
				["b.ts", []],
			],
		);
		const nodes: GraphNode[] = Array.from({ length: 8 }, (_, i) => ({
			kind: "function",
			path: i < 5 ? "a.ts" : "b.ts",
			name: i % 2 === 0 ? "even" : "odd",
			line: i,
			endLine: i,
		}));
		const symbols = new FileSymbols(ids, nodes);
		assert.deepEqual(symbols.named("a.ts", "odd"), [3, 7]);
		ids.setRange(0, 2, 3);
		assert.deepEqual(symbols.named("a.ts", "even"), [2, 4]);
		assert.equal(symbols.named("b.ts", "even"), undefined);
	});

	it("keeps every file's edges in one set of columns: trimmed after the build, dead entries of edits bounded", () => {
		const files = new Map(Array.from({ length: 600 }, (_, i) => [fileFacts(i).path, fileFacts(i)] as const));
		const store = new GraphStore(files.values(), links);
		const built = store.edgeEntries;
		assert.ok(built.live > 600 * 20, `edges held: ${built.live}`);
		assert.equal(built.dead, 0);
		assert.equal(built.capacity, built.live, "the build keeps no room it was not asked for");
		// Each edit drops or brings back a file's calls, so its edges change and its old range dies.
		for (let step = 0; step < 400; step++) {
			const i = (step * 37) % 600;
			const whole = fileFacts(i);
			const facts = step % 2 === 0 ? { ...whole, calls: callSitesOf([]) } : whole;
			files.set(facts.path, facts);
			assert.ok(store.update([facts.path], files) !== undefined);
			const { live, dead, capacity } = store.edgeEntries;
			assert.ok(dead <= Math.max(1024, live / 2), `step ${step}: ${dead} dead entries of ${live}`);
			assert.ok(capacity <= 2 * live + 2048, `step ${step}: room for ${capacity} entries, ${live} live`);
		}
		assert.ok(store.edgeEntries.copies > 1, "the columns were compacted along the way");
		const fresh = new GraphStore(files.values(), links).graph();
		const graph = store.graph();
		for (const path of files.keys()) {
			const mine = graph.directed.edgesOf(path);
			const theirs = fresh.directed.edgesOf(path);
			assert.deepEqual(
				[mine?.a, mine?.b, mine?.w, mine?.r].map((list) => [...(list ?? [])]),
				[theirs?.a, theirs?.b, theirs?.w, theirs?.r].map((list) => [...(list ?? [])]),
				path,
			);
		}
	});

	it("derives a build's edges into one reused list, and they are the edges each file derives on its own", () => {
		const files = new Map(Array.from({ length: 600 }, (_, i) => [fileFacts(i).path, fileFacts(i)] as const));
		// One file with many more edges than the others, so the list has to grow past its first room.
		const big = fileFacts(600);
		const wide = {
			...big,
			calls: callSitesOf(
				Array.from({ length: 400 }, (_, k) => ({ callee: `step${1 + (k % 8)}Of${k % 300}`, line: k, caller: "" })),
			),
		};
		files.set(wide.path, wide);
		const store = new GraphStore(files.values(), links);
		const graph = store.graph();
		const most = Math.max(...[...files.keys()].map((path) => graph.directed.edgesOf(path)?.a.length ?? 0));
		assert.ok(most > 256, `the widest file has ${most} edges`);
		// Doubling from 64 entries: a list per file would have been made 601 times; the one list grows to the widest file.
		assert.ok(store.buildListGrowths >= 1, "the list grew for the widest file");
		assert.ok(store.buildListGrowths <= Math.ceil(Math.log2(most / 64)), `grown ${store.buildListGrowths} times`);
		const rows = [[...graph.offsets], [...graph.targets], [...graph.weights]];
		const edges = [...files.keys()].map((path) => {
			const e = graph.directed.edgesOf(path);
			return [e?.a, e?.b, e?.w, e?.r].map((list) => [...(list ?? [])]);
		});
		// An update of every file derives each one's edges again into a list of its own: none differs from the build's.
		const delta = store.update([...files.keys()], files);
		assert.deepEqual(delta?.rows, [], "no row changed");
		assert.equal(delta?.rederived, files.size);
		const again = store.graph();
		assert.deepEqual([[...again.offsets], [...again.targets], [...again.weights]], rows);
		assert.deepEqual(
			[...files.keys()].map((path) => {
				const e = again.directed.edgesOf(path);
				return [e?.a, e?.b, e?.w, e?.r].map((list) => [...(list ?? [])]);
			}),
			edges,
		);
	});

	it(`holds at most 600 bytes of heap per file of ${SYMBOLS_PER_FILE} symbols and 20 calls`, () => {
		const files = Array.from({ length: FILES }, (_, i) => fileFacts(i));
		// A small graph first, so the code and type feedback a first build compiles are not counted per file.
		new GraphStore(files.slice(0, 300), links).graph();
		const before = heapAfterCollection();
		let store: GraphStore | undefined = new GraphStore(files, links);
		const graph = store.graph();
		const held = heapAfterCollection() - before;
		assert.equal(graph.fileCount, FILES);
		assert.equal(graph.symbolCount, FILES * SYMBOLS_PER_FILE);
		store = undefined;
		const perFile = held / FILES;
		assert.ok(perFile <= 600, `the graph holds ${Math.round(perFile)} bytes of heap per file`);
		assert.equal(store, undefined);
		assert.equal(files.length, FILES); // the facts stayed alive through both measures
	});
});
