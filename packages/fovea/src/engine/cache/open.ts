/**
 * Opening a fact cache: its bookkeeping (segments, and where each live record is) rebuilt from `index.json` and the
 * segment files on disk. The index is only a cache of the segments, so segments it does not know are scanned, and a
 * stale, missing or damaged index is replaced by scanning; damaged files are removed and counted, never fatal.
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { removeQuietly } from "../atomic-write.ts";
import { type IndexFile, parseIndexFile, restoreIndex } from "./index-file.ts";
import { eachRecord, recordsStart } from "./records.ts";
import { type Entry, listSegments, packsDir, type Segment } from "./segments.ts";

/** The bookkeeping a cache opens into: both maps are empty before and filled by {@link openFactStore}. */
export interface FactStore {
	segments: Map<string, Segment>;
	entries: Map<string, Entry>;
}

/** What opening found besides the bookkeeping: the latest use recorded, and what the index did not cover. */
export interface OpenedStore {
	clock: number;
	/** Segments (and their bytes) the index did not know: rescanned on every open until the index is saved. */
	unsavedSegments: number;
	unsavedBytes: number;
	/** The index on disk no longer matches the bookkeeping. */
	indexDirty: boolean;
}

/** Fills `store` from the cache directory `dir`; damaged files found are removed and counted in `stats.corrupt`. */
export async function openFactStore(dir: string, store: FactStore, stats: { corrupt: number }): Promise<OpenedStore> {
	const opened: OpenedStore = { clock: 0, unsavedSegments: 0, unsavedBytes: 0, indexDirty: false };
	const index = await readIndex(dir, stats);
	const onDisk = await listSegments(packsDir(dir));
	let known = new Set<string>();
	if (index !== undefined) {
		const restored = restoreIndex(index, onDisk, store);
		known = restored.known;
		opened.clock = restored.lastUsed;
	}
	for (const [name, bytes] of onDisk) {
		if (known.has(name)) continue;
		await scanSegment(dir, name, bytes, store, stats);
		opened.unsavedSegments++;
		opened.unsavedBytes += bytes;
		opened.indexDirty = true;
	}
	if (index === undefined && store.segments.size > 0) opened.indexDirty = true;
	return opened;
}

async function readIndex(dir: string, stats: { corrupt: number }): Promise<IndexFile | undefined> {
	const path = join(dir, "index.json");
	let text: string;
	try {
		text = await readFile(path, "utf8");
	} catch {
		return undefined;
	}
	const index = parseIndexFile(text);
	if (index === "stale") {
		await removeQuietly(path); // another format or extractor: stale, not damaged
		return undefined;
	}
	if (index === undefined) {
		stats.corrupt++;
		await removeQuietly(path);
	}
	return index;
}

/** Adds the records of a segment the index does not know; a damaged one is removed. */
async function scanSegment(
	dir: string,
	name: string,
	bytes: number,
	store: FactStore,
	stats: { corrupt: number },
): Promise<void> {
	const path = join(packsDir(dir), name);
	let data: Buffer;
	try {
		data = await readFile(path);
	} catch {
		return;
	}
	const start = recordsStart(data);
	if (typeof start !== "number") {
		// Another format or extractor version, or damaged: nothing in it is usable.
		if (start === "damaged") stats.corrupt++;
		await removeQuietly(path);
		return;
	}
	const info = await stat(path).catch(() => undefined);
	const lastUsed = info?.mtimeMs ?? Date.now();
	const segment: Segment = { name, bytes, records: 0 };
	const { records, damaged } = eachRecord(data, start, (key, offset, length) => {
		if (!store.entries.has(key)) store.entries.set(key, { segment, offset, length, lastUsed });
	});
	segment.records = records;
	store.segments.set(name, segment);
	if (damaged) {
		// Keep nothing from a damaged file: drop what it gave and remove it.
		stats.corrupt++;
		for (const [key, entry] of store.entries) if (entry.segment === segment) store.entries.delete(key);
		store.segments.delete(name);
		await removeQuietly(path);
	}
}
