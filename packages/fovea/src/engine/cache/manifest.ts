/**
 * The persisted manifest of one root (`manifest.json`): path → size, mtime, ctime and content hash (or the gap found in the
 * content), so a restart can tell unchanged files from their metadata alone. This module is its on-disk format:
 * rows compact enough for tens of thousands of files, and a parser that treats every field as untrusted.
 */
import { type CoverageGap, EXTRACTOR_VERSION } from "../model/index.ts";
import { jsonListParts } from "./json-list-parts.ts";

/** One file as last seen by the indexer: facts by `hash`, or a content gap (binary, generated, …). */
export interface ManifestEntry {
	size: number;
	mtimeMs: number;
	ctimeMs: number;
	hash?: string;
	gap?: CoverageGap["reason"];
	/** Modified so close to when it was checked that (size, mtime) cannot vouch for it: re-read next time. */
	racy?: boolean;
}

type ManifestRow = [
	path: string,
	size: number,
	mtimeMs: number,
	ctimeMs: number,
	hash: string | null,
	gap: CoverageGap["reason"] | null,
	racy: 0 | 1,
];

interface ManifestFile {
	v: number;
	extractor: number;
	root: string;
	files: ManifestRow[];
}

/** The manifest's own format: 2 added each file's ctime (1 shared the fact records' format number). */
const MANIFEST_VERSION = 2;

const GAP_REASONS = new Set<string>([
	"unsupported-language",
	"generated",
	"minified",
	"too-large",
	"binary",
	"unreadable",
	"parse-error",
]);

/**
 * The text of `root`'s manifest holding `files`, in parts: the same text as `JSON.stringify` of the whole file, made
 * a few hundred rows at a time, so saving the manifest of 100,000 files holds no list of every row nor one string of
 * them all (~40 MB at that size, at every save).
 */
export function* manifestParts(root: string, files: Iterable<[string, ManifestEntry]>): Generator<string> {
	const head: Omit<ManifestFile, "files"> = { v: MANIFEST_VERSION, extractor: EXTRACTOR_VERSION, root };
	const rows = (function* (): Generator<ManifestRow> {
		for (const [path, e] of files)
			yield [path, e.size, e.mtimeMs, e.ctimeMs, e.hash ?? null, e.gap ?? null, e.racy === true ? 1 : 0];
	})();
	yield* jsonListParts(head, "files", rows);
}

/** The manifest's entries; `null` when valid but not applicable (another extractor or root); `undefined` when damaged. */
export function parseManifest(text: string, root: string): Map<string, ManifestEntry> | undefined | null {
	let value: ManifestFile;
	try {
		value = JSON.parse(text) as ManifestFile;
	} catch {
		return undefined;
	}
	if (typeof value !== "object" || value === null || !Array.isArray(value.files)) return undefined;
	if (value.v !== MANIFEST_VERSION || value.extractor !== EXTRACTOR_VERSION || value.root !== root) return null;
	const files = new Map<string, ManifestEntry>();
	for (const row of value.files) {
		if (!Array.isArray(row) || row.length !== 7) return undefined;
		const [path, size, mtimeMs, ctimeMs, hash, gap, racy] = row;
		if (typeof path !== "string" || typeof size !== "number" || typeof mtimeMs !== "number") return undefined;
		if (typeof ctimeMs !== "number") return undefined;
		if (hash !== null && typeof hash !== "string") return undefined;
		if (gap !== null && !GAP_REASONS.has(gap)) return undefined;
		if (hash === null && gap === null) return undefined;
		const entry: ManifestEntry = { size, mtimeMs, ctimeMs };
		if (hash !== null) entry.hash = hash;
		if (gap !== null) entry.gap = gap;
		if (racy === 1) entry.racy = true;
		files.set(path, entry);
	}
	return files;
}
