import { SLICE_MIN_LENGTH } from "../model/index.ts";

/**
 * Turns a natural-language or identifier query into index terms, the same way node names and paths are turned
 * into terms: identifiers split at case changes, digits and punctuation, lower-cased, lightly stemmed; stop words
 * and one-letter fragments dropped. `parseHTTPRequest2` → `parse`, `http`, `request`.
 *
 * Parts are cut where a lower-case letter or digit meets an upper-case letter, before the last upper-case letter of
 * a run followed by a lower-case one (`HTTPRequest` → `HTTP`, `Request`), and where letters and digits meet; any
 * other character than a letter (of any script) or digit separates words. One pass over the characters: every path,
 * name and long word of a root's text goes through here, and splitting regular expressions (with look-behinds) take
 * about twice as long.
 */
export function terms(text: string): string[] {
	const out: string[] = [];
	let start = 0;
	let previous = OTHER;
	let current = text.length > 0 ? kindOf(text.charCodeAt(0)) : OTHER;
	for (let i = 0; i < text.length; i++) {
		const next = i + 1 < text.length ? kindOf(text.charCodeAt(i + 1)) : OTHER;
		if (current === OTHER) {
			if (start < i) addPart(out, text.slice(start, i));
			start = i + 1;
		} else if (previous !== OTHER && startsPart(previous, current, next)) {
			addPart(out, text.slice(start, i));
			start = i;
		}
		previous = current;
		current = next;
	}
	if (start < text.length) addPart(out, text.slice(start));
	return out;
}

/** Distinct short texts remembered with their terms; past this the memory starts over. */
const MAX_REMEMBERED = 20_000;
const remembered = new Map<string, readonly string[]>();

/**
 * `terms(text)`, remembered when `text` is short: a root repeats its identifiers and keywords from file to file, and
 * the lexical indexes ask for the terms of every name, the short ones mostly seen before. The list is shared: callers
 * must not change it. Long names are not remembered: most are distinct, and the table, cleared whenever full, would
 * only cost its upkeep.
 */
export function rememberedTerms(text: string): readonly string[] {
	// A longer text may be a slice of a file's whole text (a raw word of it): remembered, it would keep that alive.
	if (text.length >= SLICE_MIN_LENGTH) return terms(text);
	let found = remembered.get(text);
	if (found === undefined) {
		if (remembered.size >= MAX_REMEMBERED) remembered.clear();
		found = terms(text);
		remembered.set(text, found);
	}
	return found;
}

const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;

function kindOf(code: number): number {
	if (code >= 97 && code <= 122) return LOWER;
	if (code >= 65 && code <= 90) return UPPER;
	if (code >= 48 && code <= 57) return DIGIT;
	return code < 0x80 ? OTHER : wideKindOf(code);
}

/** Kinds of the characters beyond ASCII met so far, plus one (0: not looked up yet). */
const WIDE_KINDS = new Uint8Array(0x10000);
const UPPER_LETTER = /\p{Lu}|\p{Lt}/u;
const LETTER = /\p{L}|\p{M}/u;
const DECIMAL = /\p{Nd}/u;

/**
 * The kind of a character beyond ASCII: `größe`, `имяПользователя` and `名前` are words too (identifiers, comments
 * and queries in other languages), an upper-case letter starts a part as in ASCII, and marks stay with their letter.
 * Half of a surrogate pair (emoji, rare scripts) separates words.
 */
function wideKindOf(code: number): number {
	const known = WIDE_KINDS[code] as number;
	if (known !== 0) return known - 1;
	let kind = OTHER;
	if (code < 0xd800 || code > 0xdfff) {
		const char = String.fromCharCode(code);
		kind = UPPER_LETTER.test(char) ? UPPER : LETTER.test(char) ? LOWER : DECIMAL.test(char) ? DIGIT : OTHER;
	}
	WIDE_KINDS[code] = kind + 1;
	return kind;
}

/** Whether a character of kind `current`, after one of kind `previous` and before one of kind `next`, starts a part. */
function startsPart(previous: number, current: number, next: number): boolean {
	if (current === UPPER) return previous !== UPPER || next === LOWER;
	if (current === DIGIT) return previous !== DIGIT;
	return previous === DIGIT; // a lower-case letter after digits
}

function addPart(out: string[], part: string): void {
	const lower = part.toLowerCase();
	if (lower.length < 2 || STOP_WORDS.has(lower) || isDigits(lower)) return;
	out.push(stem(lower));
}

function isDigits(text: string): boolean {
	for (let i = 0; i < text.length; i++) if (kindOf(text.charCodeAt(i)) !== DIGIT) return false;
	return true;
}

/**
 * A light suffix stemmer, cheap and predictable, that brings a word's inflections to one stem: a plural or third
 * person (`-s`, `-es` after a sibilant, `-ies`), then one of `-ing`, `-ed`, `-er`, `-ly` or `-ation` (kept as `at`),
 * then a final `e`, each only while three letters or more remain. So `service`/`services`, `name`/`names`/`naming`,
 * `parse`/`parser`/`parses`/`parsing`, `cache`/`caches`/`cached`, `create`/`creation`, `entry`/`entries` and
 * `map`/`maps` meet (the stemmer it replaced cut `services` to `servic` but left `service` whole, so a query for
 * services missed every `*Service`).
 */
export function stem(word: string): string {
	if (word.length <= 3) return word;
	let base = withoutPlural(word);
	for (const [suffix, replacement] of DERIVATIONS) {
		if (base.endsWith(suffix) && base.length - suffix.length + replacement.length >= MIN_STEM) {
			base = base.slice(0, -suffix.length) + replacement;
			break;
		}
	}
	return base.length > MIN_STEM && base.endsWith("e") ? base.slice(0, -1) : base;
}

/** A stem keeps at least this many letters. */
const MIN_STEM = 3;

/** Suffixes taken off after the plural, the first that fits, and what replaces each. */
const DERIVATIONS: readonly (readonly [string, string])[] = [
	["ation", "at"],
	["ing", ""],
	["ed", ""],
	["er", ""],
	["ly", ""],
];

/** `word` without a plural or third-person ending: `-ies` → `y`, `-es` after s, x, z, ch or sh, else `-s`. */
function withoutPlural(word: string): string {
	const n = word.length;
	if (word.endsWith("ies") || word.endsWith("ied")) return n - 2 >= MIN_STEM ? `${word.slice(0, -3)}y` : word;
	if (!word.endsWith("s")) return word;
	if (word.endsWith("es") && n - 2 >= MIN_STEM) {
		const before = word.charCodeAt(n - 3);
		// s, x, z, or an h after c or s
		if (before === 115 || before === 120 || before === 122) return word.slice(0, -2);
		if (before === 104 && (word.charCodeAt(n - 4) === 99 || word.charCodeAt(n - 4) === 115)) return word.slice(0, -2);
	}
	// `ss`, `us` and `is` end singular words (class, status, analysis).
	const last = word.charCodeAt(n - 2);
	if (last === 115 || last === 117 || last === 105 || n - 1 < MIN_STEM) return word;
	return word.slice(0, -1);
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
