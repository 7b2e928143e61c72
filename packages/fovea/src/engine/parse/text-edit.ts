/**
 * The edit that turns one text into another, in the form a syntax tree takes it (`Tree.edit`): the one region
 * between their common start and their common end, so that a parse of the new text from the edited old tree re-reads
 * only that region. Offsets and columns are UTF-16 code units, as web-tree-sitter reports and takes them for text
 * given as a JavaScript string.
 */
import type { Edit, Point } from "web-tree-sitter";

/** The edit from `before` to `after`: one region, never splitting a surrogate pair. */
export function textEdit(before: string, after: string): Edit {
	const shorter = Math.min(before.length, after.length);
	let start = 0;
	while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
	if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--;
	let tail = 0;
	while (
		tail < shorter - start &&
		before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
	)
		tail++;
	if (tail > 0 && isLowSurrogate(before.charCodeAt(before.length - tail))) tail--;
	const oldEndIndex = before.length - tail;
	const newEndIndex = after.length - tail;
	return {
		startIndex: start,
		oldEndIndex,
		newEndIndex,
		startPosition: pointAt(before, start),
		oldEndPosition: pointAt(before, oldEndIndex),
		newEndPosition: pointAt(after, newEndIndex),
	};
}

/** Row and column (code units since the row's start) of offset `index` of `text`. */
function pointAt(text: string, index: number): Point {
	let row = 0;
	let rowStart = 0;
	for (let at = text.indexOf("\n"); at >= 0 && at < index; at = text.indexOf("\n", at + 1)) {
		row++;
		rowStart = at + 1;
	}
	return { row, column: index - rowStart };
}

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
	return code >= 0xdc00 && code <= 0xdfff;
}
