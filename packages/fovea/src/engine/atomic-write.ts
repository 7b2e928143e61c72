/**
 * Atomic replacement of cache files: write a sibling temp file, then rename over the target, so a reader (or a
 * crash) sees the old file or the new one, never half of one. Temp files are named `.tmp-…` so the fact cache can
 * recognize and sweep the leftovers of a crashed writer. No fsync: the cache is an optimization, and a file lost to
 * a power cut costs only re-extraction.
 */
import { type FileHandle, open, rename, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";

/** How every temp file written here is named: the fact cache sweeps stale ones by it. */
export const TEMP_PREFIX = ".tmp-";

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

/**
 * A file being written under a temp name beside `path` (private to the user), put in place by `commit` (a rename,
 * so a reader sees the old file or the whole new one) or removed by `abandon`. `writeAtomic` is one write through
 * it; the fact cache's segment writer streams records through it.
 */
export class AtomicFile {
	readonly path: string;
	readonly #temp: string;
	readonly #handle: FileHandle;

	private constructor(path: string, temp: string, handle: FileHandle) {
		this.path = path;
		this.#temp = temp;
		this.#handle = handle;
	}

	/** Creates the temp file for `path`; throws (leaving nothing) when it cannot. */
	static async open(path: string): Promise<AtomicFile> {
		const temp = join(dirname(path), `${TEMP_PREFIX}${uniqueSuffix()}`);
		return new AtomicFile(path, temp, await open(temp, "w", 0o600));
	}

	/** Appends all of `bytes` (a write may take fewer bytes than given: a full disk on the way to failing, a signal). */
	async write(bytes: Uint8Array): Promise<void> {
		for (let at = 0; at < bytes.length; ) {
			const { bytesWritten } = await this.#handle.write(bytes, at, bytes.length - at);
			if (bytesWritten === 0) throw new Error(`no progress writing ${this.#temp}`);
			at += bytesWritten;
		}
	}

	/** Closes the temp file and renames it to `path`; on failure removes it and throws. */
	async commit(): Promise<void> {
		try {
			await this.#handle.close();
			await rename(this.#temp, this.path);
		} catch (error) {
			await this.abandon();
			throw error;
		}
	}

	/** Closes and removes the temp file; `path` stays as it was. */
	async abandon(): Promise<void> {
		await this.#handle.close().catch(() => {});
		await removeQuietly(this.#temp);
	}
}

/**
 * Writes `data` to `path` atomically (see {@link AtomicFile}), long text in pieces (see {@link WRITE_PIECE}). Text
 * given as parts (a generator) is written part by part as it is made, so a file of 100,000 rows is never one string.
 */
export async function writeAtomic(path: string, data: string | Uint8Array | Iterable<string>): Promise<void> {
	const file = await AtomicFile.open(path);
	try {
		if (data instanceof Uint8Array) await file.write(data);
		else {
			const parts = typeof data === "string" ? [data] : data;
			for (const part of parts) for (const piece of textPieces(part)) await file.write(Buffer.from(piece, "utf8"));
		}
	} catch (error) {
		await file.abandon();
		throw error;
	}
	await file.commit();
}

/** Removes `path`, ignoring every failure (already gone, or not ours to remove). */
export async function removeQuietly(path: string): Promise<void> {
	await unlink(path).catch(() => {});
}
