/**
 * Reading one file's content for the index, safely and within bounds, and telling content that is not source to
 * parse (binary, minified, generated) from content that is. Apart from the index because these are the rules about
 * untrusted bytes on disk: never follow a final symlink, never block on a FIFO, never read past the size limit.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { open } from "node:fs/promises";
import type { CoverageGap } from "./facts.ts";

const BINARY_SNIFF_BYTES = 8192;
const MINIFIED_MIN_BYTES = 2048;
const MINIFIED_AVG_LINE = 500;
const GENERATED_HEAD_BYTES = 4096;
const GENERATED_HEAD_LINES = 15;
const GENERATED_MARKERS = [/@generated\b/, /DO NOT EDIT/, /\bauto-?generated\b/i];
/** A line comment at the start of a line: `//`, `#`, `--`, `;` or `%`. */
const LINE_COMMENT = /^\s*(?:\/\/|#|--|;|%)/;

/** Why file content is not parsed (binary, minified, generated), or `undefined` when it is source to parse. */
export function contentGap(bytes: Uint8Array): "binary" | "minified" | "generated" | undefined {
	const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return "binary";
	if (buffer.length > MINIFIED_MIN_BYTES) {
		let lines = 1;
		for (let i = buffer.indexOf(10); i >= 0; i = buffer.indexOf(10, i + 1)) lines++;
		if (buffer.length / lines > MINIFIED_AVG_LINE) return "minified";
	}
	const head = buffer.subarray(0, GENERATED_HEAD_BYTES).toString("latin1").split("\n", GENERATED_HEAD_LINES);
	if (headerComments(head).some((text) => GENERATED_MARKERS.some((marker) => marker.test(text)))) return "generated";
	return undefined;
}

/**
 * The comment text among a file's first lines: line comments that start a line, and what `/* … *\/` and `<!-- … -->`
 * blocks hold. A generator says so in a comment; code that merely names a marker (a generated-file detector's own
 * patterns, a string) is source.
 */
function headerComments(lines: readonly string[]): string[] {
	const out: string[] = [];
	let closer: string | undefined;
	for (const line of lines) {
		let at = 0;
		for (;;) {
			if (closer !== undefined) {
				const end = line.indexOf(closer, at);
				out.push(line.slice(at, end === -1 ? line.length : end));
				if (end === -1) break;
				at = end + closer.length;
				closer = undefined;
			}
			if (at === 0 && LINE_COMMENT.test(line)) {
				out.push(line);
				break;
			}
			const block = line.indexOf("/*", at);
			const markup = line.indexOf("<!--", at);
			if (block === -1 && markup === -1) break;
			const isMarkup = block === -1 || (markup !== -1 && markup < block);
			at = isMarkup ? markup + 4 : block + 2;
			closer = isMarkup ? "-->" : "*/";
		}
	}
	return out;
}

/** What reading one file gave. */
export type ReadOutcome =
	| { kind: "absent" }
	| { kind: "gap"; reason: CoverageGap["reason"]; size: number; mtimeMs: number; readAt: number }
	| { kind: "content"; bytes: Buffer; size: number; mtimeMs: number; readAt: number };

/** Never follow a final symlink; never block on a FIFO swapped in after the walk (then `fstat` says: not a file). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Reads a regular file, bounded by `maxBytes`. Size and mtime are taken before reading, so a write that races the
 * read shows up as a difference on the next refresh.
 */
export async function readBounded(path: string, maxBytes: number): Promise<ReadOutcome> {
	let handle: Awaited<ReturnType<typeof open>>;
	try {
		handle = await open(path, OPEN_FLAGS);
	} catch (error) {
		return openFailure(error);
	}
	try {
		const steps = boundedReads(await handle.stat(), Date.now(), maxBytes);
		for (let step = steps.next(); ; ) {
			if (step.done === true) return step.value;
			const [buffer, offset] = step.value;
			step = steps.next((await handle.read(buffer, offset, buffer.length - offset, offset)).bytesRead);
		}
	} catch {
		return UNREADABLE;
	} finally {
		await handle.close().catch(() => {});
	}
}

/**
 * `readBounded` with synchronous calls, for a batch of files on a local disk: each asynchronous call costs the main
 * thread more than a small file's whole synchronous read (a cold index of 5,000 files spent ~300 ms of its main
 * thread on reads that took ~80 ms synchronously). Same rules and outcomes.
 */
export function readBoundedSync(path: string, maxBytes: number): ReadOutcome {
	let fd: number;
	try {
		fd = openSync(path, OPEN_FLAGS);
	} catch (error) {
		return openFailure(error);
	}
	try {
		const steps = boundedReads(fstatSync(fd), Date.now(), maxBytes);
		for (let step = steps.next(); ; ) {
			if (step.done === true) return step.value;
			const [buffer, offset] = step.value;
			step = steps.next(readSync(fd, buffer, offset, buffer.length - offset, offset));
		}
	} catch {
		return UNREADABLE;
	} finally {
		try {
			closeSync(fd);
		} catch {}
	}
}

/**
 * The reads of one bounded read of an open file (`info` from its `fstat`, taken at `readAt`), one reader for the
 * synchronous and the asynchronous calls: each step asks to fill `buffer` from `offset` and is answered with the
 * bytes read; the return value is the outcome.
 */
function* boundedReads(
	info: Stats,
	readAt: number,
	maxBytes: number,
): Generator<[buffer: Buffer, offset: number], ReadOutcome, number> {
	if (!info.isFile()) return { kind: "absent" };
	if (info.size > maxBytes) return tooLarge(info.size, info, readAt);
	let buffer = Buffer.allocUnsafe(Math.min(info.size, maxBytes) + 1);
	let length = 0;
	for (;;) {
		const bytesRead = yield [buffer, length];
		if (bytesRead === 0) break;
		length += bytesRead;
		if (length > maxBytes) break;
		if (length === buffer.length) {
			// The file grew since fstat: keep reading, still bounded.
			const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
			buffer.copy(bigger, 0, 0, length);
			buffer = bigger;
		}
	}
	if (length > maxBytes) return tooLarge(length, info, readAt);
	return { kind: "content", bytes: buffer.subarray(0, length), size: info.size, mtimeMs: info.mtimeMs, readAt };
}

const UNREADABLE: ReadOutcome = { kind: "gap", reason: "unreadable", size: 0, mtimeMs: 0, readAt: 0 };

function openFailure(error: unknown): ReadOutcome {
	const code = (error as NodeJS.ErrnoException).code;
	if (code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP") return { kind: "absent" };
	return UNREADABLE;
}

function tooLarge(size: number, info: Stats, readAt: number): ReadOutcome {
	return { kind: "gap", reason: "too-large", size, mtimeMs: info.mtimeMs, readAt };
}
