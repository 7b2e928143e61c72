/**
 * A time as people read it in a report: how long ago (`just now`, `12 s ago`, `3 min ago`, `2 h ago`, `4 d ago`),
 * never a raw ISO timestamp, which stays in the JSON form for machines.
 */

/** How long before `now` (ms since the epoch) the ISO time `iso` was; `at an unknown time` when it does not parse. */
export function timeAgo(iso: string, now: number): string {
	const then = Date.parse(iso);
	if (Number.isNaN(then)) return "at an unknown time";
	const seconds = Math.round((now - then) / 1000);
	if (seconds < 0) return "just now";
	if (seconds < 2) return "just now";
	if (seconds < 60) return `${seconds} s ago`;
	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) return `${minutes} min ago`;
	const hours = Math.floor(minutes / 60);
	if (hours < 48) return `${hours} h ago`;
	return `${Math.floor(hours / 24)} d ago`;
}
