/**
 * File system calls in bulk on the main thread: synchronous while they are fast, asynchronous once one is slow.
 *
 * Each asynchronous call costs the main thread more than a fast synchronous one does in all: a promise or callback,
 * a request object, a trip through the thread pool and back, and the garbage of all of them. A call slower than
 * `slowMs` (a network mount, a busy disk) sends the rest of the calls, and every later one sharing the same `Pace`,
 * to the asynchronous form, so a host's event loop is not held by a slow file system; while calls run synchronously
 * the loop gets a turn after every time slice.
 */
import { TimeSlice } from "./time-slice.ts";

/** A synchronous call slower than this sends the rest to the asynchronous form. */
export const SLOW_CALL_MS = 20;

/** Whether calls still run synchronously; shared by the calls of one walk or one batch. */
export interface Pace {
	sync: boolean;
	/** Default {@link SLOW_CALL_MS}; a test sets it below zero to count every call slow. */
	slowMs?: number;
}

/** How a bulk of calls runs. */
export interface BulkOptions {
	pace: Pace;
	/** Asynchronous calls in flight at once. */
	concurrency: number;
	slice?: TimeSlice;
	signal?: AbortSignal | undefined;
}

/**
 * The results of `count` calls, in order: `fast(i)` while calls are fast, then `slow(i)` for the rest, `concurrency`
 * at a time. Both forms must give the same result for the same `i`.
 */
export async function syncWhileFast<T>(
	count: number,
	fast: (i: number) => T,
	slow: (i: number) => Promise<T>,
	{ pace, concurrency, slice = new TimeSlice(), signal }: BulkOptions,
): Promise<T[]> {
	const results: T[] = new Array(count);
	let cursor = 0;
	while (pace.sync && cursor < count) {
		signal?.throwIfAborted();
		const start = performance.now();
		results[cursor] = fast(cursor);
		cursor++;
		if (performance.now() - start > (pace.slowMs ?? SLOW_CALL_MS)) pace.sync = false;
		else if (slice.due && cursor < count) await slice.turn();
	}
	const worker = async (): Promise<void> => {
		while (cursor < count) {
			const i = cursor++;
			signal?.throwIfAborted();
			results[i] = await slow(i);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count - cursor) }, worker));
	return results;
}
