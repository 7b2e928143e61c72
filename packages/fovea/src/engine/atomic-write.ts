/**
 * Atomic replacement of cache files: write a sibling temp file, then rename over the target, so a reader (or a
 * crash) sees the old file or the new one, never half of one. Temp files are named `.tmp-…` so the fact cache can
 * recognize and sweep the leftovers of a crashed writer. No fsync: the cache is an optimization, and a file lost to
 * a power cut costs only re-extraction.
 */
import { rename, unlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

let tempCounter = 0;

/** A name part unique across processes and calls (pid, time, counter, randomness). */
export function uniqueSuffix(): string {
	tempCounter = (tempCounter + 1) % 1e9;
	return `${process.pid.toString(36)}-${Date.now().toString(36)}-${tempCounter.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Text is written in pieces of at most this many UTF-16 units (at most 96 KiB of UTF-8 each). Written whole, a
 * fact-cache segment of a cold index became one ~10 MB buffer; freeing a buffer that large makes glibc raise its
 * threshold for mapping allocations apart to that size, so every later buffer below it (the graph's rows among them)
 * came from the process's heap, where freed space in the middle is never returned.
 */
export const WRITE_PIECE = 32 * 1024;

/** `text` in pieces of at most {@link WRITE_PIECE} units, never splitting a surrogate pair. */
export function* textPieces(text: string): Generator<string> {
	for (let at = 0; at < text.length; ) {
		let end = Math.min(at + WRITE_PIECE, text.length);
		const code = text.charCodeAt(end - 1);
		if (end < text.length && code >= 0xd800 && code <= 0xdbff) end--;
		yield text.slice(at, end);
		at = end;
	}
}

/** Writes `data` to `path` atomically: a sibling temp file, then rename. */
export async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
	const temp = join(dirname(path), `.tmp-${uniqueSuffix()}`);
	try {
		await writeFile(temp, typeof data === "string" && data.length > WRITE_PIECE ? textPieces(data) : data, {
			mode: 0o600,
		});
		await rename(temp, path);
	} catch (error) {
		await unlink(temp).catch(() => {});
		throw error;
	}
}

/** Removes `path`, ignoring every failure (already gone, or not ours to remove). */
export async function removeQuietly(path: string): Promise<void> {
	await unlink(path).catch(() => {});
}
