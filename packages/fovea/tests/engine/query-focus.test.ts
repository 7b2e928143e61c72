/**
 * Focus on queries as agents write them, on a real Git repository: a path and line in a stack trace name the file
 * and symbol to look at, even when the prose around them matches another file's words better; tests, benchmarks and
 * examples that repeat the query's words rank below the production code unless the query is about tests; overloads
 * and look-alikes are one line of the answer, in focus and in sketch.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { gitRepo } from "../../../../test/e2e/support/workspaces.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { tempDirs } from "../support/temp-tree.ts";

const temps = tempDirs();
const maps: CodeMap[] = [];
after(async () => {
	for (const map of maps) await map.close();
	await temps.removeAll();
});

/** Words the prose of the queries repeats, many times in the non-production files. */
const ROUTER_WORDS = "router matching path params ".repeat(6);

const SHOP: Record<string, string> = {
	"src/payments/charge.ts": [
		"import { audit } from './audit';",
		"export function settle(total: number): number {",
		"\tconst fee = total * 0.02;",
		"\taudit(fee);",
		"\treturn total + fee;",
		"}",
		"",
	].join("\n"),
	"src/payments/audit.ts": "export function audit(amount: number): void {\n\tconsole.log(amount);\n}\n",
	"src/payments/refund.ts": [
		"// Refunding a card payment: a refund fails with an error when the card payment was refunded already.",
		"export function refundCardPayment(payment: string): string {",
		"\t// refund the card payment, or fail with an error",
		"\treturn 'refund ' + payment;",
		"}",
		"",
	].join("\n"),
	"src/router.ts": [
		"// Router: matching a request path against the route params.",
		"export function matchRoute(path: string, params: string[]): boolean {",
		"\treturn params.every((p) => path.includes(p));",
		"}",
		"",
	].join("\n"),
	"test/router.test.ts": `import { matchRoute } from '../src/router';\n// ${ROUTER_WORDS}\nexport function get() { return matchRoute('router/matching/path', ['params']); }\nexport function routerMatchingPathParams() {}\n`,
	"test/helpers.test.ts": `// ${ROUTER_WORDS}\nexport function get() {}\nexport function send() {}\n`,
	"bench/router.bench.ts": `import { matchRoute } from '../src/router';\n// ${ROUTER_WORDS}\nconst router = matchRoute('router/matching/path', ['params']);\nexport { router };\nexport function routerMatchingPathParams() {}\n`,
	"examples/router/app.ts": `import { matchRoute } from '../../src/router';\n// ${ROUTER_WORDS}\nexport const app = matchRoute;\n`,
	"src/assert.ts": [
		"export function assertThrows(fn: () => void): void;",
		"export function assertThrows(fn: () => void, message: string): void;",
		"export function assertThrows(fn: () => void, pattern: RegExp, message: string): void;",
		"export function assertThrows(fn: () => void, ...rest: unknown[]): void {",
		"\ttry { fn(); } catch { return; }",
		"\tthrow new Error(String(rest));",
		"}",
		"",
	].join("\n"),
};

/** The code map of a committed repository `name` holding `files`. */
async function repoMap(name: string, files: Record<string, string>): Promise<CodeMap> {
	const base = await temps.make();
	const map = new CodeMap(gitRepo(join(base, name), files, { commit: true }), { cache: false });
	maps.push(map);
	return map;
}

const shop = () => repoMap("shop", SHOP);

