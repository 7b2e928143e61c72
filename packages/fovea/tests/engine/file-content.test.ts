/**
 * Reading files for the index (`engine/scan/file-content.ts`, `readAll` in `engine/refresh/examine-files.ts`), on real files: the
 * synchronous reader a batch normally uses and the asynchronous one it falls back to after a slow read give the same
 * outcome for every kind of entry the walk can meet, and a batch read either way has every file in place.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readAll } from "../../src/engine/refresh/examine-files.ts";
import { type ReadOutcome, readBounded, readBoundedSync } from "../../src/engine/scan/file-content.ts";
import type { ScannedFile } from "../../src/engine/scan/file-metadata.ts";
import { tempDirs } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

const MAX_BYTES = 64;

/** A tree with one of each: text, empty, at the limit, over it, a symlink, a FIFO, a directory, nothing. */
async function entries(): Promise<{ root: string; names: string[] }> {
	const root = await temps.make();
	await writeFile(join(root, "a.ts"), "export const a = 1;\n");
	await writeFile(join(root, "empty.ts"), "");
	await writeFile(join(root, "limit.ts"), "x".repeat(MAX_BYTES));
	await writeFile(join(root, "over.ts"), "x".repeat(MAX_BYTES + 1));
	await symlink(join(root, "a.ts"), join(root, "link.ts"));
	execFileSync("mkfifo", [join(root, "pipe.ts")]);
	await mkdir(join(root, "dir.ts"));
	return { root, names: ["a.ts", "empty.ts", "limit.ts", "over.ts", "link.ts", "pipe.ts", "dir.ts", "missing.ts"] };
}

/** An outcome without its read time (taken per read) and with its bytes as text. */
function comparable(outcome: ReadOutcome): unknown {
	if (outcome.kind === "absent") return outcome;
	const { readAt: _, ...rest } = outcome;
	return outcome.kind === "content" ? { ...rest, bytes: outcome.bytes.toString("utf8") } : rest;
}

describe("reading files", () => {
	it("the synchronous and asynchronous readers agree on every kind of entry", async () => {
		const { root, names } = await entries();
		for (const name of names) {
			const path = join(root, name);
			const sync = readBoundedSync(path, MAX_BYTES);
			assert.deepEqual(comparable(sync), comparable(await readBounded(path, MAX_BYTES)), name);
		}
		const kinds = names.map((name) => {
			const outcome = readBoundedSync(join(root, name), MAX_BYTES);
			return outcome.kind === "gap" ? `gap:${outcome.reason}` : outcome.kind;
		});
		// Never through a symlink, never blocking on a FIFO, never past the limit.
		assert.deepEqual(kinds, ["content", "content", "content", "gap:too-large", "absent", "absent", "absent", "absent"]);
	});

	it("a batch read synchronously, or asynchronously after a slow read, has every outcome in order", async () => {
		const { root, names } = await entries();
		const batch = names.map((path) => ({ path }) as ScannedFile);
		const context = { signal: undefined, root, maxFileBytes: MAX_BYTES };
		const expected = names.map((name) => comparable(readBoundedSync(join(root, name), MAX_BYTES)));
		// Every read counts as slow: the first is synchronous, the rest go to the asynchronous reader.
		for (const slowMs of [Number.POSITIVE_INFINITY, -1]) {
			const pace = { sync: true, slowMs };
			const outcomes = await readAll(batch, context, pace);
			assert.deepEqual(outcomes.map(comparable), expected, `slowMs ${slowMs}`);
			assert.equal(pace.sync, slowMs > 0, "a slow read leaves the rest to the asynchronous reader");
		}
	});
});
