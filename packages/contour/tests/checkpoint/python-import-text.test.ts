/** The text of a Python file that can hold its imports: every import statement, however it is written. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pythonImportText } from "../../src/checkpoint/python-import-text.ts";

describe("pythonImportText", () => {
	it("keeps every form of import statement and leaves out the code that only uses the names", () => {
		const source = [
			"import os, ctx_a",
			"from .pkg import (",
			"    ctx_b,  # a comment",
			"    other,",
			")",
			"from x import y, \\",
			"    ctx_c",
			"if TYPE_CHECKING: from .ctx_d import Thing",
			"x = 1; import ctx_e",
			"",
			"def f(ctx_f):",
			"    return ctx_f.value",
		].join("\n");
		const kept = pythonImportText(source);
		for (const name of ["ctx_a", "ctx_b", "ctx_c", "ctx_d", "ctx_e"])
			assert.match(kept, new RegExp(`\\b${name}\\b`), name);
		assert.doesNotMatch(kept, /ctx_f/);
	});

	it("an unclosed parenthesis keeps the rest of the text: more to parse, never an import missed", () => {
		const source = "from a import (b,\nc\n\nimport later\nuse(ctx)\n";
		assert.equal(pythonImportText(source), source);
	});

	it("a file without the keywords has no import text", () => {
		assert.equal(pythonImportText("def f(ctx):\n    return ctx\n"), "");
	});
});
