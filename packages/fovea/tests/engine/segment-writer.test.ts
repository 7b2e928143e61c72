/**
 * segment-writer: records streamed through the reused buffer land where the writer says they do (byte offsets and
 * lengths, multi-byte text and records larger than the buffer included), segments split after the record that
 * passes the target, each line is built only when written, and a failure leaves no file behind.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import fc from "fast-check";
import { SEGMENT_HEADER } from "../../src/engine/cache/records.ts";
import {
	type RecordToWrite,
	WRITE_BUFFER_BYTES,
	type WrittenSegment,
	writeSegmentFiles,
} from "../../src/engine/cache/segment-writer.ts";

const base = mkdtempSync(join(tmpdir(), "fovea-segment-writer-"));
after(() => rmSync(base, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => mkdtempSync(join(base, `packs-${dirs++}-`));

async function writeAll(packs: string, records: Iterable<RecordToWrite>, targetBytes?: number) {
	const out: WrittenSegment[] = [];
	const options = targetBytes === undefined ? {} : { targetBytes };
	for await (const segment of writeSegmentFiles(packs, records, options)) out.push(segment);
	return out;
}

/** Every record read back at its recorded offset and length, by key; asserts each segment's header and size. */
function readBack(packs: string, segments: WrittenSegment[]): Map<string, string> {
	const lines = new Map<string, string>();
	for (const segment of segments) {
		const bytes = readFileSync(join(packs, segment.name));
		assert.equal(bytes.length, segment.bytes, `${segment.name} is as long as the writer says`);
		assert.equal(bytes.subarray(0, Buffer.byteLength(SEGMENT_HEADER)).toString("utf8"), SEGMENT_HEADER);
		for (const [key, offset, length] of segment.placed) {
			assert.equal(bytes[offset + length], 10, `a newline ends record ${key}`);
			lines.set(key, bytes.subarray(offset, offset + length).toString("utf8"));
		}
	}
	return lines;
}

describe("writeSegmentFiles", () => {
	it("places every record where it reads back, across segments and buffer refills", async () => {
		const text = fc.string({ unit: fc.constantFrom("a", "é", "€", "😀", '"', "\\"), maxLength: 300 });
		await fc.assert(
			fc.asyncProperty(fc.array(text, { maxLength: 40 }), fc.integer({ min: 1, max: 4000 }), async (lines, target) => {
				const packs = freshDir();
				const records: RecordToWrite[] = lines.map((line, i) => [`k${i}`, () => line]);
				const segments = await writeAll(packs, records, target);
				const back = readBack(packs, segments);
				assert.deepEqual([...back.values()], lines);
				assert.deepEqual(
					[...back.keys()],
					lines.map((_, i) => `k${i}`),
				);
				for (const segment of segments.slice(0, -1)) assert.ok(segment.bytes >= target, "only the last is short");
				for (const segment of segments) {
					const [, lastOffset] = segment.placed.at(-2) ?? [];
					if (lastOffset !== undefined) assert.ok(lastOffset < target, "a segment ends at the record past the target");
				}
				assert.deepEqual(readdirSync(packs).sort(), segments.map((s) => s.name).sort(), "no temp file is left");
			}),
			{ numRuns: 60 },
		);
	});

	it("writes a record larger than the buffer whole, between buffered ones", async () => {
		const packs = freshDir();
		const huge = "x€".repeat(WRITE_BUFFER_BYTES); // 4 MiB of UTF-8
		const records: RecordToWrite[] = [
			["a", () => "small"],
			["b", () => huge],
			["c", () => "after"],
		];
		const segments = await writeAll(packs, records);
		assert.equal(segments.length, 1);
		assert.deepEqual(
			readBack(packs, segments),
			new Map([
				["a", "small"],
				["b", huge],
				["c", "after"],
			]),
		);
	});

	it("builds each line only when its turn comes, after the segments before it are in place", async () => {
		const packs = freshDir();
		const events: string[] = [];
		const records: RecordToWrite[] = Array.from({ length: 50 }, (_, i) => [
			`k${i}`,
			() => {
				events.push(`build k${i}`);
				return `line ${i}`;
			},
		]);
		const segments: WrittenSegment[] = [];
		for await (const segment of writeSegmentFiles(packs, records, { targetBytes: 200 })) {
			events.push(`placed ${segment.name}`);
			segments.push(segment);
		}
		assert.ok(segments.length > 2, "several segments at a small target");
		assert.equal(events.filter((e) => e.startsWith("build")).length, 50, "each line built once");
		for (let s = 0; s + 1 < segments.length; s++) {
			const placed = events.indexOf(`placed ${(segments[s] as WrittenSegment).name}`);
			const nextFirst = events.indexOf(`build ${(segments[s + 1] as WrittenSegment).placed[0]?.[0]}`);
			assert.ok(placed < nextFirst, `segment ${s} is in place before the next one's first line is built`);
		}
	});

	it("removes the unfinished segment when a record fails, and throws its error", async () => {
		const packs = freshDir();
		const records: RecordToWrite[] = [
			["a", () => "fine"],
			[
				"b",
				() => {
					throw new Error("record b cannot be serialized");
				},
			],
		];
		await assert.rejects(writeAll(packs, records), /record b cannot be serialized/);
		assert.deepEqual(readdirSync(packs), []);
	});

	it("fails clearly, with nothing written, when the packs directory is gone", async () => {
		const packs = join(freshDir(), "missing");
		await assert.rejects(writeAll(packs, [["a", () => "x"]]), /ENOENT/);
	});

	it("writes no segment for no records", async () => {
		const packs = freshDir();
		assert.deepEqual(await writeAll(packs, []), []);
		assert.deepEqual(readdirSync(packs), []);
	});
});
