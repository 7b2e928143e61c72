// The code graph: which facts become which edges, and how a focus query ranks through it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildGraph } from "../../src/engine/graph/build.ts";
import type { GraphLinks } from "../../src/engine/graph/model.ts";
import { callSitesOf, type FileFacts } from "../../src/engine/model/facts.ts";
import { firstOf } from "../../src/engine/model/one-or-many.ts";
import { focus, hasContentIndex, hasTermIndex, prepareGraph } from "../../src/engine/rank/focus.ts";
import { contentTerms } from "../../src/engine/terms/content.ts";
import { file, fn } from "../support/hand-facts.ts";

/** Resolves imports by mapping each specifier `./x` to `x.ts`, and tests by `x.test.ts` → `x.ts`. */
const links: GraphLinks = {
	imports: (f) => f.imports.map((i) => `${i.specifier.replace(/^\.\//, "")}.ts`),
	subjects: (path) => (path.endsWith(".test.ts") ? [path.replace(/\.test\.ts$/, ".ts")] : []),
};

const corpus: FileFacts[] = [
	file("parser.ts", {
		symbols: [
			fn("parseExpression", 3),
			fn("tokenize", 20),
			{ ...fn("Parser", 40), kind: "class" },
			{ ...fn("next", 42), kind: "method", container: "Parser" },
		],
		calls: callSitesOf([
			{ callee: "tokenize", line: 5, caller: "parseExpression" },
			{ callee: "emit", line: 44, caller: "Parser.next" },
		]),
	}),
	file("emitter.ts", { symbols: [fn("emit", 1)], imports: [] }),
	file("cli.ts", {
		symbols: [fn("main", 1)],
		imports: [{ specifier: "./parser", line: 1 }],
		calls: callSitesOf([{ callee: "parseExpression", line: 3, caller: "main" }]),
	}),
	file("parser.test.ts", {
		imports: [{ specifier: "./parser", line: 1 }],
		calls: callSitesOf([{ callee: "parseExpression", line: 4 }]),
	}),
	file("unrelated.ts", { symbols: [fn("formatDate", 1)] }),
	file("child.ts", {
		symbols: [{ ...fn("Child", 1), kind: "class" }],
		inherits: [{ symbol: "Child", base: "Parser", line: 1, relation: "extends" }],
	}),
];

