/** The syntax walk's rows of source offsets: the row tree-sitter gives an offset, in any order of questions. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { RowFinder } from "../../src/review/source-rows.ts";

/** The row tree-sitter gives `offset`: the newlines before it. */
const naiveRow = (source: string, offset: number) => source.slice(0, offset).split("\n").length - 1;

describe("source rows", () => {
	it("gives each offset its row, moving forward, back, and from a row onward", () => {
		const text = fc.stringMatching(/^[ab\n]{0,60}$/);
		fc.assert(
			fc.property(text, fc.array(fc.nat(), { maxLength: 40 }), (source, raw) => {
				const rows = new RowFinder(source);
				for (const n of raw) {
					const offset = n % (source.length + 1);
					const row = rows.rowOf(offset);
					assert.equal(row, naiveRow(source, offset), `rowOf(${offset}) of ${JSON.stringify(source)}`);
					const end = offset + ((n >> 3) % (source.length + 1 - offset));
					assert.equal(rows.rowAfter(row, end), naiveRow(source, end), `rowAfter(${row}, ${end})`);
				}
			}),
			{ numRuns: 3000 },
		);
	});
});
