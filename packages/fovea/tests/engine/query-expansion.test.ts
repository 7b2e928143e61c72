/**
 * Pseudo-relevance feedback for one-line queries: the expanded query takes the distinctive terms the best files
 * share, leaves out the words asked and the root's common words, and lifts the files that hold those terms.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ContentIndex, type IndexedFacts } from "../../src/engine/rank/content-index.ts";
import { expandQuery, expansionTerms } from "../../src/engine/rank/query-expansion.ts";
import { contentTerms } from "../../src/engine/terms/content.ts";
import { terms } from "../../src/engine/terms/query.ts";

function file(path: string, text: string): IndexedFacts {
	return { path, symbols: [], contentTerms: contentTerms(text) };
}

/** Two feedback files sharing rare words, one file holding them without the query's words, and many others. */
function root(): ContentIndex {
	const files: IndexedFacts[] = [
		file("src/upload.ts", "upload the chunk; on failure retry with backoff and jitter; solitary"),
		file("src/resume.ts", "upload resumes after backoff with jitter between attempts"),
		file("src/delay.ts", "compute the backoff delay with random jitter"),
	];
	for (let k = 0; k < 500; k++) files.push(file(`src/other${k}.ts`, `common words of every file number ${k}`));
	return new ContentIndex(files.map((f, id) => [id, f] as const));
}

const stemOf = (word: string) => terms(word)[0] as string;

describe("query expansion", () => {
	it("expands with the rare terms the feedback files share, not the words asked nor the root's common words", () => {
		const index = root();
		const feedback = [
			{ id: 0, score: 2 },
			{ id: 1, score: 1 },
		];
		const expansion = expansionTerms(index, feedback, new Set(terms("upload")));
		assert.ok(expansion.has(stemOf("backoff")), "held by both feedback files and rare");
		assert.ok(expansion.has(stemOf("jitter")));
		assert.ok(!expansion.has(stemOf("upload")), "a word asked is not an expansion");
		assert.ok(!expansion.has(stemOf("solitary")), "a term of one feedback file alone is not shared");
		assert.ok(!expansion.has(stemOf("common")), "a term most files hold is not distinctive");
		for (const weight of expansion.values()) assert.ok(weight > 0 && weight <= 1, "weights relative to the best");
	});

	it("lifts a file holding the expansion though it holds none of the words asked", () => {
		const index = root();
		const fileScore = new Float64Array(503);
		fileScore[0] = 1;
		fileScore[1] = 0.8;
		const expanded = expandQuery(index, fileScore, terms("upload"), new Float64Array(503));
		assert.ok(expanded.includes(stemOf("backoff")));
		assert.ok((fileScore[2] as number) > 0, "src/delay.ts gains");
		assert.equal(fileScore[10], 0, "a file holding none of the expansion gains nothing");
		assert.ok((fileScore[0] as number) > (fileScore[1] as number), "the first files keep their order");
		assert.ok((fileScore[1] as number) > (fileScore[2] as number), "and stay above the files the expansion lifts");
	});

	it("expands nothing when nothing is scored", () => {
		const fileScore = new Float64Array(503);
		assert.deepEqual(expandQuery(root(), fileScore, ["upload"], new Float64Array(503)), []);
		assert.ok(fileScore.every((x) => x === 0));
	});
});
