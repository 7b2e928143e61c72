/**
 * Needless-code rules through `measureFile` (the real grammars), with a negative case for each.
 * Issue: "a few rules for needless code (catch-and-rethrow, `if (x) return true; else return false`)".
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { ensureMeasureLanguages, measureFile } from "../../src/review/measure.ts";

before(() => ensureMeasureLanguages(["a.ts", "a.py", "a.go", "a.rs", "A.java"]));

/** `[rule, line, callable]` of every hit in `source`. */
function hits(path: string, source: string): Array<[string, number, string | undefined]> {
	return measureFile(path, source).needless.map((hit) => [hit.rule, hit.line, hit.callable]);
}

describe("catch-and-rethrow", () => {
	it("TypeScript: a catch that only rethrows; not one that logs first", () => {
		const source = [
			"function load() {",
			"  try { read(); } catch (error) { throw error; }",
			"}",
			"function logged() {",
			"  try { read(); } catch (error) {",
			"    console.error(error);",
			"    throw error;",
			"  }",
			"}",
			"function wrapped() {",
			"  try { read(); } catch (error) { throw new Error('load failed', { cause: error }); }",
			"}",
		].join("\n");
		assert.deepEqual(hits("src/load.ts", source), [["catch-rethrow", 2, "load"]]);
	});

	it("Python: bare raise and raise of the alias; not a logging handler, nor one before a broader except", () => {
		const source = [
			"def a():",
			"    try:",
			"        read()",
			"    except OSError:",
			"        raise",
			"def b():",
			"    try:",
			"        read()",
			"    except OSError as error:",
			"        raise error",
			"def c():",
			"    try:",
			"        read()",
			"    except OSError as error:",
			"        log(error)",
			"        raise",
			"def d():",
			"    try:",
			"        read()",
			"    except KeyError:",
			"        raise",
			"    except Exception:",
			"        recover()",
		].join("\n");
		assert.deepEqual(hits("pkg/io.py", source), [
			["catch-rethrow", 4, "a"],
			["catch-rethrow", 9, "b"],
		]);
	});

	it("Java: the last catch that only rethrows; not an earlier one, nor one that logs", () => {
		const source = [
			"class Io {",
			"  void a() throws IOException {",
			"    try { read(); } catch (IOException e) { throw e; }",
			"  }",
			"  void b() {",
			"    try { read(); } catch (IllegalStateException e) { throw e; } catch (RuntimeException e) { recover(); }",
			"  }",
			"  void c() throws IOException {",
			"    try { read(); } catch (IOException e) { log.warn(e); throw e; }",
			"  }",
			"}",
		].join("\n");
		assert.deepEqual(hits("src/Io.java", source), [["catch-rethrow", 3, "Io.a"]]);
	});
});

describe("returning a boolean literal from a condition", () => {
	it("TypeScript: if/else, the inverse, if-then-return, and the ternary; not a plain return", () => {
		const source = [
			"function a(x) { if (x > 1) return true; else return false; }",
			"function b(x) { if (x) { return false; } else { return true; } }",
			"function c(x) {",
			"  if (x.ready) {",
			"    return true;",
			"  }",
			"  return false;",
			"}",
			"function d(x) { return x ? true : false; }",
			"function e(x) { return x > 1; }",
			"function f(x) { if (x) return true; else return true; }",
			"function g(x) { if (x) return true; log(); return false; }",
		].join("\n");
		assert.deepEqual(hits("src/checks.ts", source), [
			["boolean-return", 1, "a"],
			["boolean-return", 2, "b"],
			["boolean-return", 4, "c"],
			["boolean-return", 9, "d"],
		]);
	});

	it("Python: if/else, if-then-return and the conditional expression; not with elif", () => {
		const source = [
			"def a(x):",
			"    if x:",
			"        return True",
			"    else:",
			"        return False",
			"def b(x):",
			"    if x:",
			"        return False",
			"    return True",
			"def c(x):",
			"    return True if x else False",
			"def d(x):",
			"    if x:",
			"        return True",
			"    elif x is None:",
			"        return True",
			"    else:",
			"        return False",
		].join("\n");
		assert.deepEqual(hits("pkg/checks.py", source), [
			["boolean-return", 2, "a"],
			["boolean-return", 7, "b"],
			["boolean-return", 11, "c"],
		]);
	});

	it("Java: if/else and the ternary; not a condition returned directly", () => {
		const source = [
			"class Checks {",
			"  boolean a(int x) { if (x > 1) { return true; } else { return false; } }",
			"  boolean b(int x) { return x > 1 ? false : true; }",
			"  boolean c(int x) { return x > 1; }",
			"}",
		].join("\n");
		assert.deepEqual(hits("src/Checks.java", source), [
			["boolean-return", 2, "Checks.a"],
			["boolean-return", 3, "Checks.b"],
		]);
	});

	it("Go: if/else and if-then-return; not with an init statement", () => {
		const source = [
			"package checks",
			"func A(x int) bool {",
			"\tif x > 1 {",
			"\t\treturn true",
			"\t} else {",
			"\t\treturn false",
			"\t}",
			"}",
			"func B(x int) bool {",
			"\tif x > 1 {",
			"\t\treturn true",
			"\t}",
			"\treturn false",
			"}",
			"func C(m map[int]bool) bool {",
			"\tif _, ok := m[1]; ok {",
			"\t\treturn true",
			"\t}",
			"\treturn false",
			"}",
		].join("\n");
		assert.deepEqual(hits("checks/checks.go", source), [
			["boolean-return", 3, "A"],
			["boolean-return", 10, "B"],
		]);
	});

	it("Rust: if/else yielding or returning literals; not if let", () => {
		const source = [
			"fn a(x: i32) -> bool { if x > 1 { true } else { false } }",
			"fn b(x: i32) -> bool { if x > 1 { return false; } else { return true; } }",
			"fn c(x: Option<i32>) -> bool { if let Some(_) = x { true } else { false } }",
		].join("\n");
		assert.deepEqual(hits("src/checks.rs", source), [
			["boolean-return", 1, "a"],
			["boolean-return", 2, "b"],
		]);
	});
});
