/**
 * `measureFile` with the real tree-sitter grammars: decision points counted by hand per language, source lines,
 * callable names and containers, and content that cannot be measured (a visible gap, never a clean file).
 * Issue: "source lines, decision points and cyclomatic complexity per callable"; "Bad input: binary files, invalid
 * UTF-8, giant files, syntax errors … give a clear answer or a visible coverage gap."
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { CallableMeasure } from "../../src/review/callables.ts";
import {
	ensureMeasureLanguages,
	type FileMeasure,
	measureFile,
	measureVersionsWithFacts,
	measureWithFacts,
} from "../../src/review/measure.ts";

before(() => ensureMeasureLanguages(["a.ts", "a.tsx", "a.js", "a.py", "a.go", "a.rs", "A.java"]));

function callable(measure: FileMeasure, key: string): CallableMeasure {
	const found = measure.callables.find((c) => c.key === key);
	assert.ok(found, `no callable ${key} in ${measure.callables.map((c) => c.key).join(", ")}`);
	return found;
}

describe("decision points per language, counted by hand", () => {
	it("TypeScript: if, else if, &&, ||, ??, ternary, catch, loops and case (not default)", () => {
		const source = [
			"export class Parser {", //
			"  parse(x: number, y?: number): number {",
			"    try {",
			"      if (x > 0 && y !== undefined) {", // if +1, && +1
			"        return 1;",
			"      } else if (x < 0 || (y ?? 0) > 1) {", // if +1, || +1, ?? +1
			"        return 2;",
			"      }",
			"    } catch (error) {", // catch +1
			"      console.error(error);",
			"    }",
			"    return x === 0 ? 3 : 4;", // ternary +1
			"  }",
			"}",
			"",
			"// a comment line",
			"function loops(items: string[]): void {",
			"  for (const item of items) {}", // +1
			"  for (const key in items) {}", // +1
			"  for (let i = 0; i < 2; i++) {}", // +1
			"  while (items.length) items.pop();", // +1
			"  do {} while (false);", // +1
			"  switch (items[0]) { case 'a': break; case 'b': break; default: }", // +2
			"}",
		].join("\n");
		const measure = measureFile("src/parser.ts", source);
		assert.equal(measure.language, "typescript");
		const parse = callable(measure, "Parser.parse");
		assert.equal(parse.decisions, 7);
		assert.equal(parse.cyclomatic, 8);
		assert.equal(parse.kind, "method");
		assert.equal(parse.container, "Parser");
		assert.equal(parse.line, 2);
		assert.equal(parse.endLine, 13);
		assert.equal(parse.sourceLines, 12);
		const loops = callable(measure, "loops");
		assert.equal(loops.decisions, 7);
		assert.equal(loops.kind, "function");
		assert.equal(measure.lines, 24);
		assert.equal(measure.sourceLines, 22, "the blank line and the comment line are not source lines");
		assert.equal(measure.parseErrors, 0);
	});

	it("TS/JS: named arrow functions, object methods and string-keyed callbacks are callables; inline lambdas fold in", () => {
		const source = [
			"const pick = (xs) => xs.filter((x) => x > 0 ? true : x < -5);", // ternary and || in a folded lambda: +1
			"const api = { load() { return a && b; } };", // +1
			'describe("parser", () => {',
			'  it("reads flags", () => { if (ok) done(); });', // +1
			"});",
			"export default function () { return a ?? b; }", // +1
		].join("\n");
		const measure = measureFile("src/a.js", source);
		assert.deepEqual(
			measure.callables.map((c) => [c.key, c.kind, c.decisions]),
			[
				["pick", "function", 1],
				["load", "function", 1],
				['describe("parser")', "callback", 0],
				['describe("parser").it("reads flags")', "callback", 1],
				["default", "function", 1],
			],
		);
	});

	it("TSX: decisions inside JSX expressions count for the component", () => {
		const source = [
			"export function Panel({ items }: { items: string[] }) {",
			'  return <ul>{items.length > 0 && items.map((i) => <li key={i}>{i ? "a" : "b"}</li>)}</ul>;', // && +1, ?: +1
			"}",
		].join("\n");
		const measure = measureFile("src/panel.tsx", source);
		assert.equal(measure.parseErrors, 0);
		assert.deepEqual(
			measure.callables.map((c) => [c.key, c.decisions]),
			[["Panel", 2]],
		);
	});

	it("Python: if, elif, and/or, for, while, except, conditional expression, comprehension if", () => {
		const source = [
			"class Loader:",
			"    def load(self, path, strict=False):",
			"        try:",
			"            if path and strict:", // if +1, and +1
			"                pass",
			"            elif path or self.default:", // elif +1, or +1
			"                pass",
			"        except OSError:", // +1
			"            return None",
			"        for line in open(path):", // +1
			"            while line:", // +1
			"                line = line[1:]",
			"        names = [n for n in path if n]", // comprehension if +1 (its for is not counted)
			"        return 1 if names else 0", // +1
			"",
			"def helper():",
			"    # only a comment",
			"    return lambda x: x",
		].join("\n");
		const measure = measureFile("pkg/loader.py", source);
		const load = callable(measure, "Loader.load");
		assert.equal(load.decisions, 9);
		assert.equal(load.cyclomatic, 10);
		assert.equal(load.kind, "method");
		const helper = callable(measure, "helper");
		assert.equal(helper.decisions, 0);
		assert.equal(helper.sourceLines, 2, "the comment line inside the function is not a source line");
	});

	it("Python: a match counts every case after the first, as an if/elif chain of the same cases does", () => {
		const chain = [
			"def pick(op, left):",
			'    if op == "==":',
			"        return 1",
			'    elif op == "in":',
			"        return 2",
			'    elif op == "<":',
			"        return 3",
			"    else:",
			"        return 0",
		].join("\n");
		const match = [
			"def pick(op, left):",
			"    match op:",
			'        case "==":',
			"            return 1",
			'        case "in":',
			"            return 2",
			'        case "<":',
			"            return 3",
			"        case _:",
			"            return 0",
		].join("\n");
		const before = callable(measureFile("pkg/pick.py", chain), "pick");
		const after = callable(measureFile("pkg/pick.py", match), "pick");
		assert.deepEqual([before.cyclomatic, after.cyclomatic], [4, 4], "a rewrite to match is no drop in complexity");
	});

	it("Go: if, for, each case of expression, type and select switches (not default), &&, ||", () => {
		const source = [
			"package main",
			"",
			"func (s *Server) Handle(x int, v any, ch chan int) bool {",
			"\tif x > 1 && x < 5 || x == 9 {", // if +1, && +1, || +1
			"\t\treturn true",
			"\t}",
			"\tfor i := 0; i < x; i++ {", // +1
			"\t}",
			"\tswitch x {",
			"\tcase 1, 2:", // +1
			"\tcase 3:", // +1
			"\tdefault:",
			"\t}",
			"\tswitch v.(type) {",
			"\tcase int:", // +1
			"\t}",
			"\tselect {",
			"\tcase <-ch:", // +1
			"\tdefault:",
			"\t}",
			"\treturn false",
			"}",
		].join("\n");
		const measure = measureFile("cmd/server.go", source);
		const handle = callable(measure, "Server.Handle");
		assert.equal(handle.kind, "method");
		assert.equal(handle.decisions, 8);
		assert.equal(handle.cyclomatic, 9);
	});

	it("Rust: if, if let, while, for, match arms after the first, guards, &&, ||, ? — but not loop", () => {
		const source = [
			"impl Reader {",
			"    fn read(&self, x: i32) -> Result<i32, Error> {",
			"        if x > 1 && self.ok || x == 0 { return Ok(0); }", // if +1, && +1, || +1
			"        if let Some(v) = self.cache { return Ok(v); }", // +1
			"        while x > 0 { }", // +1
			"        for _ in 0..3 { }", // +1
			"        loop { break; }", // 0
			"        let n = match x {",
			"            0 => 1,",
			"            // a comment between arms",
			"            y if y > 9 => 2,", // arm +1, guard +1
			"            _ => 3,", // arm +1
			"        };",
			"        let m = self.next()?;", // +1
			"        Ok(n + m)",
			"    }",
			"}",
		].join("\n");
		const measure = measureFile("src/reader.rs", source);
		const read = callable(measure, "Reader.read");
		assert.equal(read.kind, "method");
		assert.equal(read.decisions, 10);
		assert.equal(read.cyclomatic, 11);
	});

	it("Java: if, loops, each case label (not default), catch, ternary, &&, ||", () => {
		const source = [
			"class Router {",
			"  int route(int x, int[] xs) {",
			"    try {",
			"      if (x > 1 && x < 9 || x == 0) return 1;", // if +1, && +1, || +1
			"    } catch (IllegalStateException e) {", // +1
			"      return -1;",
			"    }",
			"    for (int i = 0; i < x; i++) {}", // +1
			"    for (int v : xs) {}", // +1
			"    while (x > 0) x--;", // +1
			"    do { x++; } while (x < 3);", // +1
			"    switch (x) { case 1: break; case 2: case 3: break; default: }", // +3
			"    Runnable r = () -> {};",
			"    return x > 2 ? 1 : 0;", // +1
			"  }",
			"}",
		].join("\n");
		const measure = measureFile("src/Router.java", source);
		const route = callable(measure, "Router.route");
		assert.equal(route.decisions, 12);
		assert.equal(route.cyclomatic, 13);
		assert.ok(
			measure.callables.some((c) => c.key === "Router.route.r"),
			"a lambda held by a variable is a callable",
		);
	});
});

describe("content that cannot be fully measured", () => {
	it("a syntax error still gives best-effort metrics and counts the errors", () => {
		const measure = measureFile("src/broken.ts", "function ok(a) {\n  if (a) { return 1; }\n}\nfunction broken( {\n");
		assert.ok(measure.parseErrors > 0);
		assert.equal(measure.gap, undefined);
		assert.equal(callable(measure, "ok").decisions, 1);
	});

	it("an empty file measures as zero without parsing trouble", () => {
		for (const path of ["src/empty.ts", "src/empty.py", "src/empty.rs"]) {
			const measure = measureFile(path, "");
			assert.equal(measure.lines, 0);
			assert.equal(measure.sourceLines, 0);
			assert.deepEqual(measure.callables, []);
			assert.equal(measure.gap, undefined);
		}
	});

	it("unsupported languages, binary bytes, invalid UTF-8 and oversized content are gaps", () => {
		assert.equal(measureFile("README.md", "# hi").gap?.reason, "unsupported-language");
		assert.equal(measureFile("a.ts", new Uint8Array([0x61, 0x00, 0x62])).gap?.reason, "binary");
		assert.equal(measureFile("a.ts", new Uint8Array([0x61, 0xff, 0xfe])).gap?.reason, "invalid-utf8");
		const big = measureFile("a.ts", "x".repeat(2000), { maxBytes: 1000 });
		assert.equal(big.gap?.reason, "too-large");
		assert.equal(big.bytes, 2000);
		assert.equal(measureFile("a.ts", new TextEncoder().encode("const a = 1;\n")).sourceLines, 1);
	});

	it("a measure is plain JSON data that survives a round trip", () => {
		const measure = measureFile("src/x.py", "def f(a):\n    return a or 1\n");
		assert.deepEqual(JSON.parse(JSON.stringify(measure)), measure);
	});
});

describe("measure with the engine's facts", () => {
	it("counts content terms only when asked: a review's map counts none, so its sides' facts skip that pass", () => {
		const source = "def parse(text):\n    return text.strip()\n";
		const counted = measureWithFacts("a.py", source);
		const skipped = measureWithFacts("a.py", source, { contentTerms: false });
		assert.ok(counted.facts?.contentTerms !== undefined, "counted by default");
		assert.equal(skipped.facts?.contentTerms, undefined);
		assert.deepEqual(skipped.measure, counted.measure, "the measure is the same either way");
		assert.deepEqual(skipped.facts?.imports, counted.facts?.imports);
	});

	it("both sides of a change measured together give what each measured alone gives", () => {
		const head = "import os\n\n\ndef keep(x):\n    return os.path.join(x, 'a')\n\n\n";
		const before = `${head}def parse(text):\n    return text.strip()\n`;
		const after = `${head}def parse(text):\n    if not text:\n        return 'ø'\n    return text.strip()\n`;
		const cases: { path: string; content: string | Uint8Array }[][] = [
			[
				{ path: "a.py", content: before },
				{ path: "a.py", content: after },
			],
			// A rename across languages, a blank side and a binary side: each measured as alone.
			[
				{ path: "a.js", content: "export function f(a) {\n  return a ? 1 : 2;\n}\n" },
				{ path: "a.ts", content: "export function f(a: number) {\n  return a ? 1 : 2;\n}\n" },
			],
			[
				{ path: "a.py", content: "\n\n" },
				{ path: "a.py", content: after },
				{ path: "a.py", content: new Uint8Array([0x61, 0, 0x62]) },
			],
		];
		for (const versions of cases)
			assert.deepEqual(
				measureVersionsWithFacts(versions, { contentTerms: false }),
				versions.map(({ path, content }) => measureWithFacts(path, content, { contentTerms: false })),
				versions.map((version) => version.path).join(" → "),
			);
	});

	it("a side wanted for its imports only gives the imports its facts hold, and no facts", () => {
		const sources: Record<string, [string, string]> = {
			"cmd/main.go": [
				'package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n\tfmt.Println(os.Args)\n}\n',
				'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hi")\n}\n',
			],
			"src/main/java/app/App.java": [
				"package app;\n\nimport java.util.List;\nimport static java.lang.Math.max;\n\nclass App {\n  int f(List<Integer> a) { return max(a.size(), 1); }\n}\n",
				"package app;\n\nimport java.util.List;\n\nclass App {\n  int f(List<Integer> a) { return a.size(); }\n}\n",
			],
			// Python imports anywhere (inside a function too): its imports come from its whole facts.
			"a.py": [
				"import os\n\n\ndef f():\n    import json\n    return json, os\n",
				"import os\n\n\ndef f():\n    return os\n",
			],
		};
		for (const [path, [before, after]] of Object.entries(sources)) {
			const whole = measureVersionsWithFacts(
				[
					{ path, content: before },
					{ path, content: after },
				],
				{ contentTerms: false },
			);
			const lean = measureVersionsWithFacts(
				[
					{ path, content: before, importsOnly: true },
					{ path, content: after },
				],
				{ contentTerms: false },
			);
			assert.equal(lean[0]?.facts, undefined, path);
			assert.ok((whole[0]?.facts?.imports.length ?? 0) > (whole[1]?.facts?.imports.length ?? 0), path);
			assert.deepEqual(lean[0]?.imports, whole[0]?.facts?.imports, path);
			assert.deepEqual(lean[0]?.measure, whole[0]?.measure, path);
			assert.deepEqual(lean[1], whole[1], path);
			const alone = measureWithFacts(path, before, { contentTerms: false, importsOnly: true });
			assert.deepEqual([alone.facts, alone.imports], [undefined, whole[0]?.facts?.imports], path);
		}
	});
});
