/**
 * file-state: a file a walk finds is "as recorded" only with the size, mtime, ctime and language recorded and a record
 * that is not racy; anything else makes the walk list the root and the index examine it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { asRecorded, type RecordedFile } from "../../src/engine/scan/file-metadata.ts";

const record: RecordedFile = { size: 10, mtimeMs: 1000, ctimeMs: 1500, language: "typescript", racy: false };
const info = { size: 10, mtimeMs: 1000, ctimeMs: 1500 };

describe("asRecorded", () => {
	it("holds for the same size, mtime and language, with or without a racy flag", () => {
		assert.equal(asRecorded(record, "typescript", info), true);
		const plain: RecordedFile = { size: 10, mtimeMs: 1000, ctimeMs: 1500, language: "typescript" };
		assert.equal(asRecorded(plain, "typescript", info), true);
	});

	it("fails on a changed size, mtime or ctime, a racy record, another language or no record", () => {
		assert.equal(asRecorded(record, "typescript", { ...info, size: 11 }), false, "size");
		assert.equal(asRecorded(record, "typescript", { ...info, mtimeMs: 1001 }), false, "mtime");
		assert.equal(asRecorded(record, "typescript", { ...info, ctimeMs: 1501 }), false, "ctime (an mtime put back)");
		assert.equal(asRecorded({ ...record, racy: true }, "typescript", info), false, "racy");
		assert.equal(asRecorded(record, "tsx", info), false, "language");
		assert.equal(asRecorded(undefined, "typescript", info), false, "no record");
	});
});
