/**
 * Repaints the widget at most once per `delayMs` however many events arrive (16 agents calling tools would
 * otherwise repaint on every call). `paint` computes and shows the lines; a failing paint is dropped.
 */
export class WidgetPainter {
	readonly #paint: () => Promise<void>;
	readonly #delayMs: number;
	#timer: NodeJS.Timeout | undefined;
	#running: Promise<void> | undefined;
	#again = false;
	#closed = false;

	constructor(paint: () => Promise<void>, delayMs = 50) {
		this.#paint = paint;
		this.#delayMs = delayMs;
	}

	/** Asks for a repaint soon. */
	request(): void {
		if (this.#closed || this.#timer) return;
		this.#timer = setTimeout(() => {
			this.#timer = undefined;
			void this.now();
		}, this.#delayMs);
		this.#timer.unref();
	}

	/** Repaints now (after a repaint under way), and resolves when the widget shows the current state. */
	async now(): Promise<void> {
		if (this.#closed) return;
		if (this.#running) {
			this.#again = true;
			return this.#running;
		}
		this.#running = (async () => {
			do {
				this.#again = false;
				await this.#paint().catch(() => {});
			} while (this.#again && !this.#closed);
		})();
		try {
			await this.#running;
		} finally {
			this.#running = undefined;
		}
	}

	/** No more repaints. */
	close(): void {
		this.#closed = true;
		if (this.#timer) clearTimeout(this.#timer);
		this.#timer = undefined;
	}
}
