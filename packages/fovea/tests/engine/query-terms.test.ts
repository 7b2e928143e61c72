/**
 * `terms` splits identifiers, paths and prose in one pass; it must cut exactly where the splitting regular expression
 * it replaced cut (the reference below), for any text, since indexes and queries meet on its output.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { stem, terms } from "../../src/engine/terms/query.ts";

const STOP_WORDS_SAMPLE = ["the", "and", "for", "of", "to"];

/**
 * The splitting as regular expressions, as `terms` did it before its one-pass scanner, widened to every script:
 * upper case is `Lu`/`Lt`, other letters and marks are lower case, digits are `Nd`; characters outside the basic
 * plane (emoji, rare scripts) separate words.
 */
function referenceTerms(text: string, isStopWord: (word: string) => boolean): string[] {
	const lower = "\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}";
	const upper = "\\p{Lu}\\p{Lt}";
	const digit = "\\p{Nd}";
	const cuts = new RegExp(
		`(?<=[${lower}${digit}])(?=[${upper}])|(?<=[${upper}])(?=[${upper}][${lower}])|` +
			`(?<=[${lower}${upper}])(?=[${digit}])|(?<=[${digit}])(?=[${lower}${upper}])`,
		"u",
	);
	const out: string[] = [];
	for (const word of text.replace(/[\u{10000}-\u{10ffff}]/gu, " ").split(/[^\p{L}\p{M}\p{Nd}]+/u)) {
		for (const part of word.split(cuts)) {
			const lowered = part.toLowerCase();
			if (lowered.length < 2 || isStopWord(lowered) || /^\p{Nd}+$/u.test(lowered)) continue;
			out.push(stem(lowered));
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
		assert.deepEqual(terms("größeBerechnen"), [stem("größe"), stem("berechnen")], "letters of every script");
		assert.deepEqual(terms("имяПользователя"), ["имя", stem("пользователя")]);
		assert.deepEqual(terms("取得名前 a😀bc"), ["取得名前", "bc"], "an emoji separates words");
		for (const word of STOP_WORDS_SAMPLE) assert.ok(isStopWord(word), word);
	});

	it("cuts exactly where the regular expression did, for any text", () => {
		const alphabet = fc.constantFrom(
			..."aAbBzZ09xX_ .-/é$ÉжЖ名٣ǅ\u0301".split(""),
			"😀",
			"HTTP",
			"Request",
			"of",
			"the",
			"ing",
		);
		fc.assert(
			fc.property(fc.array(alphabet, { maxLength: 30 }), (pieces) => {
				const text = pieces.join("");
				assert.deepEqual(terms(text), referenceTerms(text, isStopWord));
			}),
			{ numRuns: 3000 },
		);
		fc.assert(
			fc.property(fc.string({ maxLength: 40, unit: "binary" }), (text) => {
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
