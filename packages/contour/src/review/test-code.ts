/**
 * What counts as test code for the report's ranking and story: Fovea's test-file conventions (`isTestPath`:
 * `x.test.ts`, `test_x.py`, `x_test.go`, `XTest.java`, Rust's `tests/`), files under a test directory (`test/`,
 * `tests/`, `__tests__/`, `spec/`, `testing/`: Express, Axios and pytest keep their tests there under plain names),
 * and test callables inside source files: a Rust `mod tests` and the callbacks of `describe`/`it`/`test`.
 */
import { isTestPath } from "pi-fovea/engine";

/** Directory names that hold tests, whatever the files in them are called. */
const TEST_DIRS = new Set(["test", "tests", "__tests__", "spec", "testing"]);
/** A callable or container named for a test framework's callback: `describe('x')`, `it('y')`, `test('z')`. */
const TEST_CALLBACK = /^(?:describe|it|test|suite)\(/;

/** Whether the root-relative `path` is a test file. */
export function isTestFile(path: string): boolean {
	return (
		isTestPath(path) ||
		path
			.split("/")
			.slice(0, -1)
			.some((dir) => TEST_DIRS.has(dir))
	);
}

/** Whether a callable (its file, name and container) is test code. */
export function isTestCallable(file: string, callable: { name: string; container?: string }): boolean {
	if (isTestFile(file)) return true;
	const container = callable.container ?? "";
	return (
		container === "tests" ||
		container.startsWith("tests.") ||
		TEST_CALLBACK.test(container) ||
		TEST_CALLBACK.test(callable.name)
	);
}
