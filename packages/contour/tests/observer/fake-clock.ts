/**
 * A manual clock and one-shot timer for the observer's shell: time moves only when a test says so, so tests count
 * passes instead of waiting on wall-clock time.
 */
export class FakeClock {
	time = 0;
	#timers: { at: number; fn: () => void; id: number }[] = [];
	#nextId = 0;

	readonly now = (): number => this.time;

	readonly setTimer = (fn: () => void, ms: number): (() => void) => {
		const id = this.#nextId++;
		this.#timers.push({ at: this.time + ms, fn, id });
		return () => {
			this.#timers = this.#timers.filter((t) => t.id !== id);
		};
	};

	/** Timers armed and not yet fired or cancelled. */
	get pending(): number {
		return this.#timers.length;
	}

	/** Moves time forward by `ms`, firing every timer that falls due, in order, including ones armed meanwhile. */
	advance(ms: number): void {
		const end = this.time + ms;
		for (;;) {
			const due = this.#timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
			if (due === undefined) break;
			this.#timers = this.#timers.filter((t) => t !== due);
			this.time = due.at;
			due.fn();
		}
		this.time = end;
	}
}

/** A promise with its resolve and reject exposed, for warms a test finishes by hand. */
export function deferred<T = void>(): {
	promise: Promise<T>;
	resolve: (value: T) => void;
	reject: (e: unknown) => void;
} {
	let resolve!: (value: T) => void;
	let reject!: (e: unknown) => void;
	const promise = new Promise<T>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject };
}
