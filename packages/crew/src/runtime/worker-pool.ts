/**
 * A counting semaphore for sub-agent processes: at most `limit` hold a slot at once, the rest wait in order.
 * `peak` records the most slots ever held together, so tests can count concurrency instead of timing it.
 */
export class WorkerPool {
	readonly limit: number;
	#active = 0;
	#peak = 0;
	readonly #waiting: { grant: () => void; refuse: (error: Error) => void }[] = [];

	constructor(limit: number) {
		if (!Number.isInteger(limit) || limit < 1)
			throw new Error(`WorkerPool: limit must be a positive integer, got ${limit}`);
		this.limit = limit;
	}

	/** Slots held now. */
	get active(): number {
		return this.#active;
	}

	/** The most slots held at once so far. */
	get peak(): number {
		return this.#peak;
	}

	/**
	 * Waits for a slot; the returned function gives it back (calling it twice is harmless). An abort of `signal`
	 * while waiting rejects with its reason and leaves the queue.
	 */
	async acquire(signal?: AbortSignal): Promise<() => void> {
		signal?.throwIfAborted();
		if (this.#active >= this.limit) {
			await new Promise<void>((grant, refuse) => {
				const waiter = { grant, refuse };
				this.#waiting.push(waiter);
				signal?.addEventListener(
					"abort",
					() => {
						const index = this.#waiting.indexOf(waiter);
						if (index >= 0) this.#waiting.splice(index, 1);
						refuse(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
					},
					{ once: true },
				);
			});
		} else this.#active++;
		this.#peak = Math.max(this.#peak, this.#active);
		let released = false;
		return () => {
			if (released) return;
			released = true;
			const next = this.#waiting.shift();
			// The slot passes straight to the next waiter, so nobody can overtake it in between.
			if (next) next.grant();
			else this.#active--;
		};
	}
}