describe("code graph", () => {
	const graph = buildGraph(corpus, links);

	it("creates one node per file and symbol, files first", () => {
		assert.equal(graph.fileCount, 6);
		assert.equal(graph.nodes.length, 6 + 8);
		assert.ok(graph.nodes.slice(0, 6).every((n) => n.kind === "file"));
	});

	it("links containment, imports, calls across files, inheritance and tests", () => {
		assert.ok(graph.edgeCounts.contains >= 8, "every symbol is contained");
		assert.equal(graph.edgeCounts.imports, 2);
		assert.ok(graph.edgeCounts.calls >= 3, "same-file, imported and unique-global calls resolve");
		assert.equal(graph.edgeCounts.inherits, 1);
		assert.equal(graph.edgeCounts.tests, 1);
		const neighbours = (id: number) => [...graph.targets.slice(graph.offsets[id], graph.offsets[id + 1])];
		const main = firstOf(graph.byName.get("main")) as number;
		const parseExpression = firstOf(graph.byName.get("parseExpression")) as number;
		assert.ok(neighbours(main).includes(parseExpression), "main calls parseExpression in an imported file");
		const next = firstOf(graph.byName.get("next")) as number;
		const parserClass = firstOf(graph.byName.get("Parser")) as number;
		assert.ok(neighbours(parserClass).includes(next), "a class contains its methods");
	});

	it("a call is the calling method's, in its own container, when two classes of a file share the method's name", () => {
		const two = buildGraph(
			[
				file("two.ts", {
					symbols: [
						{ ...fn("Alpha", 1), kind: "class" },
						{ ...fn("run", 2), kind: "method", container: "Alpha" },
						{ ...fn("Beta", 6), kind: "class" },
						{ ...fn("run", 7), kind: "method", container: "Beta" },
						fn("onlyBetaCalls", 12),
					],
					calls: callSitesOf([{ callee: "onlyBetaCalls", line: 8, caller: "Beta.run" }]),
				}),
			],
			links,
		);
		const callee = firstOf(two.byName.get("onlyBetaCalls")) as number;
		const callers = [...two.targets.slice(two.offsets[callee], two.offsets[callee + 1])]
			.map((id) => two.nodes[id])
			.filter((node) => node?.kind === "method")
			.map((node) => `${node?.container}.${node?.name}`);
		assert.deepEqual(callers, ["Beta.run"]);
	});

	it("a Go or Java call finds its definition in the caller's own package, however many other packages define the name", () => {
		const named = (language: "go" | "java", path: string, pkg: string, parts: Partial<FileFacts>) =>
			file(path, { language, package: pkg, ...parts });
		const cases = [
			{
				language: "go" as const,
				definition: ["store/keys.go", "store"],
				caller: ["store/put.go", "store"],
				// Same name, other packages: five other directories, and an external test package beside it.
				others: [...[1, 2, 3, 4, 5].map((i) => [`p${i}/x.go`, `p${i}`]), ["store/keys_test.go", "store_test"]],
			},
			{
				language: "java" as const,
				definition: ["src/main/java/a/Keys.java", "a"],
				caller: ["src/test/java/a/PutTest.java", "a"],
				others: [1, 2, 3, 4, 5].map((i) => [`src/main/java/p${i}/X.java`, `p${i}`]),
			},
		];
		for (const { language, definition, caller, others } of cases) {
			const [definitionPath, definitionPackage] = definition as [string, string];
			const [callerPath, callerPackage] = caller as [string, string];
			const graph = buildGraph(
				[
					named(language, definitionPath, definitionPackage, { symbols: [fn("normalizeKey", 3)] }),
					named(language, callerPath, callerPackage, {
						symbols: [fn("put", 3)],
						calls: callSitesOf([{ callee: "normalizeKey", line: 4, caller: "put" }]),
					}),
					...others.map(([path, pkg]) =>
						named(language, path as string, pkg as string, { symbols: [fn("normalizeKey", 3)] }),
					),
				],
				{ imports: () => [], subjects: () => [] },
			);
			const put = firstOf(graph.byName.get("put")) as number;
			const callees = [...graph.targets.slice(graph.offsets[put], graph.offsets[put + 1])]
				.map((id) => graph.nodes[id])
				.filter((node) => node?.name === "normalizeKey")
				.map((node) => node?.path);
			assert.deepEqual(callees, [definitionPath], language);
		}
	});

	it("adjacency is symmetric", () => {
		for (let i = 0; i < graph.size; i++) {
			for (let e = graph.offsets[i] as number; e < (graph.offsets[i + 1] as number); e++) {
				const j = graph.targets[e] as number;
				const back = [...graph.targets.slice(graph.offsets[j], graph.offsets[j + 1])].indexOf(i);
				assert.ok(back >= 0);
				assert.equal(graph.weights[(graph.offsets[j] as number) + back], graph.weights[e]);
			}
		}
	});

	it("focus ranks the matched symbol first and brings in structural neighbours, not unrelated files", () => {
		const prepared = prepareGraph(graph);
		const result = focus(prepared, { text: "how is an expression parsed?" });
		assert.deepEqual(result.terms, ["how", "expression", "pars"]);
		const topSymbol = graph.nodes[result.symbols[0]?.id as number];
		assert.equal(topSymbol?.name, "parseExpression");
		const files = result.files.map((r) => graph.nodes[r.id]?.path);
		assert.equal(files[0], "parser.ts");
		for (const near of ["cli.ts", "parser.test.ts"])
			assert.ok(files.includes(near), `${near} is reached through the graph`);
		assert.ok(!files.includes("unrelated.ts"), "no path of heat reaches an unconnected file");
		// The longest timescale (6) needs nine Chebyshev terms for a tail below a thousandth of the seed mass.
		assert.equal(result.stats.products, 8, "sparse products of one focus");
	});

	it("exact identifiers and explicit paths seed directly; an unmatched query ranks nothing", () => {
		const prepared = prepareGraph(graph);
		assert.equal(graph.nodes[focus(prepared, { text: "formatDate" }).symbols[0]?.id as number]?.name, "formatDate");
		assert.equal(
			graph.nodes[focus(prepared, { text: "", paths: ["emitter.ts"] }).files[0]?.id as number]?.path,
			"emitter.ts",
		);
		const none = focus(prepared, { text: "zzzz qqqq" });
		assert.equal(none.files.length + none.symbols.length, 0);
		assert.equal(none.stats.products, 0, "no diffusion without seeds");
	});

	it("a query by path or attention alone never builds the term index; the first query by words does", () => {
		const prepared = prepareGraph(graph);
		const emitter = graph.fileNode.get("emitter.ts") as number;
		focus(prepared, { text: "", paths: ["parser.ts"] });
		focus(prepared, { text: "", attention: new Map([[emitter, 1]]) });
		focus(prepared, { text: "a b" }); // words too short to look up
		assert.equal(hasTermIndex(prepared), false);
		focus(prepared, { text: "formatDate" });
		assert.equal(hasTermIndex(prepared), true);
	});

	describe("with the files' text", () => {
		// emitter.ts defines only `emit`; its text says what it does. unrelated.ts says nothing of it.
		const texts: Record<string, string> = {
			"emitter.ts": "/** Writes bytecode for each instruction the parser hands over. */ export function emit(op) {}",
			"unrelated.ts": "export function formatDate(d) { return d.toISOString(); }",
		};
		const files = new Map(
			corpus.map((f) => {
				const text = texts[f.path];
				return [f.path, text === undefined ? f : { ...f, contentTerms: contentTerms(text) }];
			}),
		);

		it("finds a file by what its text says, where names and paths alone find nothing", () => {
			const query = { text: "writes bytecode instruction" };
			const byNames = focus(prepareGraph(graph), query);
			assert.equal(byNames.files.length, 0, "no name or path holds these words");
			const result = focus(prepareGraph(graph, files), query);
			assert.equal(graph.nodes[result.files[0]?.id as number]?.path, "emitter.ts");
			assert.ok(result.seededNodes > 0);
			const paths = result.files.map((r) => graph.nodes[r.id]?.path);
			assert.ok(paths.includes("parser.ts"), "heat reaches its caller's file through the graph");
			assert.ok(!paths.includes("unrelated.ts"));
		});

		it("keeps the file defining a named symbol first, and a query by path or attention reads no text", () => {
			const prepared = prepareGraph(graph, files);
			focus(prepared, { text: "", paths: ["parser.ts"] });
			assert.equal(hasContentIndex(prepared), false);
			const result = focus(prepared, { text: "parseExpression" });
			assert.equal(hasContentIndex(prepared), true);
			assert.equal(graph.nodes[result.files[0]?.id as number]?.path, "parser.ts");
			assert.equal(graph.nodes[result.symbols[0]?.id as number]?.name, "parseExpression");
		});
	});
});
