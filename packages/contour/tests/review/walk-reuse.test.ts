/**
 * The walk of a file's next version copies from the walk of its previous one every child of the root outside the
 * edit (`walk-reuse.ts`): the result is the walk of the whole tree, and only the edited declarations are walked.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { type LanguageId, withSyntaxTrees } from "pi-fovea/engine";
import { ensureMeasureLanguages } from "../../src/review/measure.ts";
import { type SyntaxWalk, walkSyntax } from "../../src/review/syntax-walk.ts";

before(() => ensureMeasureLanguages(["a.ts", "a.py", "a.go", "a.rs", "A.java"]));

function rows(text: string): number {
	return text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
}

/** Both versions walked afresh, and the second walked again from the first's walk. */
function walks(path: string, language: LanguageId, versions: [string, string]) {
	const fresh: SyntaxWalk[] = [];
	const reused: SyntaxWalk[] = [];
	withSyntaxTrees(
		versions.map((source) => ({ path, source })),
		(root, _facts, index, edit) => {
			const source = versions[index] as string;
			fresh.push(walkSyntax(root, language, rows(source), source));
			const earlier = index === 0 || edit === undefined ? undefined : { walk: fresh[0] as SyntaxWalk, edit };
			reused.push(walkSyntax(root, language, rows(source), source, earlier));
		},
		language,
	);
	return { fresh: fresh[1] as SyntaxWalk, reused: reused[1] as SyntaxWalk };
}

/** A walk's output, without the record of how it was made. */
function output(walk: SyntaxWalk) {
	const { segments: _segments, reused: _reused, ...rest } = walk;
	return { ...rest, callables: rest.callables.map(({ copiedFrom: _copiedFrom, ...callable }) => callable) };
}

const CASES: { language: LanguageId; path: string; unit: (i: number) => string; edit: string }[] = [
	{
		language: "typescript",
		path: "src/a.ts",
		unit: (i) =>
			`// unit ${i}\nexport function f${i}(x: number): boolean {\n  if (x > ${i} && x < 99) {\n    return x > 2 ? true : false;\n  }\n  const s = \`many\n  lines \${x}\`;\n  return s.length > 0;\n}\nconst k${i} = 1 > 0 ? 1 : 2;\n`,
		edit: "export function added(y: number): number {\n  return y ?? 1;\n}\n",
	},
	{
		language: "python",
		path: "a.py",
		unit: (i) =>
			`class C${i}:\n    def m(self, x):\n        if x and x > ${i}:\n            return True\n        return """a\nb"""\n\nk${i} = 1 if True else 2\n`,
		edit: "def added(y):\n    return y or 1\n",
	},
	{
		language: "go",
		path: "a.go",
		unit: (i) =>
			`func (s *S) M${i}(x int) bool {\n\tif x > ${i} && x < 99 {\n\t\treturn true\n\t}\n\tfor i := 0; i < x; i++ {\n\t}\n\treturn false\n}\n\n`,
		edit: "func Added(y int) int {\n\tif y > 1 {\n\t\treturn y\n\t}\n\treturn 1\n}\n",
	},
	{
		language: "rust",
		path: "a.rs",
		unit: (i) =>
			`fn f${i}(x: i32) -> bool {\n    match x {\n        0 => true,\n        ${i + 1} => false,\n        _ => x > 2 && x < 9,\n    }\n}\n`,
		edit: "fn added(y: i32) -> i32 {\n    if y > 1 { y } else { 1 }\n}\n",
	},
	{
		language: "java",
		path: "A.java",
		unit: (i) =>
			`class K${i} {\n  boolean m(int x) {\n    try { return x > ${i} ? true : false; } catch (Exception e) { throw e; }\n  }\n}\n`,
		edit: "class Added {\n  int m(int y) { return y > 1 ? y : 1; }\n}\n",
	},
];

describe("the walk of a file's next version", () => {
	for (const { language, path, unit, edit } of CASES) {
		it(`${language}: a declaration inserted, one removed and one edited — the walk of the whole tree, the rest copied`, () => {
			const units = Array.from({ length: 8 }, (_, i) => unit(i));
			const header = language === "go" ? "package a\n\n" : "";
			const previous = header + units.join("\n");
			const next = [...units];
			next.splice(2, 0, edit); // inserted: every later unit shifts down by its rows
			next.splice(6, 1); // removed
			next[7] = (next[7] as string).replace("99", "100"); // edited in place
			const { fresh, reused } = walks(path, language, [previous, header + next.join("\n")]);
			assert.deepEqual(output(reused), output(fresh));
			assert.ok(fresh.callables.length >= 7, `${fresh.callables.length} callables`);
			// Copied: at least the declarations of the two units before the insertion (what lies between the first and
			// the last edit is one edited region, walked).
			assert.ok(reused.reused >= 3, `${reused.reused} children of the root copied`);
			assert.equal(fresh.reused, 0);
		});
	}
});
