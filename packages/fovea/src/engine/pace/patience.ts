/**
 * Waiting for long work with a bound: a query that may answer from part of an index waits for the whole index only
 * so long, then answers from what there is while the work goes on. The work is never cancelled by giving up on it.
 */

/**
 * Whether `work` settles (either way) within `ms` (no bound when infinite); `false` at once for `ms` ≤ 0. Rejects
 * with the abort reason when `signal` aborts first. `work`'s own failure is left to whoever awaits it.
 */
export function settlesWithin(work: PromiseLike<unknown>, ms: number, signal?: AbortSignal): Promise<boolean> {
	if (ms <= 0) return Promise.resolve(false);
	signal?.throwIfAborted();
	return new Promise<boolean>((resolve, reject) => {
		// A timer past 2^31 - 1 ms would fire at once: an unbounded wait sets none.
		const timer = Number.isFinite(ms) ? setTimeout(() => finish(false), ms) : undefined;
		const abort = () => {
			clearTimeout(timer);
			reject(signal?.reason);
		};
		const finish = (settled: boolean) => {
			clearTimeout(timer);
			signal?.removeEventListener("abort", abort);
			resolve(settled);
		};
		signal?.addEventListener("abort", abort, { once: true });
		work.then(
			() => finish(true),
			() => finish(true),
		);
	});
}
