/**
 * Content terms: a file's text counted term by term exactly as `terms` splits it, encoded as one string and read
 * back pair by pair.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { contentTerms, forEachContentTerm } from "../../src/engine/terms/content.ts";
import { terms } from "../../src/engine/terms/query.ts";

function decode(encoded: string): Map<string, number> {
	const out = new Map<string, number>();
	forEachContentTerm(encoded, (term, count) => out.set(term, count));
	return out;
}

function counted(text: string): Map<string, number> {
	const out = new Map<string, number>();
	for (const term of terms(text)) out.set(term, (out.get(term) ?? 0) + 1);
	return out;
}

const SOURCE = `/** Retries a queued upload until the token expires. */
export async function retryUpload(queue: UploadQueue, token: string): Promise<void> {
	// parseHTTPRequest2 and parsing share a stem; "strings" count too
	for (const item of queue.items) await upload(item, token, "retry soon");
	const retries = queue.retries + 1;
}
`;

describe("contentTerms", () => {
	it("counts every term of the text as terms() splits it: comments, strings and code", () => {
		const decoded = decode(contentTerms(SOURCE));
		assert.deepEqual(decoded, counted(SOURCE));
		assert.equal(decoded.get("retry"), 5, "Retries, retryUpload, retry soon and retries twice: one stem");
		assert.equal(decoded.get("token"), 3);
		assert.ok(decoded.has("expir"), "a word only in a comment is a term");
		assert.ok(decoded.has("soon"), "a word only in a string is a term");
		assert.ok(decoded.has("http") && decoded.has("request"), "identifiers are split");
		assert.ok(!decoded.has("the") && !decoded.has("for"), "stop words are dropped");
	});

	it("is empty for a text without terms, and reading skips malformed pairs", () => {
		assert.equal(contentTerms(""), "");
		assert.equal(contentTerms("  {}();  a b 42 "), "");
		assert.deepEqual(
			decode("parse 2 store x emit 0 flush 1 dangling"),
			new Map([
				["parse", 2],
				["flush", 1],
			]),
		);
	});
});
