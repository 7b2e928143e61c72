/**
 * What counts as test code for the report's ranking and story: the files Fovea's focus ranks below production code
 * as tests or their fixtures (`fileRole`: test naming conventions, test directories such as Express's `test/` and
 * pytest's `testing/`, fixture and test-data folders), one classification for both tools, and test callables inside
 * source files: a Rust `mod tests` and the callbacks of `describe`/`it`/`test`.
 */
import { fileRole } from "pi-fovea/file-role";

/** A callable or container named for a test framework's callback: `describe('x')`, `it('y')`, `test('z')`. */
const TEST_CALLBACK = /^(?:describe|it|test|suite)\(/;

/** Whether the root-relative `path` is a test file (or a fixture of tests). */
export function isTestFile(path: string): boolean {
	const role = fileRole(path);
	return role === "test" || role === "fixture";
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
