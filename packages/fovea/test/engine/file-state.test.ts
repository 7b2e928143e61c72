/**
 * file-state: a walk is "every file as before" only when it lists exactly the recorded files, each with the size,
 * mtime and language recorded and none of them racy; anything else makes the index examine the walk.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { everyFileAsBefore, type FileState } from "../../src/engine/file-state.ts";
import type { ScannedFile } from "../../src/engine/scan.ts";

const files: ScannedFile[] = [
	{ path: "a.ts", language: "typescript", size: 10, mtimeMs: 1000 },
	{ path: "b.py", language: "python", size: 20, mtimeMs: 2000 },
];

function statesOf(list: readonly ScannedFile[], change: Partial<FileState> = {}): Map<string, FileState> {
	return new Map(
		list.map((f) => [f.path, { size: f.size, mtimeMs: f.mtimeMs, racy: false, language: f.language, ...change }]),
	);
}

describe("everyFileAsBefore", () => {
	it("holds for the same files with the same metadata, and for no files against none", () => {
		assert.equal(everyFileAsBefore(files, statesOf(files)), true);
		assert.equal(everyFileAsBefore([], new Map()), true);
	});

	it("fails on a changed size or mtime, a racy state, another language, an added or a missing file", () => {
		const [a, b] = files as [ScannedFile, ScannedFile];
		assert.equal(everyFileAsBefore([{ ...a, size: 11 }, b], statesOf(files)), false, "size");
		assert.equal(everyFileAsBefore([a, { ...b, mtimeMs: 2001 }], statesOf(files)), false, "mtime");
		assert.equal(everyFileAsBefore(files, statesOf(files, { racy: true })), false, "racy");
		assert.equal(everyFileAsBefore(files, statesOf(files, { language: "go" })), false, "language");
		assert.equal(everyFileAsBefore([...files, { ...a, path: "c.ts" }], statesOf(files)), false, "added");
		assert.equal(everyFileAsBefore([a], statesOf(files)), false, "missing");
		assert.equal(everyFileAsBefore([a, { ...b, path: "c.py" }], statesOf(files)), false, "renamed");
	});
});
