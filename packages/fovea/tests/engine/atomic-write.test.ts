/**
 * atomic-write: long text is written in pieces that never split a surrogate pair, and reads back byte for byte as
 * written whole would, whatever characters sit at the piece boundaries.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import fc from "fast-check";
import { AtomicFile, textPieces, WRITE_PIECE, writeAtomic } from "../../src/engine/atomic-write.ts";

const dir = mkdtempSync(join(tmpdir(), "fovea-atomic-write-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Text of `length` units with `fill` everywhere, a surrogate pair across every piece boundary and one at the end. */
function straddling(length: number, fill: string): string {
	const units = Array.from({ length }, () => fill);
	for (let at = WRITE_PIECE - 1; at + 1 < length; at += WRITE_PIECE) {
		units[at] = "\ud83d";
		units[at + 1] = "\ude00";
	}
	units[length - 2] = "\ud83d";
	units[length - 1] = "\ude00";
	return units.join("");
}

describe("textPieces", () => {
	it("cuts at most WRITE_PIECE units, never between the halves of a pair, and loses nothing", () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 4 * WRITE_PIECE }), fc.constantFrom("a", "é", "語"), (length, fill) => {
				const text = straddling(Math.max(length, 2), fill);
				const pieces = [...textPieces(text)];
				assert.equal(pieces.join(""), text);
				for (const piece of pieces) {
					assert.ok(piece.length > 0 && piece.length <= WRITE_PIECE);
					assert.ok(!/^[\udc00-\udfff]/.test(piece) && !/[\ud800-\udbff]$/.test(piece), "a pair kept whole");
				}
			}),
			{ numRuns: 40 },
		);
	});
});

describe("writeAtomic", () => {
	it("writes long text in pieces that read back exactly, and leaves no temp file", async () => {
		const text = straddling(3 * WRITE_PIECE + 17, "語");
		const path = join(dir, "long.txt");
		await writeAtomic(path, text);
		assert.equal(readFileSync(path, "utf8"), text);
		assert.deepEqual(Buffer.compare(readFileSync(path), Buffer.from(text, "utf8")), 0);
		await writeAtomic(path, "short");
		assert.equal(readFileSync(path, "utf8"), "short");
		assert.deepEqual(readdirSync(dir), ["long.txt"]);
	});

	it("fails with nothing written when the directory is missing", async () => {
		await assert.rejects(writeAtomic(join(dir, "missing", "x.txt"), "text"), /ENOENT/);
		assert.deepEqual(readdirSync(dir), ["long.txt"]);
	});
});

describe("AtomicFile", () => {
	it("leaves the target as it was until commit, and removes its temp file when abandoned", async () => {
		const path = join(dir, "target.txt");
		await writeAtomic(path, "old");
		const abandoned = await AtomicFile.open(path);
		await abandoned.write(Buffer.from("new"));
		assert.equal(readFileSync(path, "utf8"), "old", "not in place before commit");
		await abandoned.abandon();
		assert.equal(readFileSync(path, "utf8"), "old");
		const committed = await AtomicFile.open(path);
		await committed.write(Buffer.from("new "));
		await committed.write(Buffer.from("text"));
		await committed.commit();
		assert.equal(readFileSync(path, "utf8"), "new text");
		assert.deepEqual(readdirSync(dir).sort(), ["long.txt", "target.txt"], "no temp file left");
	});
});
