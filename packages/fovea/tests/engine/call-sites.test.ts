/**
 * Call sites in columns (`CallSites`): built from and read back as one `CallFact` each, validated when they come
 * from disk, and a cache record of the older shape (an object per call) is refused rather than misread.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { parseRecord, recordLine } from "../../src/engine/cache/records.ts";
import {
	type CallFact,
	callList,
	callSitesOf,
	type FileFacts,
	isCallSites,
	noCalls,
} from "../../src/engine/model/facts.ts";

const callFact = fc
	.record({
		callee: fc.string({ minLength: 1 }),
		line: fc.integer({ min: 1, max: 100_000 }),
		caller: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
	})
	.map(({ callee, line, caller }): CallFact => (caller === undefined ? { callee, line } : { callee, line, caller }));

function factsWith(calls: unknown): FileFacts {
	return {
		path: "a.ts",
		language: "typescript",
		hash: "h",
		bytes: 1,
		lines: 1,
		symbols: [],
		imports: [],
		calls: calls as FileFacts["calls"],
		inherits: [],
		parseErrors: 0,
	};
}

describe("CallSites", () => {
	it("gives back every call, in order, with `caller` absent at file level", () => {
		fc.assert(
			fc.property(fc.array(callFact, { maxLength: 40 }), (calls) => {
				const sites = callSitesOf(calls);
				assert.equal(isCallSites(sites), true);
				assert.deepEqual(callList(sites), calls);
			}),
		);
	});

	it('keeps `""` as the caller of a call at file level', () => {
		assert.deepEqual(callSitesOf([{ callee: "f", line: 3 }]), { callee: ["f"], caller: [""], line: [3] });
		assert.deepEqual(noCalls(), { callee: [], caller: [], line: [] });
	});

	it("refuses columns of different lengths, wrong element types and the older list of objects", () => {
		assert.equal(isCallSites({ callee: ["f"], caller: [], line: [1] }), false);
		assert.equal(isCallSites({ callee: ["f"], caller: [""], line: [1.5] }), false);
		assert.equal(isCallSites({ callee: [1], caller: [""], line: [1] }), false);
		assert.equal(isCallSites({ callee: ["f"], caller: [null], line: [1] }), false);
		assert.equal(isCallSites([{ callee: "f", line: 1 }]), false);
		assert.equal(isCallSites(null), false);
	});

	it("reads a cache record back as written, and treats an object per call as damaged", () => {
		const facts = factsWith(
			callSitesOf([
				{ callee: "run", line: 2, caller: "main" },
				{ callee: "log", line: 9 },
			]),
		);
		assert.deepEqual(parseRecord(recordLine("k", facts)), ["k", facts]);
		const older = recordLine("k", factsWith([{ callee: "run", line: 2, caller: "main" }]));
		assert.equal(parseRecord(older), undefined);
	});
});
