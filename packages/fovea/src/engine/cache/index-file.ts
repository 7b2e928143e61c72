/**
 * The fact cache's `index.json`: key → (segment, offset, length, last use), so opening the cache reads one file
 * instead of every segment. It is only a cache of the segments, so this module turns it into data and back and
 * says whether a text is usable, stale (another format or extractor) or damaged; the cache decides what to do.
 */

import { EXTRACTOR_VERSION } from "../model/index.ts";
import { jsonListParts } from "./json-list-parts.ts";
import { FORMAT_VERSION } from "./records.ts";
import type { Entry, Segment } from "./segments.ts";

/** The parsed index: segments by slot, and entries naming their segment's slot. */
export type IndexFile = {
	v: number;
	extractor: number;
	segments: [name: string, bytes: number, records: number][];
	entries: [key: string, segment: number, offset: number, length: number, lastUsed: number][];
};

/** The index in `text`; `"stale"` when it is of another format or extractor version; `undefined` when damaged. */
export function parseIndexFile(text: string): IndexFile | "stale" | undefined {
	try {
		const value = JSON.parse(text) as IndexFile;
		if (value.v !== FORMAT_VERSION || value.extractor !== EXTRACTOR_VERSION) return "stale";
		if (
			Array.isArray(value.segments) &&
			Array.isArray(value.entries) &&
			value.segments.every(
				(s) => Array.isArray(s) && typeof s[0] === "string" && typeof s[1] === "number" && typeof s[2] === "number",
			) &&
			value.entries.every(
				(e) =>
					Array.isArray(e) &&
					e.length === 5 &&
					typeof e[0] === "string" &&
					typeof e[1] === "number" &&
					typeof e[2] === "number" &&
					typeof e[3] === "number" &&
					typeof e[4] === "number",
			)
		) {
			return value;
		}
	} catch {
		// fall through: damaged
	}
	return undefined;
}

/**
 * The text of the index of `entries`, which live in `segments`, in parts (as `jsonListParts` makes them: no list of
 * every entry, nor one string of them all); entries of other segments are left out.
 */
export function* indexFileParts(segments: Iterable<Segment>, entries: Iterable<[string, Entry]>): Generator<string> {
	const names: Segment[] = [...segments];
	const slot = new Map<Segment, number>(names.map((s, i) => [s, i]));
	const head: Omit<IndexFile, "entries"> = {
		v: FORMAT_VERSION,
		extractor: EXTRACTOR_VERSION,
		segments: names.map((s) => [s.name, s.bytes, s.records]),
	};
	const rows = (function* (): Generator<IndexFile["entries"][number]> {
		for (const [key, e] of entries) {
			const seg = slot.get(e.segment);
			if (seg !== undefined) yield [key, seg, e.offset, e.length, e.lastUsed];
		}
	})();
	yield* jsonListParts(head, "entries", rows);
}

/**
 * The segments and entries an index vouches for: a segment only when a file of the recorded size is on disk
 * (`onDisk`: name → bytes), an entry only when its segment is vouched for and its key is not taken yet. Returns the
 * names vouched for and the latest use seen.
 */
export function restoreIndex(
	index: IndexFile,
	onDisk: ReadonlyMap<string, number>,
	into: { segments: Map<string, Segment>; entries: Map<string, Entry> },
): { known: Set<string>; lastUsed: number } {
	const known = new Set<string>();
	let latest = 0;
	const table: (Segment | undefined)[] = index.segments.map(([name, bytes, records]) => {
		if (onDisk.get(name) !== bytes) return undefined; // gone or damaged: rescanned by the caller if present
		known.add(name);
		const segment: Segment = { name, bytes, records };
		into.segments.set(name, segment);
		return segment;
	});
	for (const [key, seg, offset, length, lastUsed] of index.entries) {
		const segment = table[seg];
		if (segment === undefined || into.entries.has(key)) continue;
		into.entries.set(key, { segment, offset, length, lastUsed });
		latest = Math.max(latest, lastUsed);
	}
	return { known, lastUsed: latest };
}
