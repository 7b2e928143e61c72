/**
 * The first index of a root, shared by the queries that arrive while it runs, each waiting for it only as long as
 * its patience allows. A first index of a large root takes minutes; a query that has waited long enough answers from
 * the files indexed so far (`CodeIndex.indexedSoFar`), saying so, while the index goes on for the next query. The
 * index runs without any one query's abort signal: its cost serves every query after it, so giving up on one
 * answer does not throw it away.
 */
import { settlesWithin } from "../pace/index.ts";
import type { IndexSnapshot } from "./snapshot.ts";

type Progress = (done: number, total: number) => void;

/** What a query waiting for a first index brings: its patience, its abort signal and its progress callback. */
export interface Patience {
	patienceMs: number;
	signal?: AbortSignal | undefined;
	onProgress?: Progress | undefined;
}

/** One root's first index, run once however many queries wait for it. */
export class FirstIndex {
	#running: Promise<IndexSnapshot> | undefined;
	readonly #listeners = new Set<Progress>();

	/** Whether a first index runs. */
	get running(): boolean {
		return this.#running !== undefined;
	}

	/**
	 * Waits for the first index (started with `start` unless one runs) for at most `patienceMs`. `undefined` when it
	 * settled within that time (the caller then asks the index as usual); else the snapshot indexed so far, taken
	 * once the walk has listed the files and a first batch of them is indexed (`soFar`), or `undefined` when the
	 * index settled before that. `onProgress` hears the index's progress while this query waits.
	 */
	async wait(
		start: (onProgress: Progress) => Promise<IndexSnapshot>,
		soFar: () => IndexSnapshot | undefined,
		patience: Patience,
	): Promise<IndexSnapshot | undefined> {
		const running = this.#running ?? this.#start(start);
		const { onProgress, signal } = patience;
		if (onProgress !== undefined) this.#listeners.add(onProgress);
		try {
			if (await settlesWithin(running, patience.patienceMs, signal)) return undefined;
			for (;;) {
				const snapshot = soFar();
				if (snapshot !== undefined && (snapshot.indexing?.indexed ?? 0) > 0) return snapshot;
				// Still walking, or nothing indexed yet: wait for the next batch, or the end.
				let heard: Progress | undefined;
				const batch = new Promise<void>((resolve) => {
					heard = () => resolve();
					this.#listeners.add(heard);
				});
				try {
					if (await settlesWithin(Promise.race([running, batch]), Number.POSITIVE_INFINITY, signal)) {
						if (this.#running !== running) return undefined;
					}
				} finally {
					if (heard !== undefined) this.#listeners.delete(heard);
				}
			}
		} finally {
			if (onProgress !== undefined) this.#listeners.delete(onProgress);
		}
	}

	#start(start: (onProgress: Progress) => Promise<IndexSnapshot>): Promise<IndexSnapshot> {
		const running = start((done, total) => {
			for (const listener of this.#listeners) listener(done, total);
		}).finally(() => {
			if (this.#running === running) this.#running = undefined;
		});
		running.catch(() => {}); // met by the query that asks the index next
		this.#running = running;
		return running;
	}
}
