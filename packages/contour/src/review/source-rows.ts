/**
 * Rows of source offsets, for the syntax walk: tree-sitter counts a row per `\n`, so a row starts after each one.
 * Tokens come in source order, so the row of the next one is found by moving forward from the last; an offset
 * behind it is searched for.
 */
export class RowFinder {
	readonly #starts: number[] = [0];
	#row = 0;

	constructor(source: string) {
		for (let at = source.indexOf("\n"); at !== -1; at = source.indexOf("\n", at + 1)) this.#starts.push(at + 1);
	}

	/** The 0-based row of the character at `offset` (a UTF-16 offset, as the tree's indices are). */
	rowOf(offset: number): number {
		const starts = this.#starts;
		if (offset < (starts[this.#row] as number)) this.#row = this.#search(offset);
		this.#row = this.rowAfter(this.#row, offset);
		return this.#row;
	}

	/** The row of `offset`, at or after row `from` (which starts at or before it); does not move the finder. */
	rowAfter(from: number, offset: number): number {
		const starts = this.#starts;
		let row = from;
		while (row + 1 < starts.length && (starts[row + 1] as number) <= offset) row++;
		return row;
	}

	#search(offset: number): number {
		const starts = this.#starts;
		let low = 0;
		let high = starts.length - 1;
		while (low < high) {
			const mid = (low + high + 1) >> 1;
			if ((starts[mid] as number) <= offset) low = mid;
			else high = mid - 1;
		}
		return low;
	}
}