describe("focus on queries as agents write them", () => {
	it("a stack trace's path and line name the file and the symbol, above files that match the prose", async () => {
		const map = await shop();
		const query = [
			"Refunding a card payment fails with an error when the card payment was refunded already:",
			"TypeError: Cannot read properties of undefined",
			"    at /home/me/shop/src/payments/charge.ts:3:14",
			"    at processTicksAndRejections (node:internal/process/task_queues:95:5)",
		].join("\n");
		const answer = await map.focus({ text: query }, 1500);
		assert.equal(answer.files[0]?.file, "src/payments/charge.ts", JSON.stringify(answer.files.slice(0, 4)));
		assert.equal(answer.symbols[0]?.name, "settle", "line 3 is inside settle");
	});

	it("a link to a file and line of the repository's web view names them, above files that match the prose", async () => {
		const map = await shop();
		const query = [
			"Refunding a card payment fails with an error when the card payment was refunded already.",
			"It is handled [at this place](https://github.com/acme/shop/blob/0a1b2c3d/src/payments/charge.ts#L3-L4).",
		].join("\n");
		const answer = await map.focus({ text: query }, 1500);
		assert.equal(answer.files[0]?.file, "src/payments/charge.ts", JSON.stringify(answer.files.slice(0, 4)));
		assert.equal(answer.symbols[0]?.name, "settle", "line 3 is inside settle");
	});

	it("an identifier in backticks names the symbol, a qualified module path its file", async () => {
		const map = await shop();
		const answer = await map.focus({ text: "a refund fails with an error: is `audit` called twice?" }, 1500);
		assert.equal(answer.files[0]?.file, "src/payments/audit.ts", JSON.stringify(answer.files.slice(0, 4)));
	});

	it("tests, benchmarks and examples that repeat the words rank below the production code", async () => {
		const map = await shop();
		const answer = await map.focus({ text: "router matching of path params" }, 1500);
		const files = answer.files.map((f) => f.file);
		assert.equal(files[0], "src/router.ts", files.join(", "));
		assert.equal(files[1], "test/router.test.ts", "the test of the top file follows it, before benchmark and example");
		assert.equal(answer.symbols[0]?.name, "matchRoute", JSON.stringify(answer.symbols.slice(0, 4)));
	});

	it("a query about tests ranks the tests as their words say", async () => {
		const map = await shop();
		const answer = await map.focus({ text: "tests for router matching of path params" }, 1500);
		const files = answer.files.map((f) => f.file);
		assert.equal(files[0], "test/router.test.ts", files.join(", "));
		assert.ok(files.indexOf("bench/router.bench.ts") > files.indexOf("src/router.ts"), "a benchmark is no test");
	});

	it("an issue whose body reports a failing test still ranks the production code first", async () => {
		const map = await shop();
		const issue = [
			"router matching of path params drops the last param",
			"",
			"My test fails: the test expects every param.",
		].join("\n");
		const files = (await map.focus({ text: issue }, 1500)).files.map((f) => f.file);
		assert.equal(files[0], "src/router.ts", files.join(", "));
		// A test that only repeats the words ranks below every production file of the answer, as for a one-line query.
		const production = files.filter((f) => f.startsWith("src/"));
		assert.ok(production.length >= 2, files.join(", "));
		for (const file of production)
			assert.ok(files.indexOf("test/helpers.test.ts") > files.indexOf(file), files.join(", "));
	});

	it("overloads and look-alikes are one line with their count, in focus and in sketch", async () => {
		const map = await shop();
		const answer = await map.focus({ text: "assertThrows" }, 1500);
		const lines = answer.text.split("\n").filter((line) => /src\/assert\.ts:\d+ .*assertThrows/.test(line));
		assert.equal(lines.length, 1, answer.text);
		assert.match(lines[0] as string, /×4$/);
		const lookAlikes = await map.focus({ text: "tests: get helpers" }, 1500);
		const gets = lookAlikes.text.split("\n").filter((line) => /\.ts:\d+ .*\bget\(/.test(line));
		assert.equal(gets.length, 1, lookAlikes.text);
		assert.match(gets[0] as string, /×2 \(in 2 files\)/);
		const sketch = await map.sketch(1500);
		assert.match(sketch.text, /src\/assert\.ts — assertThrows ×4/, sketch.text);
	});
});

/** A Python plugin package: its `unittest` support has no `skip`; `skip` is its outcomes', re-exported by the package. */
const PLUGIN: Record<string, string> = {
	"plugin/__init__.py": "from .outcomes import skip\n",
	"plugin/outcomes.py": "def skip(reason):\n    raise Skipped(reason)\n\n\nclass Skipped(Exception):\n    pass\n",
	"plugin/unittest.py": [
		"def collect_test_case(cls):",
		"    if getattr(cls, '__unittest_skip__', False):",
		"        return []",
		"    return [cls]",
		"",
	].join("\n"),
	"plugin/runner.py": "def run_one(item):\n    return item()\n",
};

describe("qualified names whose leading parts spell a module", () => {
	const plugin = () => repoMap("plugin", PLUGIN);

	it("name that module when it lacks the member, not another file's member of that name", async () => {
		const map = await plugin();
		const answer = await map.focus({ text: "tearDown runs for classes marked with `unittest.skip`" }, 1500);
		assert.equal(answer.files[0]?.file, "plugin/unittest.py", JSON.stringify(answer.files.slice(0, 3)));
	});

	it("name the member when the module is the package's own file, which re-exports it", async () => {
		const map = await plugin();
		const answer = await map.focus({ text: "`plugin.skip` ignores the reason" }, 1500);
		assert.equal(answer.files[0]?.file, "plugin/outcomes.py", JSON.stringify(answer.files.slice(0, 3)));
	});
});
