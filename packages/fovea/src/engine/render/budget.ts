import { printable } from "../../cli/printable.ts";

/**
 * Token budgets for text handed to the model. The estimate is deliberately conservative (three characters per
 * token; code and paths tokenize worse than prose), so text that fits by this measure fits any common tokenizer.
 */
export function estimateTokens(text: string): number {
	return Math.ceil(budgetChars(text) / 3);
}

/**
 * The characters a text costs against a budget: a UTF-16 unit outside ASCII counts as three (a token of its own),
 * since tokenizers split such text (CJK identifiers, accented words, arrows) far finer than three characters a
 * token.
 */
export function budgetChars(text: string): number {
	let wide = 0;
	for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) wide++;
	return text.length + 2 * wide;
}

/** How a section's lines give way to a small budget; see {@link BudgetedText.addSection}. */
export interface SectionOptions {
	shorter?: readonly (string | undefined)[];
	held?: (index: number) => number;
}

/** A writer that accepts lines only while they fit `maxTokens`, keeping room reserved for a closing section. */
export class BudgetedText {
	readonly #lines: string[] = [];
	readonly #maxChars: number;
	#chars = 0;
	#dropped = 0;

	constructor(maxTokens: number) {
		this.#maxChars = Math.max(0, Math.floor(maxTokens) * 3);
	}

	/**
	 * Adds `line` if it fits with `reserve` characters left over; returns whether it was added. The line is made
	 * {@link printable} first (control characters a path could carry are written out), and measured as written.
	 */
	add(text: string, reserve = 0): boolean {
		const line = printable(text);
		const cost = budgetChars(line) + (this.#lines.length > 0 ? 1 : 0);
		if (this.#chars + cost + reserve > this.#maxChars) {
			this.#dropped++;
			return false;
		}
		this.#lines.push(line);
		this.#chars += cost;
		return true;
	}

	/**
	 * Adds the lines of a block written with `\n` between them (a coverage footer), each as {@link add} does; returns
	 * whether all were added.
	 */
	addLines(block: string, reserve = 0): boolean {
		let all = true;
		for (const line of block.split("\n")) if (!this.add(line, reserve)) all = false;
		return all;
	}

	/** Whether lines totalling `chars` characters (plus their separators) would fit with `reserve` left over. */
	fits(chars: number, lines = 1, reserve = 0): boolean {
		return this.#chars + chars + lines + reserve <= this.#maxChars;
	}

	/**
	 * Adds a heading with its lines only if the heading and at least the first line fit; returns how many lines fit.
	 * `shorter[i]`, when given, is written instead of line `i` when that does not fit (and the section starts when it
	 * fits); while line `i` is written, `held(i)` more characters are kept free for what must still fit after it.
	 */
	addSection(heading: string, lines: readonly string[], reserve = 0, options: SectionOptions = {}): number {
		const { shorter = [], held = () => 0 } = options;
		const first = shorter[0] ?? lines[0];
		if (first === undefined || !this.fits(heading.length + first.length, 2, reserve)) return 0;
		this.add(heading, reserve);
		let added = 0;
		for (const [i, line] of lines.entries()) {
			const kept = reserve + held(i);
			const short = shorter[i];
			if (!this.add(line, kept) && (short === undefined || !this.add(short, kept))) break;
			added++;
		}
		return added;
	}

	/**
	 * Adds an answer's first line, `head`, `root` and `tail` in a row: whole when it fits, else `head` and the root
	 * alone, the root cut in its middle to the room left (`/home/u/…/app`), so no answer loses the name of the root it
	 * speaks for (a root path of some 500 characters, or 200 outside ASCII, left a small budget's answer unlabelled).
	 */
	addRootHeader(head: string, root: string, tail: string): void {
		const whole = printable(`${head}${root}${tail}`);
		const newline = this.#lines.length > 0 ? 1 : 0;
		if (budgetChars(whole) + newline <= this.remaining) {
			this.add(whole);
			return;
		}
		const start = printable(head);
		this.add(`${start}${middleCut(printable(root), this.remaining - newline - budgetChars(start))}`);
	}

	/** Characters still free. */
	get remaining(): number {
		return this.#maxChars - this.#chars;
	}

	/** Lines that did not fit. */
	get dropped(): number {
		return this.#dropped;
	}

	toString(): string {
		return this.#lines.join("\n");
	}
}

/** `text` with characters taken out of its middle for `…` until it costs at most `room` (`budgetChars`). */
function middleCut(text: string, room: number): string {
	if (budgetChars(text) <= room) return text;
	let keep = Math.max(0, Math.floor(room / 2) - 2);
	let cut = `${text.slice(0, keep)}…${text.slice(text.length - keep)}`;
	while (keep > 0 && budgetChars(cut) > room) {
		keep = Math.floor(keep * 0.8);
		cut = `${text.slice(0, keep)}…${text.slice(text.length - keep)}`;
	}
	return cut;
}
