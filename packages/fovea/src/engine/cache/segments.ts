/**
 * The segment files of the fact cache (`packs/*.pack`) as the cache tracks them: which exist, which records of one
 * are wanted, and reading those records back by offset. Apart from the cache so the file handling (sizes checked
 * before trusting offsets, partial reads, leftovers of crashed writers) is read in one place.
 */
import { type FileHandle, open, readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { removeQuietly, TEMP_PREFIX } from "../atomic-write.ts";
import type { FileFacts } from "../model/index.ts";
import { parseRecord } from "./records.ts";

/** One segment file as the cache knows it. */
export interface Segment {
	name: string;
	bytes: number;
	/** Records physically in the file; more than its live entries once some were evicted or superseded. */
	records: number;
}

/** Where one live record is, and when it was last used (for eviction). */
export interface Entry {
	segment: Segment;
	offset: number;
	length: number;
	lastUsed: number;
}

/** Where the segments of the cache directory `dir` are. */
export function packsDir(dir: string): string {
	return join(dir, "packs");
}

/** Temp files older than this are leftovers of a crashed writer. */
const STALE_TEMP_MS = 10 * 60 * 1000;

/** The segment files in `packs` with their sizes; temp files a crashed writer left behind are removed. */
export async function listSegments(packs: string): Promise<Map<string, number>> {
	const onDisk = new Map<string, number>();
	const now = Date.now();
	for (const entry of await readdir(packs, { withFileTypes: true })) {
		if (!entry.isFile()) continue;
		const path = join(packs, entry.name);
		if (entry.name.startsWith(TEMP_PREFIX)) {
			const info = await stat(path).catch(() => undefined);
			if (info !== undefined && now - info.mtimeMs > STALE_TEMP_MS) await removeQuietly(path);
			continue;
		}
		if (!entry.name.endsWith(".pack")) continue;
		const info = await stat(path).catch(() => undefined);
		if (info !== undefined) onDisk.set(entry.name, info.size);
	}
	return onDisk;
}

/** `list` grouped by the segment of each item's entry, in first-seen order. */
export function bySegment<T extends { entry: Entry }>(list: Iterable<T>): Map<Segment, T[]> {
	const groups = new Map<Segment, T[]>();
	for (const item of list) {
		const group = groups.get(item.entry.segment);
		if (group === undefined) groups.set(item.entry.segment, [item]);
		else group.push(item);
	}
	return groups;
}

/**
 * A segment most of whose records are wanted is read through a window of this many bytes, reused from one stretch of
 * the file to the next, instead of whole: a cold index's segments are ~10 MB, and freeing a buffer that large makes
 * glibc serve every later buffer below that size from the process's heap, where freed space in the middle is never
 * returned (see `atomic-write.ts`).
 */
export const READ_WINDOW = 1024 * 1024;

/**
 * Reads the wanted records of `segment` from the file at `path`; `undefined` when the file is gone, changed size, or
 * any wanted record is damaged. A file most of which is wanted is read in order through one window
 * ({@link READ_WINDOW}); else record by record.
 */
export async function readSegmentRecords(
	path: string,
	segment: Segment,
	wanted: readonly { key: string; entry: Entry }[],
): Promise<Map<string, FileFacts> | undefined> {
	const out = new Map<string, FileFacts>();
	let wantedBytes = 0;
	for (const w of wanted) wantedBytes += w.entry.length;
	const windowed = wantedBytes * 4 >= segment.bytes;
	try {
		const handle = await open(path, "r");
		try {
			if ((await handle.stat()).size !== segment.bytes) return undefined;
			const ordered = windowed ? [...wanted].sort((x, y) => x.entry.offset - y.entry.offset) : wanted;
			const window = windowed ? Buffer.allocUnsafe(Math.min(READ_WINDOW, segment.bytes)) : undefined;
			let from = 0;
			let to = 0;
			for (const { key, entry } of ordered) {
				const end = entry.offset + entry.length;
				let text: string | undefined;
				if (window !== undefined && entry.length <= window.length) {
					if (entry.offset < from || end > to) {
						from = entry.offset;
						to = from + (await readFully(handle, window, Math.min(window.length, segment.bytes - from), from));
					}
					text = end <= to ? window.subarray(entry.offset - from, end - from).toString("utf8") : undefined;
				} else {
					const buffer = Buffer.allocUnsafe(entry.length);
					const read = await readFully(handle, buffer, entry.length, entry.offset);
					text = read === entry.length ? buffer.toString("utf8") : undefined;
				}
				const record = text === undefined ? undefined : parseRecord(text);
				if (record === undefined || record[0] !== key) return undefined;
				out.set(key, record[1]);
			}
		} finally {
			await handle.close();
		}
		return out;
	} catch {
		return undefined;
	}
}

/** Reads `length` bytes at `position` into the start of `buffer`, through short reads; returns how many it got. */
async function readFully(handle: FileHandle, buffer: Buffer, length: number, position: number): Promise<number> {
	let got = 0;
	while (got < length) {
		const { bytesRead } = await handle.read(buffer, got, length - got, position + got);
		if (bytesRead === 0) break;
		got += bytesRead;
	}
	return got;
}

/**
 * The record lines of `wanted` in `segment`, as stored, for moving them to a new segment; a record that is gone or
 * damaged gives `undefined` for its key.
 */
export async function readRecordLines(
	path: string,
	segment: Segment,
	wanted: readonly { key: string; entry: Entry }[],
): Promise<Map<string, string | undefined>> {
	let data: Buffer;
	try {
		data = await readFile(path);
	} catch {
		data = Buffer.alloc(0);
	}
	const lines = new Map<string, string | undefined>();
	for (const { key, entry } of wanted) {
		const line = data.subarray(entry.offset, entry.offset + entry.length).toString("utf8");
		const record = data.length === segment.bytes ? parseRecord(line) : undefined;
		lines.set(key, record === undefined || record[0] !== key ? undefined : line);
	}
	return lines;
}
