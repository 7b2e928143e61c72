/**
 * Progress reports at a pace a person can read: a refresh reports after every batch (`RefreshOptions.onProgress`),
 * which a status bar or a terminal line need at most a few times a second, and the last one always.
 */

/** Default interval between two reports passed on. */
export const PROGRESS_INTERVAL_MS = 250;

/**
 * A progress callback that passes `(done, total)` on to `report` when `intervalMs` have gone by since the last one it
 * passed on, and always when `done` reaches `total`.
 */
export function pacedProgress(
	report: (done: number, total: number) => void,
	intervalMs = PROGRESS_INTERVAL_MS,
	now: () => number = Date.now,
): (done: number, total: number) => void {
	let last = Number.NEGATIVE_INFINITY;
	return (done, total) => {
		const at = now();
		if (done < total && at - last < intervalMs) return;
		last = at;
		report(done, total);
	};
}
