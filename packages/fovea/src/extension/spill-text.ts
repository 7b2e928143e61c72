/**
 * The full ranked list of an answer cut to fit its budget, as text for a spill file: one item a line, best first,
 * with its score (and for impact why it ranked), so the agent can read or grep what the answer left out.
 *
 * @module
 */

/** One ranked item as the answers' details carry it. */
export interface RankedItem {
	file: string;
	line: number;
	kind: string;
	name: string;
	/** The ranking's score; a sketch ranks by connectivity without one. */
	score?: number;
	signature?: string;
	why?: string;
}

/** The ranked lists of one answer. */
export interface RankedLists {
	files: readonly RankedItem[];
	symbols: readonly RankedItem[];
}

/** Whether the answer's text leaves out part of its ranked lists (a symbol's file:line, or a file's path). */
export function isCut(text: string, lists: RankedLists): boolean {
	return (
		lists.symbols.some((item) => !text.includes(`${item.file}:${item.line}`)) ||
		lists.files.some((item) => !text.includes(item.file))
	);
}

/** The spill file's lines: a heading, then symbols and files, each ranked best first. */
export function spillLines(heading: string, lists: RankedLists): string[] {
	const line = (item: RankedItem, rank: number) => {
		const what =
			item.kind === "file" ? item.file : `${item.file}:${item.line}  ${item.signature ?? `${item.kind} ${item.name}`}`;
		return `${item.score === undefined ? `#${rank + 1}` : item.score.toFixed(4)}  ${what}${item.why === undefined ? "" : `  (${item.why})`}`;
	};
	return [
		heading,
		`## symbols (${lists.symbols.length}): score or rank  file:line  signature`,
		...lists.symbols.map(line),
		`## files (${lists.files.length}): score or rank  path`,
		...lists.files.map(line),
	];
}
