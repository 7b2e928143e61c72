import { nulRecords } from "pi-fovea/git";

/** The all-zero sha1 object id Git prints for a side it has no object for (absent, or not hashed yet). */
export const ZERO_OID = "0000000000000000000000000000000000000000";

/** One entry of `git diff-* --raw -z` output, paths decoded. */
export interface RawEntry {
	/** Git's status letter: A, C, D, M, R, T, U or X. */
	status: string;
	/** Rename or copy similarity in percent (R and C only). */
	score?: number;
	srcMode: string;
	dstMode: string;
	/** Object ids, or ZERO_OID for an absent or unhashed side. */
	srcOid: string;
	dstOid: string;
	/** The path (the destination for renames and copies). */
	path: string;
	/** The source path of a rename or copy. */
	oldPath?: string;
	/** False when a path is not valid UTF-8 and `path` holds a lossy decoding that names no real file. */
	validName: boolean;
}

// Object ids are 40 hex digits (sha1) or 64 (sha256), always in full: plumbing does not abbreviate raw output.
const HEADER =
	/^:([0-7]{6}) ([0-7]{6}) ([0-9a-f]{40}(?:[0-9a-f]{24})?) ([0-9a-f]{40}(?:[0-9a-f]{24})?) ([ACDMRTUX])(\d*)$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });
const lossy = new TextDecoder("utf-8");

/** Decodes a path as Git printed it under `-z` (raw bytes): exact when it is UTF-8, else lossy and flagged. */
export function decodePath(bytes: Uint8Array): { path: string; valid: boolean } {
	try {
		return { path: utf8.decode(bytes), valid: true };
	} catch {
		return { path: lossy.decode(bytes), valid: false };
	}
}

/**
 * Parses `--raw -z` output (full object ids, as plumbing prints them). Throws on anything that is not raw output
 * or names an unsafe path, since a misparse here would review the wrong file.
 */
export function parseRawDiff(out: Buffer): RawEntry[] {
	const records = nulRecords(out);
	const entries: RawEntry[] = [];
	for (let i = 0; i < records.length; ) {
		const header = (records[i++] as Buffer).toString("latin1");
		const match = HEADER.exec(header);
		if (match === null) throw new Error(`unexpected git diff --raw record: ${JSON.stringify(header.slice(0, 120))}`);
		const [, srcMode, dstMode, srcOid, dstOid, status, score] = match as unknown as string[];
		const twoPaths = status === "R" || status === "C";
		const first = records[i++];
		const second = twoPaths ? records[i++] : undefined;
		if (first === undefined || (twoPaths && second === undefined))
			throw new Error("truncated git diff --raw output: a record lacks its path");
		const dst = decodePath(second ?? first);
		const entry: RawEntry = {
			status: status as string,
			srcMode: srcMode as string,
			dstMode: dstMode as string,
			srcOid: srcOid as string,
			dstOid: dstOid as string,
			path: checkedPath(dst.path),
			validName: dst.valid,
		};
		if (twoPaths) {
			const src = decodePath(first);
			entry.oldPath = checkedPath(src.path);
			entry.validName &&= src.valid;
			entry.score = Number(score || "0");
		}
		entries.push(entry);
	}
	return entries;
}

/**
 * A root-relative path as Git prints it: nonempty, relative, without `.`/`..` segments or empty segments. Anything
 * else would let a crafted name escape the root when joined, so it is refused.
 */
export function checkedPath(path: string): string {
	const segments = path.split("/");
	if (path === "" || path.startsWith("/") || segments.some((s) => s === "" || s === "." || s === ".."))
		throw new Error(`git printed an unsafe path: ${JSON.stringify(path)}`);
	return path;
}
