/** `cli/progress.ts`: the CLIs' progress line is written only on a terminal, and cleared only when it was written. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { terminalProgress } from "../src/cli/progress.ts";

function stream(isTTY: boolean) {
	const written: string[] = [];
	return { written, isTTY, write: (text: string) => written.push(text) > 0 };
}

describe("terminal progress", () => {
	it("rewrites one labelled line on a terminal and clears it once", () => {
		const out = stream(true);
		const progress = terminalProgress("contour: indexing", out);
		assert.ok(progress.onProgress !== undefined);
		progress.onProgress(5, 10);
		progress.onProgress(10, 10); // the last report always passes the pace
		progress.clear();
		progress.clear();
		assert.deepEqual(out.written, ["\rcontour: indexing 5/10 files", "\rcontour: indexing 10/10 files", "\r\x1b[K"]);
	});

	it("writes nothing when no report came, and nothing at all off a terminal", () => {
		const quiet = stream(true);
		terminalProgress("indexing", quiet).clear();
		assert.deepEqual(quiet.written, [], "no line, nothing to clear");
		const piped = stream(false);
		const progress = terminalProgress("indexing", piped);
		assert.equal(progress.onProgress, undefined, "a refresh gets no callback");
		progress.clear();
		assert.deepEqual(piped.written, []);
	});
});
