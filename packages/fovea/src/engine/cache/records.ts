/**
 * The format of the fact cache's pack segments: a header line naming the format and extractor versions, then one
 * record per line, `JSON.stringify([key, facts])`. Pure: it makes record lines and finds them again in a segment's
 * bytes; writing segments is `segment-writer.ts`'s, and which files exist and which records are live the cache's.
 */
import { compactFacts, EXTRACTOR_VERSION, type FileFacts, isCallSites, isCount } from "../model/index.ts";

/** Version of the cache's on-disk formats (segments, index, manifest): files of another version are stale. */
export const FORMAT_VERSION = 1;
/** Line 1 of every segment this version writes. */
export const SEGMENT_HEADER = `${JSON.stringify({ fovea: "facts", v: FORMAT_VERSION, extractor: EXTRACTOR_VERSION })}\n`;
/** A flush larger than this is split into several segments, so compaction never reads a huge file back. */
export const SEGMENT_TARGET_BYTES = 16 * 1024 * 1024;

/** The record line (without its newline) of `facts` under `key`. */
export function recordLine(key: string, facts: FileFacts): string {
	return JSON.stringify([key, facts]);
}

function isFactsShape(value: unknown): value is FileFacts {
	if (typeof value !== "object" || value === null) return false;
	const f = value as Record<string, unknown>;
	return (
		typeof f.path === "string" &&
		typeof f.language === "string" &&
		typeof f.hash === "string" &&
		Array.isArray(f.symbols) &&
		Array.isArray(f.imports) &&
		isCallSites(f.calls) &&
		Array.isArray(f.inherits) &&
		isCount(f.parseErrors) &&
		(f.replacementCharacters === undefined || isCount(f.replacementCharacters)) &&
		(f.cutShort === undefined || f.cutShort === true) &&
		(f.contentTerms === undefined || typeof f.contentTerms === "string") &&
		(f.routes === undefined || (Array.isArray(f.routes) && f.routes.every(isRouteShape))) &&
		(f.literals === undefined || (Array.isArray(f.literals) && f.literals.every((l) => typeof l === "string")))
	);
}

function isRouteShape(value: unknown): boolean {
	if (typeof value !== "object" || value === null) return false;
	const r = value as Record<string, unknown>;
	return (
		typeof r.method === "string" &&
		typeof r.path === "string" &&
		isCount(r.line) &&
		(r.handler === undefined || typeof r.handler === "string")
	);
}

/** Parses one record line; `undefined` when damaged. */
export function parseRecord(line: string): [string, FileFacts] | undefined {
	try {
		const value: unknown = JSON.parse(line);
		if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== "string") return undefined;
		const facts: unknown = value[1];
		return isFactsShape(facts) ? [value[0], compactFacts(facts)] : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Where the records of a segment's bytes start, or why nothing in it is usable: `"foreign"`, a segment of another
 * format or extractor version (stale, not damaged), or `"damaged"`.
 */
export function recordsStart(data: Buffer): number | "foreign" | "damaged" {
	const headerEnd = data.indexOf(10);
	if (headerEnd >= 0 && data.subarray(0, headerEnd + 1).toString("utf8") === SEGMENT_HEADER) return headerEnd + 1;
	if (headerEnd < 0 || !data.subarray(0, headerEnd).toString("utf8").includes('"fovea":"facts"')) return "damaged";
	return "foreign";
}

/**
 * Calls `onRecord` for each intact record line of `data` from `start`; returns how many lines there were and whether
 * any of them was damaged.
 */
export function eachRecord(
	data: Buffer,
	start: number,
	onRecord: (key: string, offset: number, length: number) => void,
): { records: number; damaged: boolean } {
	let records = 0;
	let damaged = false;
	let offset = start;
	while (offset < data.length) {
		let end = data.indexOf(10, offset);
		if (end < 0) end = data.length;
		const record = parseRecord(data.subarray(offset, end).toString("utf8"));
		records++;
		if (record === undefined) damaged = true;
		else onRecord(record[0], offset, end - offset);
		offset = end + 1;
	}
	return { records, damaged };
}
