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

/** Writes `data` to `path` atomically: a sibling temp file, then rename. */
export async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
	const temp = join(dirname(path), `.tmp-${uniqueSuffix()}`);
	try {
		await writeFile(temp, data, { mode: 0o600 });
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
