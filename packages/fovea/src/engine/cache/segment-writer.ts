/**
 * Writes the fact cache's records into new segment files, streaming: each record's line is built when its turn
 * comes and copied into one reused buffer, which goes to the file whenever it fills. Holding every record's line and
 * then their join would promote all those strings to V8's old generation before they die (they outlive the
 * collections of the young one while the list grows), so the heap would grow by a flush's worth at every flush.
 *
 * Each segment is an `AtomicFile` (`atomic-write.ts`): written under a temp name and renamed into place when
 * complete, so a reader or a crash sees a whole segment or none. A segment ends after the record that takes it past
 * `SEGMENT_TARGET_BYTES`.
 */
import { join } from "node:path";
import { AtomicFile, uniqueSuffix } from "../atomic-write.ts";
import { SEGMENT_HEADER, SEGMENT_TARGET_BYTES } from "./records.ts";

/** A record to write: its key and a function giving its line (without the newline) when it is written. */
export type RecordToWrite = readonly [key: string, line: () => string];

/** A segment file as written: its name under the packs directory, its size, and where each record landed. */
export interface WrittenSegment {
	name: string;
	bytes: number;
	placed: [key: string, offset: number, length: number][];
}

/** Size of the buffer records are copied into before each write. */
export const WRITE_BUFFER_BYTES = 1024 * 1024;

/**
 * Writes `records` in order into as few new segments under `packs` as the size target allows, and yields each
 * segment once it is in place. The caller can record a segment before the next one is written; a failure leaves no
 * temp file behind and throws.
 */
export async function* writeSegmentFiles(
	packs: string,
	records: Iterable<RecordToWrite>,
	options: { targetBytes?: number } = {},
): AsyncGenerator<WrittenSegment> {
	const target = options.targetBytes ?? SEGMENT_TARGET_BYTES;
	const buffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES);
	let file: OpenSegment | undefined;
	try {
		for (const [key, line] of records) {
			file ??= await OpenSegment.create(packs, buffer);
			const text = line();
			const length = Buffer.byteLength(text);
			file.placed.push([key, file.bytes, length]);
			await file.append(text, length);
			await file.append("\n", 1);
			if (file.bytes >= target) {
				const done = file;
				file = undefined;
				yield await done.finish();
			}
		}
		if (file !== undefined) {
			const done = file;
			file = undefined;
			yield await done.finish();
		}
	} finally {
		await file?.abandon();
	}
}

/** One segment being written: its file, the shared buffer and what is placed in it so far. */
class OpenSegment {
	readonly placed: [string, number, number][] = [];
	/** Bytes of the segment so far, buffered ones included. */
	bytes = 0;
	#used = 0;
	readonly name: string;
	readonly file: AtomicFile;
	readonly buffer: Buffer;

	private constructor(name: string, file: AtomicFile, buffer: Buffer) {
		this.name = name;
		this.file = file;
		this.buffer = buffer;
	}

	static async create(packs: string, buffer: Buffer): Promise<OpenSegment> {
		const name = `${uniqueSuffix()}.pack`;
		const segment = new OpenSegment(name, await AtomicFile.open(join(packs, name)), buffer);
		try {
			await segment.append(SEGMENT_HEADER, Buffer.byteLength(SEGMENT_HEADER));
		} catch (error) {
			await segment.abandon();
			throw error;
		}
		return segment;
	}

	/** Appends `text`, `length` bytes of UTF-8, through the buffer (a text larger than the buffer goes straight out). */
	async append(text: string, length: number): Promise<void> {
		if (this.#used + length > this.buffer.length) await this.#drain();
		if (length > this.buffer.length) await this.file.write(Buffer.from(text, "utf8"));
		else this.#used += this.buffer.write(text, this.#used, "utf8");
		this.bytes += length;
	}

	/** Writes what is buffered and puts the file in place. */
	async finish(): Promise<WrittenSegment> {
		try {
			await this.#drain();
		} catch (error) {
			await this.abandon();
			throw error;
		}
		await this.file.commit();
		return { name: this.name, bytes: this.bytes, placed: this.placed };
	}

	/** Removes the file of a segment that will not be finished. */
	abandon(): Promise<void> {
		return this.file.abandon();
	}

	async #drain(): Promise<void> {
		if (this.#used === 0) return;
		await this.file.write(this.buffer.subarray(0, this.#used));
		this.#used = 0;
	}
}
