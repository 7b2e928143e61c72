/**
 * Reading a query for what it names precisely (`terms/query-reading.ts`): traceback and stack frames of each
 * language give paths, lines and names, the innermost frame strongest; backticks give names and paths; imports in
 * code blocks give qualified names; prose gives nothing precise; words say whether the query is about tests.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { describe, it } from "node:test";
import { Worker } from "node:worker_threads";
import { hasBody, readQuery } from "../../src/engine/terms/index.ts";

const pathsOf = (text: string) => readQuery(text).paths.map((p) => [p.path, p.line, p.weight]);
const namesOf = (text: string) => readQuery(text).names.map((n) => n.name);

describe("readQuery", () => {
	it("reads a Python traceback innermost frame first, with its line and function", () => {
		const text = [
			"Traceback (most recent call last):",
			'  File "/home/u/repro.py", line 3, in <module>',
			'  File "/usr/lib/python3/site-packages/requests/sessions.py", line 512, in request',
			'  File "/usr/lib/python3/site-packages/requests/models.py", line 90, in prepare_body',
		].join("\n");
		assert.deepEqual(pathsOf(text), [
			["/usr/lib/python3/site-packages/requests/models.py", 90, 1],
			["/usr/lib/python3/site-packages/requests/sessions.py", 512, 0.8],
			["/home/u/repro.py", 3, 0.8 ** 2],
		]);
		assert.deepEqual(namesOf(text), ["prepare_body", "request"]);
	});

	it("reads JavaScript, Java, Go and Rust frames", () => {
		const js =
			"TypeError: x\n    at Router.handle (/app/node_modules/express/lib/router/index.js:284:7)\n    at /app/lib/route.js:10:5";
		assert.deepEqual(pathsOf(js), [
			["/app/node_modules/express/lib/router/index.js", 284, 1],
			["/app/lib/route.js", 10, 0.8],
		]);
		assert.deepEqual(namesOf(js), ["Router.handle"]);
		const java = "com.google.gson.JsonSyntaxException\n\tat com.google.gson.Gson.fromJson(Gson.java:1023)";
		assert.deepEqual(pathsOf(java), [["Gson.java", 1023, 1]]);
		assert.deepEqual(namesOf(java), ["com.google.gson.Gson.fromJson"]);
		const go =
			"goroutine 1 [running]:\ngithub.com/gin-gonic/gin.(*Context).Next(...)\n\t/go/src/gin/context.go:174 +0x2b";
		assert.deepEqual(pathsOf(go), [["/go/src/gin/context.go", 174, 1]]);
		assert.deepEqual(namesOf(go), ["Context.Next"]);
		const rust = "thread 'main' panicked at crates/core/main.rs:10:5\n   0: grep_searcher::searcher::Searcher::search";
		assert.deepEqual(pathsOf(rust), [["crates/core/main.rs", 10, 1]]);
		assert.deepEqual(namesOf(rust), ["grep_searcher::searcher::Searcher::search"]);
	});

	it("names the frames that only build or throw the error weakly, and the first frame outside them as the innermost", () => {
		const java = [
			"com.fasterxml.jackson.core.JsonParseException: Unexpected character",
			"\tat com.fasterxml.jackson.core.JsonParser._constructError(JsonParser.java:1771)",
			"\tat com.fasterxml.jackson.core.base.ParserMinimalBase._reportUnexpectedChar(ParserMinimalBase.java:475)",
			"\tat com.fasterxml.jackson.core.json.ReaderBasedJsonParser.nextFieldName(ReaderBasedJsonParser.java:915)",
			"\tat com.example.App.main(App.java:12)",
		].join("\n");
		assert.deepEqual(pathsOf(java), [
			["JsonParser.java", 1771, 0.3],
			["ParserMinimalBase.java", 475, 0.3],
			["ReaderBasedJsonParser.java", 915, 1],
			["App.java", 12, 0.8],
		]);
		const python = [
			"Traceback (most recent call last):",
			'  File "/x/pkg/api.py", line 3, in load',
			'  File "/x/pkg/errors.py", line 9, in raise_error',
		].join("\n");
		assert.deepEqual(pathsOf(python), [
			["/x/pkg/errors.py", 9, 0.3],
			["/x/pkg/api.py", 3, 1],
		]);
		// A builder further out is an ordinary frame: what it called failed, so the fault may be its own.
		const inside = [
			"java.lang.NullPointerException",
			"\tat com.x.JsonMapper.readJson(JsonMapper.java:118)",
			"\tat com.x.Caller.newRegistryErrorException(Caller.java:194)",
		].join("\n");
		assert.deepEqual(pathsOf(inside), [
			["JsonMapper.java", 118, 1],
			["Caller.java", 194, 0.8],
		]);
		// A name that only starts like a reporting verb is an ordinary frame.
		const failover = "\tat com.x.Pool.failover(Pool.java:5)\n\tat com.x.App.run(App.java:9)";
		assert.deepEqual(pathsOf(failover), [
			["Pool.java", 5, 1],
			["App.java", 9, 0.8],
		]);
	});

	it("reads a call at the start of a snippet's line as no Go frame: only a frame has its file on the next line", () => {
		const text = [
			"```",
			"    def test_progress(capfd, monkeypatch):",
			"        monkeypatch.setenv('COLUMNS', '4')",
			"        pi.show(0)",
			"        out, err = capfd.readouterr()",
			"```",
		].join("\n");
		assert.deepEqual(namesOf(text), []);
	});

	it("reads a call written in prose as a name, but not a call inside code or a word before parentheses", () => {
		const text = [
			"pytest 6.0.0rc1: capfd.readouterr() converts \\r to \\n, and `x.flush()` too (since 6.0)",
			"```",
			"pi.show()",
			"```",
		].join("\n");
		assert.deepEqual(namesOf(text).sort(), ["capfd.readouterr", "x.flush"]);
	});

	it("reads a member written as documentation refers to it in prose, but not issue numbers, headings or anchors", () => {
		const text = [
			"# Inconsistent TextBuffer#getTextBuffer behavior",
			"Same as Router#handle, see #123, o/r#45, README.md#usage and",
			"https://docs.x.org/core.html?highlight=symbols#symbols or [docs](https://x.org/api#Foo)",
		].join("\n");
		assert.deepEqual(
			readQuery(text)
				.names.map((n) => [n.name, n.weight])
				.sort(),
			[
				["Router.handle", 0.5],
				["TextBuffer.getTextBuffer", 0.5],
			],
		);
	});

	it("reads a CamelCase type an issue's title names, but not an error's type, a member's container or the body's", () => {
		const issue = [
			"Possible NPE from DockerConfigCredentialRetriever with 2.4.0 (TypeError, JsonParseException, Gson.toJson)",
			"Seen on GitHub with JavaScript and TextBuffer#getTextBuffer in DockerCredentialHelper.",
		].join("\n");
		assert.deepEqual(
			readQuery(issue)
				.names.map((n) => [n.name, n.weight])
				.sort(),
			[
				["DockerConfigCredentialRetriever", 0.5],
				["TextBuffer.getTextBuffer", 0.5],
			],
		);
		assert.deepEqual(namesOf("Possible NPE from DockerConfigCredentialRetriever"), [], "a one-line query has no title");
	});

	it("reads a snake_case name an issue's title names, but not a tag, a qualified name's part or the body's", () => {
		const issue = [
			"[NEEDS_TRIAGE] to_frame_dict drops attrs, and core_utils::merge_all too",
			"The body's other_name is prose here.",
		].join("\n");
		assert.deepEqual(
			readQuery(issue)
				.names.map((n) => [n.name, n.weight])
				.sort(),
			[["to_frame_dict", 0.5]],
		);
		assert.deepEqual(namesOf("to_frame_dict drops attrs"), [], "a one-line query has no title");
	});

	it("reads links to a file of a repository's web view, with the line they point at", () => {
		const text = [
			"handled [here](https://github.com/o/r/blob/df052e74/xarray/coding/variables.py#L311-L315), see also",
			"https://gitlab.com/o/r/-/blame/main/setup.py and https://github.com/o/r/blob/main/doc/index.rst#L2",
		].join("\n");
		assert.deepEqual(pathsOf(text), [
			["xarray/coding/variables.py", 311, 1],
			["setup.py", undefined, 0.8],
		]);
	});

	it("reads names and paths in backticks, and imports in code blocks, but nothing in prose", () => {
		const text = [
			"Should `Quantity.__array_ufunc__()` return `NotImplemented`? See `lib/request.js:12` and `Router#handle`.",
			"```python",
			"from sympy.codegen.ast import String, Node",
			"import numpy.linalg",
			"```",
		].join("\n");
		assert.deepEqual(pathsOf(text), [["lib/request.js", 12, 0.8]]);
		assert.deepEqual(namesOf(text).sort(), [
			"NotImplemented",
			"Quantity.__array_ufunc__",
			"Router.handle",
			"numpy.linalg",
			"sympy.codegen.ast.Node",
			"sympy.codegen.ast.String",
		]);
		assert.deepEqual(readQuery("router matching of path params in the server").paths, []);
		assert.deepEqual(readQuery("router matching of path params in the server").names, []);
	});

	it("reads the area a commit-style subject opens with, not its type", () => {
		assert.deepEqual(readQuery("fix(server-renderer): reject CR in attribute names").scopes, ["server-renderer"]);
		assert.deepEqual(readQuery("ignore,globset: increase pool capacity").scopes, ["ignore", "globset"]);
		assert.deepEqual(readQuery("net/http: close idle connections").scopes, ["net/http"]);
		assert.deepEqual(readQuery("ci: fix binary discovery").scopes, []);
		assert.deepEqual(readQuery("Update code and docs: minimum API level").scopes, []);
	});

	it("a query is about tests, fixtures or benchmarks by its words, not by words that merely contain them", () => {
		assert.deepEqual([...readQuery("Add tests for router matching").about], ["test"]);
		assert.deepEqual([...readQuery("crew-tui e2e: the confirmation is on screen").about], ["test"]);
		assert.deepEqual([...readQuery("the fixture teardown runs twice").about], ["fixture"]);
		assert.deepEqual([...readQuery("benchmarks of the parser").about], ["benchmark"]);
		assert.deepEqual([...readQuery("a contest of attested latest protests").about], []);
		assert.deepEqual([...readQuery("docs: the example of a custom checker").about], ["example"]);
		assert.deepEqual([...readQuery("Documentation of the message is wrong").about], ["example"]);
		assert.deepEqual([...readQuery("docstrings of documented methods").about], []);
	});

	it("an issue is about tests by its title, not by a body that reports a failing test run", () => {
		const issue =
			"Merging a dataset drops its attributes\n\nMy test fails:\n\n    def test_merge():\n        merge(a, b)\n";
		assert.deepEqual([...readQuery(issue).about], []);
		assert.deepEqual([...readQuery(`\n  Flaky tests of the merge\n${issue}`).about], ["test"]);
	});

	// Issue text is pasted by people: a minified line or a base64 blob is one long run of name characters. Each run
	// below took minutes (quadratic in its length) before the path and link patterns were bounded; linear, each reads
	// in about a second. Read on a worker the test can stop, since a pattern's scan cannot be interrupted.
	it("reads long runs of name characters in time linear in their length", async () => {
		const reading = new Worker(
			`import(${JSON.stringify(new URL("../../src/engine/terms/index.ts", import.meta.url).href)}).then(({ hasBody, readQuery }) => {
				const paths = ["a.", "a/", "a_", "aB", "x."].map((run) =>
					readQuery("see pkg/mod.py:12 then " + run.repeat(100000)).paths.map((p) => [p.path, p.line]));
				require("node:worker_threads").parentPort.postMessage({ paths, body: hasBody("one line ".repeat(50000)) });
			});`,
			{ eval: true },
		);
		const stopped = new Promise<never>((_, reject) => {
			const timer = setTimeout(() => reject(new Error("reading took over 60 s: a pattern rescans")), 60_000);
			reading.once("exit", () => clearTimeout(timer));
		});
		try {
			const read = (await Promise.race([once(reading, "message"), stopped])) as [{ paths: unknown; body: boolean }];
			assert.deepEqual(read[0].paths, Array(5).fill([["pkg/mod.py", 12]]));
			assert.equal(read[0].body, false);
		} finally {
			await reading.terminate();
		}
	});

	it("reads a path by its deepest 64 directories, and a file name of up to 255 characters", () => {
		const deep = `${"d/".repeat(70)}mod.py`;
		// The tail kept reads as an absolute path, as a frame's path outside the root does: matched by its end.
		assert.deepEqual(
			pathsOf(`at ${deep}:7`).map(([path, line]) => [path, line]),
			[[`/${"d/".repeat(64)}mod.py`, 7]],
		);
		const long = `src/${"n".repeat(250)}.py`;
		assert.deepEqual(
			pathsOf(`${long}:3`).map(([path]) => path),
			[long],
		);
	});

	it("says a text has a body when a second non-blank line follows the first", () => {
		assert.equal(hasBody("title"), false);
		assert.equal(hasBody("  title  \n \n  "), false);
		assert.equal(hasBody("\n\n title\n"), false);
		assert.equal(hasBody("title\n\n  body"), true);
		assert.equal(hasBody("title\r\nbody"), true);
	});
});
