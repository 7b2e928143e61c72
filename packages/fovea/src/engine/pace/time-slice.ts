/**
 * Main-thread work in time slices: a loop that reads or parses on the main thread gives the event loop (a host's
 * interface, other work of the same process) a turn after each slice, not only when the loop ends. One mechanism for
 * every such loop, so they agree on how long the loop may be held.
 */

/** How long one slice of main-thread work runs before the event loop gets a turn. */
export const SLICE_MS = 12;

/** One loop's slices: `due` once the current slice has run its length; `turn()` yields and starts the next. */
export class TimeSlice {
	readonly #ms: number;
	#start = performance.now();

	constructor(ms = SLICE_MS) {
		this.#ms = ms;
	}

	/** Whether the current slice has run its length. */
	get due(): boolean {
		return performance.now() - this.#start > this.#ms;
	}

	/** Gives the event loop a turn (`setImmediate`: after pending I/O) and starts a new slice. */
	async turn(): Promise<void> {
		await new Promise<void>((done) => setImmediate(done));
		this.#start = performance.now();
	}
}
