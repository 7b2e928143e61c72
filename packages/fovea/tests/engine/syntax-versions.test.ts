/**
 * `withSyntaxTrees` (`engine/parse/parser.ts`, `engine/parse/text-edit.ts`): successive versions of one file are
 * parsed each from the previous version's edited tree, and every tree, position and fact is the one a fresh parse
 * gives — edits at the start, in the middle and at the end, insertions and deletions, non-ASCII text (positions are
 * UTF-16 code units) and versions with syntax errors (never reused) alike. Unchanged code is reused, not re-parsed:
 * its nodes keep their identity across versions.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { Node } from "web-tree-sitter";
import type { LanguageId } from "../../src/engine/model/facts.ts";
import { type Extractor, loadExtractor, withSyntaxTree, withSyntaxTrees } from "../../src/engine/parse/parser.ts";
import { textEdit } from "../../src/engine/parse/text-edit.ts";

let extractor: Extractor;
before(async () => {
	extractor = await loadExtractor(["typescript", "python", "go", "java"]);
});

/** Every node of a tree with its type and span: what two trees must share to be the same tree. */
function shape(root: Node): string[] {
	const out: string[] = [];
	const cursor = root.walk();
	for (;;) {
		const { startPosition: s, endPosition: e } = cursor;
		out.push(`${cursor.nodeType} ${cursor.startIndex}-${cursor.endIndex} ${s.row}:${s.column}-${e.row}:${e.column}`);
		if (cursor.gotoFirstChild()) continue;
		while (!cursor.gotoNextSibling()) {
			if (!cursor.gotoParent()) {
				cursor.delete();
				return out;
			}
		}
	}
}

/** Parses `versions` in turn and checks each against a fresh parse; returns the first named child's id per version. */
function checkVersions(path: string, language: LanguageId, versions: string[]): number[] {
	const seen = withSyntaxTrees(
		versions.map((source) => ({ path, source })),
		(root, facts, index) => ({ shape: shape(root), facts: facts(), index, first: root.firstNamedChild?.id ?? -1 }),
		language,
	);
	seen.forEach((version, i) => {
		const source = versions[i] as string;
		assert.equal(version.index, i);
		assert.deepEqual(
			version.shape,
			withSyntaxTree(path, source, (root) => shape(root), language),
			`${path} version ${i}: the tree of a fresh parse`,
		);
		assert.deepEqual(version.facts, extractor.extract(path, source, language), `${path} version ${i}: its facts`);
	});
	return seen.map((version) => version.first);
}

const TS_HEAD = 'import { b } from "./b";\n\nexport function keep(x: number): number {\n\treturn b(x) + 1;\n}\n\n';
const PY_HEAD = "import os\n\n\ndef keep(x):\n    return os.path.join(x, 'a')\n\n\n";
const GO_HEAD = 'package p\n\nimport "fmt"\n\nfunc Keep(x int) string {\n\treturn fmt.Sprint(x)\n}\n\n';

describe("successive versions of one file", () => {
	it("each version is the tree and facts of a fresh parse, and unchanged code is reused", () => {
		const ids = checkVersions("src/a.ts", "typescript", [
			`${TS_HEAD}export function changed(y: string): string {\n\treturn y;\n}\n`,
			`${TS_HEAD}export function changed(y: string): string {\n\tconst é = "naïve 😀";\n\treturn y + é;\n}\n`,
			`${TS_HEAD}export function changed(y: string): string {\n\treturn "😀" + y;\n}\n\nexport const tail = 1;\n`,
			`${TS_HEAD}export const tail = 1;\n`,
		]);
		assert.ok(
			ids.every((id) => id === ids[0]),
			"the unchanged import before every edit is the same node in each version (reused, not parsed again)",
		);
		checkVersions("pkg/a.py", "python", [
			`${PY_HEAD}def changed(y):\n    if y:\n        return 1\n    return 2\n`,
			`${PY_HEAD}def changed(y):\n    if y:\n        return 'ü'\n    elif not y:\n        return 3\n    return 2\n`,
			`# head\n${PY_HEAD}def changed(y):\n    return 2\n`,
		]);
		checkVersions("p/a.go", "go", [
			`${GO_HEAD}func Changed(y int) int {\n\treturn y\n}\n`,
			`${GO_HEAD}func Changed(y int) int {\n\tif y > 0 {\n\t\treturn -y\n\t}\n\treturn y\n}\n`,
			`package p\n\n${GO_HEAD.slice("package p\n\n".length)}`,
		]);
	});

	it("imports() gives the facts' imports, alone (from a Go or Java file's top level) or from the facts", () => {
		const files: [string, LanguageId, string][] = [
			[
				"cmd/main.go",
				"go",
				'package main\n\nimport (\n\t"fmt"\n\tx "net/http"\n)\n\nfunc main() { fmt.Println(x.MethodGet) }\n',
			],
			[
				"a/B.java",
				"java",
				"package a;\n\nimport java.util.List;\nimport static java.lang.Math.max;\n\nclass B {\n  List<Integer> l;\n}\n",
			],
			["a.py", "python", "import os\n\ndef f():\n    from json import dumps as d\n    return d(os.sep)\n"],
			["a.ts", "typescript", 'import { a } from "./a";\nexport async function f() {\n\treturn import("./b");\n}\n'],
		];
		for (const [path, language, source] of files) {
			const fresh = extractor.extract(path, source, language);
			assert.ok(fresh.imports.length >= 2, path);
			const [alone, after] = withSyntaxTrees(
				[{ path, source }],
				(_root, facts, _index, _edit, imports) => [imports(), facts()] as const,
				language,
			)[0] as readonly [unknown, unknown];
			assert.deepEqual(alone, fresh.imports, path);
			assert.deepEqual(after, fresh, `${path}: the facts taken after the imports are a fresh extraction's`);
		}
	});

	it("a version with a syntax error, or after one, is the tree of a fresh parse", () => {
		checkVersions("src/b.ts", "typescript", [
			`${TS_HEAD}export function ok(y: string): string {\n\treturn y;\n}\n`,
			`${TS_HEAD}export function ok(y: string): string {\n\treturn y +;\n}\n`,
			`${TS_HEAD}export function ok(y: string): string {\n\treturn y + (;\n}\n`,
			`${TS_HEAD}export function ok(y: string): string {\n\treturn y;\n}\n`,
		]);
	});

	it("the edit covers only where two texts differ, in UTF-16 code units, never splitting a surrogate pair", () => {
		assert.deepEqual(textEdit("ab\ncd\nef", "ab\ncXd\nef"), {
			startIndex: 4,
			oldEndIndex: 4,
			newEndIndex: 5,
			startPosition: { row: 1, column: 1 },
			oldEndPosition: { row: 1, column: 1 },
			newEndPosition: { row: 1, column: 2 },
		});
		const edit = textEdit("x😀y", "x😃y"); // the two emoji share their high surrogate
		assert.deepEqual([edit.startIndex, edit.oldEndIndex, edit.newEndIndex], [1, 3, 3]);
		assert.deepEqual(textEdit("same", "same").startIndex, 4);
		assert.deepEqual([textEdit("aaa", "aa").oldEndIndex, textEdit("aaa", "aa").newEndIndex], [3, 2]);
	});
});
