/**
 * The text of a JSON object whose last field is a long list (the manifest's files, the fact cache index's entries),
 * made in parts as the rows come, so a file of 100,000 rows is written without a list of every row or one string of
 * them all.
 */

/** Rows written as one part of the text. */
export const ROWS_A_PART = 256;

/**
 * `JSON.stringify({ ...head, [name]: [...rows] })`, in parts of at most `ROWS_A_PART` rows: `head`'s own text
 * without its closing brace, then the list's rows, then the brackets that close it.
 */
export function* jsonListParts(head: object, name: string, rows: Iterable<unknown>): Generator<string> {
	const open = JSON.stringify(head);
	yield `${open.length > 2 ? `${open.slice(0, -1)},` : "{"}${JSON.stringify(name)}:[`;
	let part: string[] = [];
	let first = true;
	for (const row of rows) {
		part.push(JSON.stringify(row));
		if (part.length < ROWS_A_PART) continue;
		yield `${first ? "" : ","}${part.join(",")}`;
		first = false;
		part = [];
	}
	if (part.length > 0) yield `${first ? "" : ","}${part.join(",")}`;
	yield "]}";
}
