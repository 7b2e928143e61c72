/**
 * A file's content terms: every term of its text (comments, strings and code alike, split and stemmed as query words
 * are, see `query-terms.ts`) with how often it occurs. They let a focus query find a file by what its text says, not
 * only by its path and the names it defines: on this repository's own history, ranking files by what their names say
 * found 39% of the changed files in the top ten, a lexical ranker over their whole text 68%.
 *
 * Kept as one string per file (`term count` pairs, space-separated), which costs a few hundred bytes a file resident
 * and on disk, where a map or array per file would cost several times that.
 */
import { SLICE_MIN_LENGTH } from "./compact-facts.ts";
import { terms } from "./query-terms.ts";

/**
 * Whether this process counts content terms when it extracts facts. A process whose code maps answer no query by
 * words (the `contour` CLI: a review asks only for exposure) turns it off with {@link useContentTerms}: counting is
 * about a tenth of a file's extraction. Facts without them are cached under keys of their own (`factKey`), so a
 * process that ranks by text never takes them for complete.
 */
let counting = true;

/** Turns counting content terms on or off for this process's extractions (default on); see `countsContentTerms`. */
export function useContentTerms(on: boolean): void {
	counting = on;
}

/** Whether this process's extractions count content terms (see {@link useContentTerms}). */
export function countsContentTerms(): boolean {
	return counting;
}

/** What separates the raw words of a text, which `terms` splits further into identifier parts. */
const NOT_WORD = /[^A-Za-z0-9]+/;

/**
 * The content terms of `text` with their counts, as `term count` pairs separated by spaces, in order of first
 * occurrence. Equal to counting `terms(text)`, computed once per distinct raw word (source text repeats its words).
 */
export function contentTerms(text: string): string {
	const raw = new Map<string, number>();
	for (const word of text.split(NOT_WORD)) {
		if (word !== "") raw.set(word, (raw.get(word) ?? 0) + 1);
	}
	const counts = new Map<string, number>();
	for (const [word, occurrences] of raw) {
		for (const term of termsOfWord(word)) counts.set(term, (counts.get(term) ?? 0) + occurrences);
	}
	const parts: string[] = [];
	for (const [term, count] of counts) parts.push(term, String(count));
	return parts.join(" ");
}

/** Distinct short raw words remembered with their terms; past this the memory starts over. */
const MAX_REMEMBERED = 20_000;
const remembered = new Map<string, readonly string[]>();

/**
 * The terms of one raw word, remembered when it is short: a code base repeats its keywords and identifiers from file
 * to file (a cold index of viem spent a third less time here).
 */
function termsOfWord(word: string): readonly string[] {
	// A longer word is a slice of the file's text: remembered, it would keep the whole text alive.
	if (word.length >= SLICE_MIN_LENGTH) return terms(word);
	let found = remembered.get(word);
	if (found === undefined) {
		if (remembered.size >= MAX_REMEMBERED) remembered.clear();
		found = terms(word);
		remembered.set(word, found);
	}
	return found;
}

/** Calls `each` with every term and its count in a `contentTerms` string; malformed pairs are skipped. */
export function forEachContentTerm(encoded: string, each: (term: string, count: number) => void): void {
	if (encoded === "") return;
	const parts = encoded.split(" ");
	for (let i = 0; i + 1 < parts.length; i += 2) {
		const count = Number(parts[i + 1]);
		if (Number.isInteger(count) && count > 0) each(parts[i] as string, count);
	}
}
