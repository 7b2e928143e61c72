/**
 * Token budgets for text handed to the model. The estimate is deliberately conservative (three characters per
 * token; code and paths tokenize worse than prose), so text that fits by this measure fits any common tokenizer.
 */
export function estimateTokens(text: string): number {
	return Math.ceil(text.length / 3);
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

	/** Adds `line` if it fits with `reserve` characters left over; returns whether it was added. */
	add(line: string, reserve = 0): boolean {
		const cost = line.length + (this.#lines.length > 0 ? 1 : 0);
		if (this.#chars + cost + reserve > this.#maxChars) {
			this.#dropped++;
			return false;
		}
		this.#lines.push(line);
		this.#chars += cost;
		return true;
	}

	/** Whether lines totalling `chars` characters (plus their separators) would fit with `reserve` left over. */
	fits(chars: number, lines = 1, reserve = 0): boolean {
		return this.#chars + chars + lines + reserve <= this.#maxChars;
	}

	/** Adds a heading with its lines only if the heading and at least the first line fit; returns how many lines fit. */
	addSection(heading: string, lines: readonly string[], reserve = 0): number {
		const first = lines[0];
		if (first === undefined || !this.fits(heading.length + first.length, 2, reserve)) return 0;
		this.add(heading, reserve);
		let added = 0;
		for (const line of lines) {
			if (!this.add(line, reserve)) break;
			added++;
		}
		return added;
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
