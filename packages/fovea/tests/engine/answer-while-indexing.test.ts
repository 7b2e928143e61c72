/**
 * A query during a root's first index answers from what is indexed so far instead of waiting for it
 * (`refresh/first-index.ts`, `CodeIndex.indexedSoFar`):
 * - asked from the index's own progress hook, after its first batch, a focus with no patience left answers at once
 *   from the files indexed so far, says "partial: N of M files indexed", and the index goes on to every file;
 * - the queries share the one first index (no second walk), and a later query answers whole;
 * - a query that waits within its patience answers whole, and its abort signal ends its wait, not the index.
 * Asserted as counts (files indexed, walks), never timings.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { CodeMap, type FocusAnswer } from "../../src/engine/map/code-map.ts";
import { writeChainedTree } from "../support/generated-tree.ts";
import { tempDirs } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

async function tree(files: number): Promise<string> {
	const dir = await temps.make();
	return writeChainedTree(dir, files);
}

const FILES = 1500;

describe("answers while indexing", () => {
	it("a focus during the first index answers from the files indexed so far and says how far it is", async () => {
		const map = new CodeMap(await tree(FILES), { cache: false });
		let asked: Promise<FocusAnswer> | undefined;
		let doneWhenAsked = 0;
		const whole = map.refresh({
			patienceMs: Number.POSITIVE_INFINITY,
			onProgress: (done, total) => {
				if (asked !== undefined || done >= total) return;
				doneWhenAsked = done;
				asked = map.focus({ text: "ledger reconciliation step" }, 1500, { patienceMs: 0 });
			},
		});
		const full = await whole;
		assert.ok(asked !== undefined, "the index reported progress before it was done");
		const partial = await asked;
		const indexing = partial.snapshot.indexing;
		assert.ok(indexing !== undefined, "the answer was taken from the index still running");
		assert.equal(indexing.total, FILES);
		assert.ok(indexing.indexed >= doneWhenAsked && indexing.indexed < FILES, `${indexing.indexed} of ${FILES}`);
		assert.equal(partial.snapshot.files.size, indexing.indexed);
		assert.match(
			partial.text,
			new RegExp(`partial: ${indexing.indexed.toLocaleString("en-US")} of 1,500 files indexed`),
			partial.text,
		);
		assert.ok(partial.files.length > 0, "it ranks what is indexed");
		assert.equal(full.snapshot.files.size, FILES, "the index went on to every file");
		assert.equal(full.snapshot.indexing, undefined);
		assert.equal(map.index.stats.scans, 1, "one walk, shared");
		assert.equal(map.index.stats.filesParsed, FILES, "each file parsed once");

		const after = await map.focus({ text: "ledger reconciliation step" }, 1500, { patienceMs: 0 });
		assert.equal(after.snapshot.indexing, undefined);
		assert.equal(after.snapshot.files.size, FILES);
		assert.doesNotMatch(after.text, /partial: /);
	});

	it("a query that waits within its patience answers whole; its abort ends its wait, not the index", async () => {
		const map = new CodeMap(await tree(600), { cache: false });
		const controller = new AbortController();
		let aborted = false;
		const waiting = map.focus({ text: "step" }, 1500, {
			patienceMs: Number.POSITIVE_INFINITY,
			signal: controller.signal,
			onProgress: () => {
				if (!aborted) controller.abort(new Error("stop waiting"));
				aborted = true;
			},
		});
		await assert.rejects(waiting, /stop waiting/);
		const whole = await map.focus({ text: "step" }, 1500, { patienceMs: Number.POSITIVE_INFINITY });
		assert.equal(whole.snapshot.indexing, undefined);
		assert.equal(whole.snapshot.files.size, 600, "the index went on after the wait was aborted");
		assert.equal(map.index.stats.scans, 1);
		assert.doesNotMatch(whole.text, /partial: /);
	});
});
