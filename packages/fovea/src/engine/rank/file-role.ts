/**
 * What a file is for, by its path: production code, or a test, benchmark, fixture, example (documentation's code
 * included) or vendored copy. A
 * question about behaviour is answered by production code; the others repeat its words (a test names what it
 * tests, an example calls the API, a benchmark builds a router) and, ranked on words alone, come first. Focus ranks
 * them below production code unless the query is about them (`query-reading.ts`).
 *
 * Built on the index's own classification, not beside it: test files by `isTestPath` (the naming conventions test
 * links follow) plus the directories that hold tests under plain names (Express's `test/`, pytest's `testing/`);
 * dependency directories by the walk's list (`DEPENDENCY_DIRS`, skipped by the walk, here for paths given directly).
 * Minified and generated content never reaches the index (`scan/file-content.ts`), so only names that look generated
 * are left to tell here.
 */
import { DEPENDENCY_DIRS } from "../../workspace/exclusions.ts";
import { isTestPath } from "../resolve/test-links.ts";

/** The roles a file can have; `production` is everything else. */
export type FileRole = "production" | "test" | "benchmark" | "fixture" | "example" | "vendored" | "generated";

/** Directories whose files are tests, whatever they are called. */
const TEST_DIRS = new Set(["test", "tests", "__tests__", "spec", "specs", "testing", "e2e"]);
/** Directories named for their tests: `dts-test`, `e2e-tests`, `unit_tests`. */
const NAMED_TEST_DIR = /^[\w.]+[-_]tests?$/;
/** Test files the naming conventions of test links leave out: TypeScript type tests (`ref.test-d.ts`). */
const TYPE_TEST = /\.(?:test|spec)-d\.[cm]?tsx?$/;
/** Directories of test data and doubles. */
const FIXTURE_DIRS = new Set(["fixtures", "fixture", "__fixtures__", "testdata", "test-data", "__mocks__", "mocks"]);
/** Directories of benchmarks. */
const BENCHMARK_DIRS = new Set(["bench", "benches", "benchmark", "benchmarks", "perf"]);
/** Directories of examples, demos and playgrounds. */
const EXAMPLE_DIRS = new Set(["example", "examples", "demo", "demos", "sample", "samples", "playground"]);
/**
 * A repository's documentation tree, at its root: the code in it is example snippets (pylint's
 * `doc/data/messages/<name>/bad.py`), gallery scripts and the docs build's configuration, which repeat the words of the API
 * they show. Only at the root: a `doc` directory further down is as often a module of the code (ripgrep's
 * `crates/core/flags/doc/`).
 */
const DOC_ROOTS = new Set(["doc", "docs", "documentation"]);
/** Directories of copied third-party code that the walk does not skip (`vendor/` and the like it does). */
const VENDORED_DIRS = new Set(["third_party", "third-party", "thirdparty", "_vendor", "vendored", "extern"]);
/** A benchmark by its name: `router.bench.ts`, `bench_x.rs`, `ParseBenchmark.java`, `x_benchmark_test.go`. */
const BENCHMARK_NAME = /(?:^|[._-])bench(?:mark)?s?(?:[._-]|$)|Benchmarks?\.[^.]+$/i;
/** A library copied in with its version in its name: `underscore-1.13.1.js`, `jquery-3.5.1.js`. */
const VERSIONED_COPY = /^[a-z][\w.]*?-\d+\.\d+(?:\.\d+)?(?:[.-][\w]+)*\.(?:js|mjs|cjs)$/i;
/** Names generators give their output: protobuf, gRPC, Dart's build runner, `*.generated.ts`. */
const GENERATED_NAME = /_pb2(?:_grpc)?\.py$|\.pb(?:\.gw)?\.go$|_grpc\.pb\.go$|\.g\.dart$|[.-]generated\.[^.]+$/i;

/** The role of the file at root-relative `path`. */
export function fileRole(path: string): FileRole {
	const segments = path.split("/");
	const name = segments[segments.length - 1] ?? "";
	const dirs = segments.slice(0, -1).map((dir) => dir.toLowerCase());
	if (dirs.some((dir) => DEPENDENCY_DIRS.has(dir) || VENDORED_DIRS.has(dir)) || VERSIONED_COPY.test(name)) {
		return "vendored";
	}
	if (GENERATED_NAME.test(name)) return "generated";
	if (dirs.some((dir) => FIXTURE_DIRS.has(dir))) return "fixture";
	if (dirs.some((dir) => BENCHMARK_DIRS.has(dir)) || BENCHMARK_NAME.test(name)) return "benchmark";
	if (isTestPath(path) || TYPE_TEST.test(name) || dirs.some((dir) => TEST_DIRS.has(dir) || NAMED_TEST_DIR.test(dir))) {
		return "test";
	}
	if (dirs.some((dir) => EXAMPLE_DIRS.has(dir)) || DOC_ROOTS.has(dirs[0] ?? "")) return "example";
	return "production";
}

/** A test file name's markers: `test_x.py`, `x_test.go`, `x.test.ts`, `x.spec-d.ts`, `XTest.java`, `TestX.java`. */
const TEST_MARKERS = /^test_|_test$|\.(?:test|spec)(?:-d)?$|Tests?$|^Test(?=[A-Z])/g;

/**
 * The name of what a file is about: its name without directories and extension, and without the markers of a test
 * (`context_test.go` → `context`, `customElement.spec.ts` → `customElement`, `GsonTest.java` → `Gson`).
 */
export function subjectStem(path: string): string {
	const name = path.slice(path.lastIndexOf("/") + 1);
	const dot = name.lastIndexOf(".");
	const stem = dot > 0 ? name.slice(0, dot) : name;
	return isTestPath(path) || TYPE_TEST.test(name) ? stem.replace(TEST_MARKERS, "") : stem;
}
