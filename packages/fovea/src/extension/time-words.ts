/**
 * Times as a person reads them: `42 s`, `3 min 5 s`, `2 h 10 min`, and `12 s ago`, never a raw ISO timestamp or a
 * millisecond count. Pure: the clock is passed in. Shared by the three extensions' reports (pi-crew imports it).
 */

/** A duration as `42 s`, `3 min 5 s`, `2 h 10 min`; negative or unknown durations read `0 s`. */
export function durationText(ms: number): string {
	const s = Math.max(0, Math.floor(Number.isFinite(ms) ? ms / 1000 : 0));
	if (s < 60) return `${s} s`;
	const m = Math.floor(s / 60);
	if (m < 60) return `${m} min ${s % 60} s`;
	return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** The time since `at` (epoch ms, or an ISO date) as `12 s ago`; `at` itself as text when it is no date. */
export function agoText(at: number | string, now: number): string {
	const time = typeof at === "number" ? at : Date.parse(at);
	return Number.isNaN(time) ? String(at) : `${durationText(now - time)} ago`;
}
