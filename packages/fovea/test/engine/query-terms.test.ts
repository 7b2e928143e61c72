/**
 * `terms` splits identifiers, paths and prose in one pass; it must cut exactly where the splitting regular expression
 * it replaced cut (the reference below), for any text, since indexes and queries meet on its output.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { stem, terms } from "../../src/engine/query-terms.ts";

const STOP_WORDS_SAMPLE = ["the", "and", "for", "of", "to"];

/** The splitting as a regular expression, as `terms` did it before its one-pass scanner. */
function referenceTerms(text: string, isStopWord: (word: string) => boolean): string[] {
	const out: string[] = [];
	for (const word of text.split(/[^A-Za-z0-9]+/)) {
		for (const part of word.split(
			/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])/,
		)) {
			const lower = part.toLowerCase();
			if (lower.length < 2 || isStopWord(lower) || /^[0-9]+$/.test(lower)) continue;
			out.push(stem(lower));
		}
	}
	return out;
}

/** Stop words as `terms` drops them: a one-word text that yields nothing although it is two letters or more. */
const isStopWord = (word: string) => /^[a-z]{2,}$/.test(word) && terms(word).length === 0;

describe("terms", () => {
	it("splits identifiers, paths and prose", () => {
		assert.deepEqual(terms("parseHTTPRequest2"), ["pars", "http", "request"]);
		assert.deepEqual(terms("src/engine/heat-kernel.ts"), ["engin", "heat", "kernel"]);
		assert.deepEqual(terms("the sha256Sum of IOError"), ["sha", "sum", "io", "error"]);
		assert.deepEqual(terms("ABC"), ["abc"]);
		assert.deepEqual(terms(""), []);
		assert.deepEqual(terms("é x1y2 __a__"), []);
		for (const word of STOP_WORDS_SAMPLE) assert.ok(isStopWord(word), word);
	});

	it("cuts exactly where the regular expression did, for any text", () => {
		const alphabet = fc.constantFrom(..."aAbBzZ09xX_ .-/é$".split(""), "HTTP", "Request", "of", "the", "ing");
		fc.assert(
			fc.property(fc.array(alphabet, { maxLength: 30 }), (pieces) => {
				const text = pieces.join("");
				assert.deepEqual(terms(text), referenceTerms(text, isStopWord));
			}),
			{ numRuns: 3000 },
		);
		fc.assert(
			fc.property(fc.string({ maxLength: 40 }), (text) => {
				assert.deepEqual(terms(text), referenceTerms(text, isStopWord));
			}),
			{ numRuns: 3000 },
		);
	});
});

describe("stem", () => {
	it("brings a word's plural, inflections and derivations to one stem", () => {
		const families = [
			["service", "services"],
			["name", "names", "naming", "named"],
			["parse", "parser", "parsers", "parses", "parsing", "parsed"],
			["cache", "caches", "cached", "caching"],
			["create", "creates", "created", "creation"],
			["entry", "entries"],
			["copy", "copies", "copied"],
			["map", "maps"],
			["file", "files"],
			["class", "classes"],
			["box", "boxes"],
			["match", "matches", "matched", "matching"],
			["push", "pushes"],
			["index", "indexes", "indexed", "indexer"],
			["user", "users"],
			["string", "strings"],
		];
		for (const family of families) {
			const stems = new Set(family.map(stem));
			assert.equal(stems.size, 1, `${family.join(", ")} give ${[...stems].join(", ")}`);
		}
		// What a query for services meets: the last word of every *Service.
		assert.deepEqual(terms("ProfileService"), terms("profile services"));
	});

	it("keeps short words and singulars that end in s", () => {
		for (const word of ["map", "use", "go", "status", "analysis", "class", "bus"]) assert.equal(stem(word), word);
		assert.equal(stem("uses"), "use");
		assert.notEqual(stem("service"), stem("serve"), "a stem keeps what tells words apart");
	});
});
