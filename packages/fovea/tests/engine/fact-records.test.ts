/**
 * `engine/cache/records.ts`: a record line read back from a pack segment is the facts that were written, and a line
 * whose facts lack a field the engine counts on (or hold one of the wrong kind) is damaged, never facts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRecord, recordLine } from "../../src/engine/cache/records.ts";
import { type FileFacts, noCalls } from "../../src/engine/model/facts.ts";

const FACTS: FileFacts = {
	path: "latin.py",
	language: "python",
	hash: "h",
	bytes: 12,
	lines: 2,
	symbols: [],
	imports: [],
	calls: noCalls(),
	inherits: [],
	parseErrors: 1,
	replacementCharacters: 2,
};

/** The record line of FACTS with `field` set to `value` (deleted when `undefined`). */
function lineWith(field: string, value: unknown): string {
	const facts: Record<string, unknown> = { ...FACTS };
	if (value === undefined) delete facts[field];
	else facts[field] = value;
	return JSON.stringify(["k", facts]);
}

describe("fact records", () => {
	it("read back the facts written, best-effort counts included", () => {
		assert.deepEqual(parseRecord(recordLine("k", FACTS)), ["k", FACTS]);
		const { replacementCharacters: _, ...clean } = FACTS;
		assert.deepEqual(parseRecord(recordLine("k", clean)), ["k", clean]);
	});

	it("are damaged when a count is missing, negative, fractional or not a number", () => {
		for (const [field, value] of [
			["parseErrors", undefined],
			["parseErrors", -1],
			["parseErrors", 0.5],
			["parseErrors", "1"],
			["replacementCharacters", -2],
			["replacementCharacters", null],
			["replacementCharacters", "2"],
		] as const) {
			assert.equal(parseRecord(lineWith(field, value)), undefined, `${field}: ${JSON.stringify(value)}`);
		}
	});
});
