/**
 * Turns a natural-language or identifier query into index terms, the same way node names and paths are turned
 * into terms: identifiers split at case changes, digits and punctuation, lower-cased, lightly stemmed; stop words
 * and one-letter fragments dropped. `parseHTTPRequest2` → `parse`, `http`, `request`.
 */
export function terms(text: string): string[] {
	const out: string[] = [];
	for (const word of text.split(/[^A-Za-z0-9]+/)) {
		for (const part of word.split(
			/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])/,
		)) {
			const lower = part.toLowerCase();
			if (lower.length < 2 || STOP_WORDS.has(lower) || /^[0-9]+$/.test(lower)) continue;
			out.push(stem(lower));
		}
	}
	return out;
}

/** The distinct terms of `text`. */
export function termSet(text: string): Set<string> {
	return new Set(terms(text));
}

/** A light suffix stemmer: enough to meet `parsing`/`parser`/`parses` at `pars`, cheap and predictable. */
export function stem(word: string): string {
	if (word.length <= 4) return word;
	for (const suffix of ["ations", "ation", "ings", "ing", "ers", "er", "ies", "ied", "es", "ed", "ly", "s"]) {
		if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
			const base = word.slice(0, -suffix.length);
			return suffix === "ies" || suffix === "ied" ? `${base}y` : base;
		}
	}
	return word;
}

const STOP_WORDS = new Set([
	"the",
	"and",
	"for",
	"with",
	"from",
	"into",
	"that",
	"this",
	"when",
	"then",
	"than",
	"are",
	"was",
	"were",
	"not",
	"but",
	"all",
	"any",
	"can",
	"use",
	"used",
	"using",
	"add",
	"adds",
	"added",
	"fix",
	"fixes",
	"fixed",
	"make",
	"makes",
	"new",
	"now",
	"also",
	"some",
	"its",
	"it",
	"of",
	"to",
	"in",
	"on",
	"at",
	"by",
	"or",
	"an",
	"as",
	"is",
	"be",
	"if",
	"do",
	"does",
	"so",
	"no",
	"up",
	"we",
	"our",
	"you",
	"via",
	"per",
	"out",
	"one",
	"more",
	"less",
	"should",
	"would",
	"js",
	"ts",
	"src",
	"lib",
	"index",
	"test",
	"tests",
]);
