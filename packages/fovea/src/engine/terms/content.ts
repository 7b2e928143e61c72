/**
 * A file's content terms: every term of its text (comments, strings and code alike, split and stemmed as query words
 * are, see `query.ts`) with how often it occurs. They let a focus query find a file by what its text says, not
 * only by its path and the names it defines: on this repository's own history, ranking files by what their names say
 * found 39% of the changed files in the top ten, a lexical ranker over their whole text 68%.
 *
 * Kept as one string per file (`term count` pairs, space-separated), which costs a few hundred bytes a file resident
 * and on disk, where a map or array per file would cost several times that.
 */
import { rememberedTerms } from "./query.ts";

/**
 * What separates the raw words of a text, which `terms` splits further into identifier parts: characters beyond
 * ASCII stay in (`terms` tells letters of other scripts from symbols), so ASCII text splits as fast as before.
 */
const NOT_WORD = /[^A-Za-z0-9\u0080-\uffff]+/;

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
		for (const term of rememberedTerms(word)) counts.set(term, (counts.get(term) ?? 0) + occurrences);
	}
	const parts: string[] = [];
	for (const [term, count] of counts) parts.push(term, String(count));
	return parts.join(" ");
}

/**
 * Calls `each` with every term and its count in a `contentTerms` string; malformed pairs (a count that is not a
 * positive decimal integer, a term without a count) are skipped. Reads the string in place: a content index of
 * 10,000 files split ~19 MB of lists out of these strings, for nothing.
 */
export function forEachContentTerm(encoded: string, each: (term: string, count: number) => void): void {
	for (let at = 0; at < encoded.length; ) {
		const space = encoded.indexOf(" ", at);
		if (space < 0) return;
		let end = encoded.indexOf(" ", space + 1);
		if (end < 0) end = encoded.length;
		let count = 0;
		for (let i = space + 1; i < end && count >= 0; i++) {
			const digit = encoded.charCodeAt(i) - 48;
			count = digit >= 0 && digit <= 9 ? count * 10 + digit : -1;
		}
		if (count > 0 && Number.isSafeInteger(count)) each(encoded.slice(at, space), count);
		at = end + 1;
	}
}
