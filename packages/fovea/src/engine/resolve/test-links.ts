/**
 * Test ↔ subject links by naming convention, probing only `files` (root-relative paths):
 *
 * - TS/JS: `x.test.ts`, `x.spec.tsx`, `__tests__/x.ts` → `x.<ext>` (any TS/JS extension) in the same directory,
 *   beside the `__tests__` directory, or with the nearest `test`/`tests`/`__tests__`/`spec` directory swapped for
 *   `src` or dropped; failing that, any non-test `x.<ext>` below the directory holding that test directory.
 * - Python: `test_x.py`, `x_test.py` → `x.py` (or the package `x/__init__.py`) in the same directory, or with
 *   `tests`/`test`/`testing` swapped for `src` or dropped; failing that, any non-test `x.py` or `x/__init__.py` below the
 *   directory holding the tests directory (pytest's `testing/test_config.py` tests `src/_pytest/config/__init__.py`).
 * - Go: `x_test.go` → the non-test `.go` files of the same directory, `x.go` first.
 * - Java: `XTest.java`, `XTests.java`, `XIT.java`, `TestX.java` → `X.java` at the same package path with
 *   `src/test/java` swapped for `src/main/java`; failing that, any `X.java` outside test source trees.
 * - Rust: `tests/x.rs` → `src/x.rs` (or `src/x/mod.rs`) of the same crate, then the crate sources it `use`s (an
 *   integration test tests a crate through its public paths, `use ignore::dir::Ignore`, whatever its own name), else
 *   the crate's `src/lib.rs`/`src/main.rs`.
 *
 * A path that is not a test by these conventions has no subjects (`[]`).
 */
import { basenameOf, dirnameOf, fileIndex, joinPath, languageOf } from "../model/index.ts";

const SCRIPT_EXTENSIONS = [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];
const SCRIPT_TEST = /^(.+)\.(?:test|spec)\.[cm]?[jt]sx?$/;
const SCRIPT_TEST_DIRS = new Set(["test", "tests", "__tests__", "spec"]);
const PYTHON_TEST = /^test_(.+)\.py$|^(.+)_test\.py$/;
const PYTHON_TEST_DIRS = new Set(["test", "tests", "testing"]);
const JAVA_TEST = /^(.+?)(?:Tests?|IT)\.java$|^Test(.+)\.java$/;

/** Whether `path` is a test file by the conventions above. */
export function isTestPath(path: string): boolean {
	const name = basenameOf(path);
	switch (languageOf(path)) {
		case "typescript":
		case "tsx":
		case "javascript":
			return SCRIPT_TEST.test(name) || path.split("/").slice(0, -1).includes("__tests__");
		case "python":
			return PYTHON_TEST.test(name);
		case "go":
			return name.endsWith("_test.go");
		case "java":
			return JAVA_TEST.test(name);
		case "rust":
			return path.split("/").slice(0, -1).includes("tests");
		default:
			return false;
	}
}

/**
 * The files `path` tests, nearest first; `[]` when `path` is not a test or nothing matches. `uses` are the files its
 * imports resolve to, which link a test whose name mirrors no source (a Rust integration test) to what it exercises.
 */
export function testSubjects(path: string, files: ReadonlySet<string>, uses: readonly string[] = []): string[] {
	const name = basenameOf(path);
	let found: string[];
	switch (languageOf(path)) {
		case "typescript":
		case "tsx":
		case "javascript": {
			const stem = SCRIPT_TEST.exec(name)?.[1] ?? (isTestPath(path) ? name.replace(/\.[^.]+$/, "") : undefined);
			if (stem === undefined) return [];
			found = bySwappedDirs(
				path,
				SCRIPT_TEST_DIRS,
				files,
				SCRIPT_EXTENSIONS.map((ext) => `${stem}${ext}`),
			);
			break;
		}
		case "python": {
			const match = PYTHON_TEST.exec(name);
			const stem = match?.[1] ?? match?.[2];
			if (stem === undefined) return [];
			found = bySwappedDirs(path, PYTHON_TEST_DIRS, files, [`${stem}.py`, `${stem}/__init__.py`]);
			break;
		}
		case "go": {
			if (!name.endsWith("_test.go")) return [];
			const own = joinPath(dirnameOf(path), `${name.slice(0, -"_test.go".length)}.go`);
			const listing = fileIndex(files).byDir.get(dirnameOf(path)) ?? [];
			const others = listing.filter((p) => p.endsWith(".go") && !p.endsWith("_test.go"));
			found = own !== undefined && others.includes(own) ? [own, ...others.filter((p) => p !== own)] : others;
			break;
		}
		case "java":
			found = javaSubjects(path, name, files);
			break;
		case "rust":
			found = rustSubjects(path, name, files, uses);
			break;
		default:
			return [];
	}
	return found.filter((subject) => subject !== path && !isTestPath(subject));
}

