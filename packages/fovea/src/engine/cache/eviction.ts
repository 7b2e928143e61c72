/**
 * The bounds policy of the fact cache, as pure decisions over its bookkeeping: which entries to evict when it holds
 * too many entries or bytes, and which segments to rewrite afterwards (those that lost records, and the smallest
 * when there are too many files). The cache carries the decisions out.
 */
import type { Entry, Segment } from "./segments.ts";

/** Beyond this many segments, the small ones are merged. */
const MAX_SEGMENTS = 48;

/**
 * The keys to evict, least recently used first, when the cache is over a bound: enough to bring it to 90% of both,
 * so the next few flushes do not compact again at once. `undefined` when it is within its bounds.
 */
export function evictionVictims(
	entries: ReadonlyMap<string, Entry>,
	segmentBytes: number,
	bounds: { maxEntries: number; maxBytes: number },
): string[] | undefined {
	if (entries.size <= bounds.maxEntries && segmentBytes <= bounds.maxBytes) return undefined;
	let liveBytes = 0;
	for (const e of entries.values()) liveBytes += e.length + 1;
	const entryTarget = Math.floor(bounds.maxEntries * 0.9);
	const byteTarget = Math.floor(bounds.maxBytes * 0.9);
	const byAge = [...entries].sort((a, b) => a[1].lastUsed - b[1].lastUsed);
	const victims: string[] = [];
	let size = entries.size;
	for (const [key, entry] of byAge) {
		if (size <= entryTarget && liveBytes <= byteTarget) break;
		victims.push(key);
		size--;
		liveBytes -= entry.length + 1;
	}
	return victims;
}

/** Segments to rewrite: those holding fewer live records than they contain, plus the smallest beyond the file limit. */
export function segmentsToRewrite(
	entries: ReadonlyMap<string, Entry>,
	segments: ReadonlyMap<string, Segment>,
): Set<Segment> {
	const live = new Map<Segment, number>();
	for (const e of entries.values()) live.set(e.segment, (live.get(e.segment) ?? 0) + 1);
	const rewrite = new Set<Segment>();
	for (const segment of segments.values()) {
		if ((live.get(segment) ?? 0) < segment.records) rewrite.add(segment);
	}
	if (segments.size - rewrite.size > MAX_SEGMENTS) {
		const small = [...segments.values()]
			.filter((s) => !rewrite.has(s))
			.sort((a, b) => a.bytes - b.bytes)
			.slice(0, segments.size - rewrite.size - MAX_SEGMENTS / 2);
		for (const s of small) rewrite.add(s);
	}
	return rewrite;
}
