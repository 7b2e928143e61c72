/**
 * Text from a root shown to the model or a terminal (`engine/printable.ts`), and the budgeted writer every answer is
 * rendered through: control characters a path can carry are written out, and the budget is kept as written.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { printable } from "../src/cli/printable.ts";
import { CodeMap } from "../src/engine/map/code-map.ts";
import { BudgetedText, budgetChars } from "../src/engine/render/budget.ts";

describe("printable", () => {
	it("writes out control characters, DEL, C1 and bidirectional controls; leaves other text as it is", () => {
		assert.equal(printable("src/\u001b[31mred.ts"), "src/\\u001b[31mred.ts");
		assert.equal(printable("a\nb\tc\rd\u007f\u0085"), "a\\u000ab\\u0009c\\u000dd\\u007f\\u0085");
		assert.equal(printable("admin\u202e\u2066txt.ts"), "admin\\u202e\\u2066txt.ts");
		const plain = "src/café/数据.ts — a → b";
		assert.equal(printable(plain), plain);
	});

	it("leaves nothing unprintable, for any text", () => {
		fc.assert(
			fc.property(fc.string({ unit: "binary", maxLength: 60 }), (text) => {
				// biome-ignore lint/suspicious/noControlCharactersInRegex: the property is about control characters
				assert.doesNotMatch(printable(text), /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
			}),
			{ numRuns: 2000 },
		);
	});
});

describe("BudgetedText", () => {
	it("adds lines as printable and measures them as written", () => {
		const out = new BudgetedText(20);
		assert.equal(out.add("x.ts\u001b[2J"), true);
		assert.equal(out.add("y".repeat(100)), false);
		assert.equal(out.toString(), "x.ts\\u001b[2J");
		// Written out, a line can cost more than it looked: it is refused rather than let past the budget.
		const tight = new BudgetedText(3); // 9 characters
		assert.equal(tight.add("\u001b\u001b"), false, "12 characters as written");
		assert.ok(budgetChars("\u001b\u001b") <= 9);
	});
});

describe("answers", () => {
	it("a file whose name holds an escape sequence is named written out in focus and sketch", async () => {
		const root = await mkdtemp(join(tmpdir(), "fovea-printable-"));
		try {
			await writeFile(join(root, "evil\u001b[2J.ts"), "export function wipe() {\n\treturn 1;\n}\n");
			await writeFile(join(root, "bad\u0007.rb"), "puts 1\n");
			await writeFile(join(root, "two\nlines.rb"), "puts 2\n");
			const map = new CodeMap(root, { cache: false });
			const focus = await map.focus({ text: "wipe" }, 1500);
			const sketch = await map.sketch(1500);
			for (const text of [focus.text, sketch.text]) {
				// biome-ignore lint/suspicious/noControlCharactersInRegex: no control character but the line breaks
				assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f]/);
				assert.ok(text.includes("evil\\u001b[2J.ts"), text);
				assert.ok(text.includes("bad\\u0007.rb"), text);
				assert.match(text, /^Not mapped: 2 files: 2 unsupported-language \(bad\\u0007\.rb, two\\u000alines\.rb\)\.$/m);
			}
		} finally {
			await rm(root, { recursive: true, force: true });
		}
	});
});
