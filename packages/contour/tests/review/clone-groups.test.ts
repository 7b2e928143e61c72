/**
 * Clone findings lead with signal (issue 32): a group of look-alike callables is one finding naming every member, a
 * pair that was as alike on the base side is not new, and clones in test files rank after production findings and
 * say they are tests.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { analyzeChange } from "../../src/review/analyze.ts";
import { ensureMeasureLanguages } from "../../src/review/measure.ts";
import { isTestCallable } from "../../src/review/test-code.ts";

before(() => ensureMeasureLanguages(["a.ts", "a.py", "a.js"]));

/** A test case of a router table: the same shape for every route. */
function routeCase(i: number): string {
	return `test("route ${i}", () => {
	const router = new Router();
	router.add("GET", "/items/${i}/:id", (req) => ({ status: 200, body: req.params.id }));
	const found = router.find("GET", "/items/${i}/42");
	if (found === undefined) throw new Error("no route ${i}");
	assert.equal(found.handler({ params: found.params }).status, 200);
	assert.deepEqual(found.params, { id: "42" });
});
`;
}

/** A TS function with `branches` ifs: cyclomatic complexity `branches + 1`. */
function branchy(name: string, branches: number): string {
	const body = Array.from({ length: branches }, (_, i) => `  if (x === ${i}) { y += ${i}; }`).join("\n");
	return `export function ${name}(x: number): number {\n  let y = 0;\n${body}\n  return y;\n}\n`;
}

/** A headers class whose two methods are about 70% alike; `any` is how they spell the annotation. */
function headers(any: string): string {
	return `import typing
from typing import Any

class Headers:
    def get_all(self, key: str, default: ${any} = None) -> ${any}:
        values = [v for k, v in self._items if k.lower() == key.lower()]
        if not values:
            return default
        return values

    def pop_all(self, key: str, default: ${any} = None) -> ${any}:
        values = [v for k, v in self._items if k.lower() == key.lower()]
        self._remove_all(key.lower(), True)
        if not values:
            return default
        return values
`;
}

describe("clone groups", () => {
	it("a test table grown by four look-alike cases is one finding naming all four, after the production finding", async () => {
		const cases = [0, 1, 2, 3].map(routeCase);
		const review = await analyzeChange({
			files: [
				{ path: "src/router.ts", before: branchy("match", 3), after: branchy("match", 12) },
				{ path: "tests/router.test.ts", before: cases[0], after: cases.join("\n") },
			],
		});
		assert.deepEqual(
			review.findings.map((f) => [f.kind, f.file, f.tests ?? false]),
			[
				["complexity", "src/router.ts", false],
				["exact-clone", "tests/router.test.ts", true],
			],
			"one finding for the group, ranked after the production finding",
		);
		const group = review.findings[1];
		assert.ok(group);
		assert.match(group.title, /^In tests: /);
		assert.match(group.title, /\(4 look-alike callables\)$/);
		assert.deepEqual(
			group.witnesses.map((w) => `${w.side} ${w.file}:${w.line}`),
			[
				"after tests/router.test.ts:10",
				"after tests/router.test.ts:1",
				"after tests/router.test.ts:19",
				"after tests/router.test.ts:28",
			],
		);
	});

	it("a pair as alike before the change as after it is not a new near clone", async () => {
		// `Any` → `typing.Any` nudges the two methods from 68% to 70% alike: the pair is no newer than it was.
		const review = await analyzeChange({
			files: [{ path: "pkg/headers.py", before: headers("Any"), after: headers("typing.Any") }],
		});
		assert.deepEqual(
			review.deltas.map((d) => d.status),
			["changed", "changed"],
		);
		assert.deepEqual(
			review.findings.filter((f) => f.kind.endsWith("clone")),
			[],
		);
	});

	it("a copy that became alike by the change is still new", async () => {
		const review = await analyzeChange({
			files: [
				{
					path: "pkg/headers.py",
					before: headers("Any").replace(
						"self._remove_all(key.lower(), True)",
						"self._items = [(k, v) for k, v in self._items if not k.lower().startswith(key.lower()) and v is not None and len(v) > 0]",
					),
					after: headers("Any").replace("self._remove_all(key.lower(), True)", "self._items.clear()"),
				},
			],
		});
		assert.deepEqual(
			review.findings.map((f) => f.kind),
			["near-clone"],
		);
	});
});

describe("test code", () => {
	it("files under a test directory, Rust test modules and describe/it callbacks are test code", () => {
		assert.equal(isTestCallable("test/req.acceptsCharsets.js", { name: "f" }), true);
		assert.equal(isTestCallable("testing/code/helpers.py", { name: "f" }), true);
		assert.equal(isTestCallable("crates/ignore/src/dir.rs", { name: "absolute_parent", container: "tests" }), true);
		assert.equal(isTestCallable("src/a.js", { name: "it('works')", container: "describe('a')" }), true);
		assert.equal(isTestCallable("src/contest/latest.ts", { name: "testable", container: "Tester" }), false);
	});

	it("look-alike cases in a plain-named file under test/ rank after production findings as tests", async () => {
		const cases = [0, 1, 2].map(routeCase);
		const review = await analyzeChange({
			files: [
				{ path: "lib/router.ts", before: branchy("match", 3), after: branchy("match", 12) },
				{ path: "test/router.js", after: cases.join("\n") },
			],
		});
		assert.deepEqual(
			review.findings.map((f) => [f.kind, f.tests ?? false]),
			[
				["complexity", false],
				["exact-clone", true],
			],
		);
	});
});
