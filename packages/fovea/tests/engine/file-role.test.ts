/**
 * A file's role by its path (`rank/file-role.ts`) and the prior focus gives it (`rank/role-prior.ts`): tests,
 * fixtures, benchmarks, examples and vendored or generated-looking files score below production code unless the
 * query is about them or names them.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileRole, subjectStem } from "../../src/engine/rank/file-role.ts";
import { applyRolePrior, rolesAsked } from "../../src/engine/rank/role-prior.ts";

describe("fileRole", () => {
	it("tells production code from tests, fixtures, benchmarks, examples, vendored and generated files", () => {
		const cases: Record<string, string> = {
			"src/router.ts": "production",
			"lib/request.js": "production",
			"src/_pytest/python.py": "production",
			"src/testing-library.ts": "production",
			"src/latest.ts": "production",
			"src/router.test.ts": "test",
			"packages/core/__tests__/x.spec.ts": "test",
			"test/req.hostname.js": "test",
			"testing/test_python.py": "test",
			"context_test.go": "test",
			"gson/src/test/java/com/google/gson/GsonTest.java": "test",
			"tests/regression.rs": "test",
			"packages-private/dts-test/ref.test-d.ts": "test",
			"e2e-tests/login.ts": "test",
			"test/fixtures/app.js": "fixture",
			"testdata/x.go": "fixture",
			"benches/search.rs": "benchmark",
			"metrics/src/main/java/x/ParseBenchmark.java": "benchmark",
			"packages/router/bench/router.bench.ts": "benchmark",
			"examples/view-constructor/github-view.js": "example",
			"doc/data/messages/a/abstract-method/bad.py": "example",
			"docs/conf.py": "example",
			"crates/core/flags/doc/help.rs": "production",
			"src/docs/render.ts": "production",
			"sphinx/themes/basic/static/underscore-1.13.1.js": "vendored",
			"third_party/x/y.py": "vendored",
			"api/service_pb2.py": "generated",
			"api/service.pb.go": "generated",
		};
		for (const [path, role] of Object.entries(cases)) assert.equal(fileRole(path), role, path);
	});
});

describe("subjectStem", () => {
	it("names what a file is about, a test by its subject", () => {
		assert.equal(subjectStem("context_test.go"), "context");
		assert.equal(subjectStem("packages/runtime-dom/__tests__/customElement.spec.ts"), "customElement");
		assert.equal(subjectStem("gson/src/test/java/com/google/gson/GsonTest.java"), "Gson");
		assert.equal(subjectStem("testing/test_cacheprovider.py"), "cacheprovider");
		assert.equal(subjectStem("packages-private/dts-test/setupHelpers.test-d.ts"), "setupHelpers");
		assert.equal(subjectStem("src/latest.ts"), "latest");
		assert.equal(subjectStem("src/Contest.java"), "Contest");
	});
});

describe("role prior", () => {
	it("multiplies the scores of other roles' files and their symbols, unless the query asks for that role", () => {
		const paths = ["src/a.ts", "src/a.test.ts", "bench/a.bench.ts"];
		const run = (asked: Set<string>) => {
			const fileScore = Float64Array.of(1, 1, 1);
			// files 0-2, then one symbol in each file
			const score = Float64Array.of(1, 1, 1, 2, 2, 2);
			const fileOf = Int32Array.of(0, 1, 2, 0, 1, 2);
			applyRolePrior(
				fileScore,
				score,
				fileOf,
				(id) => fileRole(paths[id] as string),
				asked as never,
				new Float64Array(3),
				Int32Array.of(0, 1, 2, 3, 4, 5),
			);
			return [[...fileScore], [...score.slice(3)]];
		};
		const plain = run(rolesAsked(new Set(), []));
		assert.ok((plain[0]?.[0] as number) > (plain[0]?.[1] as number));
		assert.ok((plain[0]?.[0] as number) > (plain[0]?.[2] as number));
		assert.ok((plain[1]?.[0] as number) > (plain[1]?.[1] as number), "symbols follow their file");
		const aboutTests = run(rolesAsked(new Set(["test"]), []));
		assert.equal(aboutTests[0]?.[1], 1, "a query about tests leaves tests as they scored");
		assert.ok((aboutTests[0]?.[2] as number) < 1, "a benchmark is still ranked down");
		assert.ok(rolesAsked(new Set(["example"]), []).has("example"), "a query about docs or examples asks for them");
		const namesBench = run(rolesAsked(new Set(), ["bench/a.bench.ts"]));
		assert.equal(namesBench[0]?.[2], 1, "a query naming a benchmark's path asks for benchmarks");
	});

	it("reads symbols at the scored ids only", () => {
		const paths = ["src/a.ts", "src/a.test.ts"];
		const fileScore = Float64Array.of(1, 1);
		// A symbol outside `scored` is left as it is (a focus's score is zero there): nothing passes over every node.
		const score = Float64Array.of(1, 1, 2, 2, 2);
		applyRolePrior(
			fileScore,
			score,
			Int32Array.of(0, 1, 0, 1, 1),
			(id) => fileRole(paths[id] as string),
			rolesAsked(new Set(), []),
			new Float64Array(2),
			Int32Array.of(3, 0),
		);
		assert.deepEqual([...score.slice(2)], [2, 1, 2]);
	});
});