/**
 * Files named `names` (a name may hold a directory: `x/__init__.py`) in: the test's directory; beside a `__tests__` directory; the nearest test
 * directory swapped for `src` or dropped. Falls back to any such name below the directory holding that test dir.
 */
function bySwappedDirs(
	path: string,
	testDirs: ReadonlySet<string>,
	files: ReadonlySet<string>,
	names: string[],
): string[] {
	const dir = dirnameOf(path);
	const segments = dir === "" ? [] : dir.split("/");
	let at = -1;
	for (let i = segments.length - 1; i >= 0; i--) {
		if (testDirs.has(segments[i] as string)) {
			at = i;
			break;
		}
	}
	const dirs = [dir];
	if (at >= 0) {
		const before = segments.slice(0, at);
		const after = segments.slice(at + 1);
		if (segments[at] === "__tests__") dirs.push([...before, ...after].join("/"));
		dirs.push([...before, "src", ...after].join("/"), [...before, ...after].join("/"));
	}
	for (const candidateDir of dirs) {
		const hits: string[] = [];
		for (const name of names) {
			const candidate = joinPath(candidateDir, name);
			if (candidate !== undefined && files.has(candidate) && candidate !== path) hits.push(candidate);
		}
		if (hits.length > 0) return hits;
	}
	if (at < 0) return [];
	const root = segments.slice(0, at).join("/");
	const prefix = root === "" ? "" : `${root}/`;
	const byName = fileIndex(files).byName;
	const hits: string[] = [];
	for (const name of names) {
		// A name with a directory (`x/__init__.py`) is looked up by its file name and must end with the whole of it.
		for (const candidate of byName.get(basenameOf(name)) ?? []) {
			if (candidate !== name && !candidate.endsWith(`/${name}`)) continue;
			if (candidate.startsWith(prefix) && !isTestPath(candidate) && !inDir(candidate, testDirs)) hits.push(candidate);
		}
	}
	return hits;
}

function inDir(path: string, dirs: ReadonlySet<string>): boolean {
	return path
		.split("/")
		.slice(0, -1)
		.some((segment) => dirs.has(segment));
}

function javaSubjects(path: string, name: string, files: ReadonlySet<string>): string[] {
	const match = JAVA_TEST.exec(name);
	const stem = match?.[1] ?? match?.[2];
	if (stem === undefined) return [];
	const marker = "src/test/java/";
	const at = path.startsWith(marker) ? 0 : path.indexOf(`/${marker}`) + 1; // 0 also when absent
	if (path.startsWith(marker, at)) {
		const main = `${path.slice(0, at)}src/main/java/${dirnameOf(path.slice(at + marker.length))}`;
		const candidate = joinPath(main, `${stem}.java`);
		if (candidate !== undefined && files.has(candidate)) return [candidate];
	}
	const sameDir = joinPath(dirnameOf(path), `${stem}.java`);
	if (sameDir !== undefined && files.has(sameDir)) return [sameDir];
	return (fileIndex(files).byName.get(`${stem}.java`) ?? []).filter((p) => !p.includes("src/test/"));
}

function rustSubjects(path: string, name: string, files: ReadonlySet<string>, uses: readonly string[]): string[] {
	const segments = path.split("/");
	const at = segments.lastIndexOf("tests", segments.length - 2);
	if (at < 0) return [];
	const src = [...segments.slice(0, at), "src"].join("/");
	const stem = name.replace(/\.rs$/, "");
	const found = [`${src}/${stem}.rs`, `${src}/${stem}/mod.rs`].filter((candidate) => files.has(candidate));
	// Crate sources only: a helper module of the tests (`tests/util.rs`) is not what they test.
	for (const used of uses) {
		if (!found.includes(used) && used.split("/").slice(0, -1).includes("src") && !isTestPath(used)) found.push(used);
	}
	if (found.length > 0) return found;
	for (const candidate of [`${src}/lib.rs`, `${src}/main.rs`]) {
		if (files.has(candidate)) return [candidate];
	}
	return [];
}
