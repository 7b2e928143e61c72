/**
 * What a review computed from file content, kept by content identity: the Git blob id of the bytes (the same in a
 * commit, the index or the worktree) and the language the path's extension selects. Staging bytes that were already
 * reviewed in the worktree, or reviewing the same commit again, reuses the measure and the imports instead of
 * reading and parsing them again.
 *
 * Bounded by an estimate of the bytes held (JSON size of the entries), least recently used dropped first.
 */
import { LRUCache } from "lru-cache";
import { EXTRACTOR_VERSION, type FileFacts, languageOf } from "pi-fovea/model";
import type { FileMeasure } from "../review/index.ts";
import { MEASURE_VERSION } from "../review/measure-version.ts";

/** The imports of one file's content, as the engine's extractor wrote them. */
export type ImportFacts = FileFacts["imports"];

/** Default bound of a measure cache: 64 MiB of measures and imports, as estimated by their JSON size. */
export const DEFAULT_MEASURE_CACHE_BYTES = 64 << 20;

/** Hit and miss counts of a cache, for tests and status. */
export interface MeasureCacheStats {
	hits: number;
	misses: number;
	entries: number;
	bytes: number;
}

/** One cached value: a file's measure or its imports. */
export type MeasureCacheEntry = { kind: "measure"; value: FileMeasure } | { kind: "imports"; value: ImportFacts };
type Entry = MeasureCacheEntry;

/**
 * An entry as held: its JSON text (the form on disk, and its size) and, once used or when computed here, the value.
 * Entries read from disk stay text until a review asks for them: a run that uses two of a few hundred kept entries
 * parses two, and writes back only what it added.
 */
interface Slot {
	json: string;
	entry?: Entry;
}

/** Measures and imports by (blob id, language, settings). */
export class MeasureCache {
	readonly #entries: LRUCache<string, Slot>;
	/** Keys added by `put…` since the last `takeAdded`, for an append-only cache on disk. */
	readonly #added = new Set<string>();
	#hits = 0;
	#misses = 0;

	constructor(maxBytes = DEFAULT_MEASURE_CACHE_BYTES) {
		this.#entries = new LRUCache<string, Slot>({
			maxSize: Math.max(1024, Math.floor(maxBytes)),
			sizeCalculation: (slot) => Math.max(1, slot.json.length),
		});
	}

	/** The cached measure of blob `oid` at `path` (its language) measured with `maxBytes`, re-labelled to `path`. */
	measure(oid: string, path: string, maxBytes: number): FileMeasure | undefined {
		const entry = this.#lookup(measureKey(oid, path, maxBytes));
		if (entry?.kind !== "measure") return undefined;
		return entry.value.path === path ? entry.value : { ...entry.value, path };
	}

	/** Keeps the measure of blob `oid`. */
	putMeasure(oid: string, path: string, maxBytes: number, measure: FileMeasure): void {
		this.#put(measureKey(oid, path, maxBytes), { kind: "measure", value: measure });
	}

	/** The cached imports of blob `oid` read as `path`'s language. */
	imports(oid: string, path: string): ImportFacts | undefined {
		const entry = this.#lookup(importsKey(oid, path));
		return entry?.kind === "imports" ? entry.value : undefined;
	}

	/** Keeps the imports of blob `oid`. */
	putImports(oid: string, path: string, imports: ImportFacts): void {
		this.#put(importsKey(oid, path), { kind: "imports", value: imports });
	}

	get stats(): MeasureCacheStats {
		return { hits: this.#hits, misses: this.#misses, entries: this.#entries.size, bytes: this.#entries.calculatedSize };
	}

	clear(): void {
		this.#entries.clear();
		this.#added.clear();
	}

	/** The entries as JSON text, most recently used first, at most `limit` of them (for a cache on disk). */
	export(limit = Number.POSITIVE_INFINITY): [key: string, json: string][] {
		const out: [string, string][] = [];
		for (const [key, slot] of this.#entries.entries()) {
			if (out.length >= limit) break;
			out.push([key, slot.json]);
		}
		return out;
	}

	/** The entries added since the last call, oldest first, as JSON text (what a cache on disk appends). */
	takeAdded(): [key: string, json: string][] {
		const out: [string, string][] = [];
		for (const key of this.#added) {
			const slot = this.#entries.peek(key);
			if (slot !== undefined) out.push([key, slot.json]);
		}
		this.#added.clear();
		return out;
	}

	/**
	 * Adds entries kept earlier as JSON text, oldest first (the newest is then the most recently used), without
	 * replacing any held. Only keys of this version are taken; the text is checked when an entry is first used, and
	 * one of another shape is then a miss, never trusted. Returns how many were taken.
	 */
	restore(entries: Iterable<readonly [key: string, json: string]>): number {
		let restored = 0;
		for (const [key, json] of entries) {
			if (!currentKey(key) || this.#entries.has(key)) continue;
			this.#entries.set(key, { json });
			restored++;
		}
		return restored;
	}

	#put(key: string, entry: Entry): void {
		this.#entries.set(key, { json: JSON.stringify(entry), entry });
		this.#added.add(key);
	}

	#lookup(key: string): Entry | undefined {
		const slot = this.#entries.get(key);
		let entry = slot?.entry;
		if (slot !== undefined && entry === undefined) {
			entry = parsedEntry(key, slot.json);
			if (entry === undefined) this.#entries.delete(key);
			else slot.entry = entry;
		}
		if (entry === undefined) this.#misses++;
		else this.#hits++;
		return entry;
	}
}

/** Whether `key` is a measure or imports key of the current versions. */
function currentKey(key: string): boolean {
	return key.startsWith(`m${MEASURE_VERSION}:`) || key.startsWith(`i${EXTRACTOR_VERSION}:`);
}

function parsedEntry(key: string, json: string): Entry | undefined {
	try {
		const entry: unknown = JSON.parse(json);
		return validEntry(key, entry) ? entry : undefined;
	} catch {
		return undefined;
	}
}

function validEntry(key: string, entry: unknown): entry is MeasureCacheEntry {
	if (typeof entry !== "object" || entry === null) return false;
	const { kind, value } = entry as { kind?: unknown; value?: unknown };
	if (kind === "imports") return key.startsWith(`i${EXTRACTOR_VERSION}:`) && Array.isArray(value);
	if (kind !== "measure" || !key.startsWith(`m${MEASURE_VERSION}:`)) return false;
	const measure = value as Partial<FileMeasure> | null;
	return (
		typeof measure === "object" &&
		measure !== null &&
		measure.version === MEASURE_VERSION &&
		typeof measure.path === "string" &&
		Array.isArray(measure.callables) &&
		Array.isArray(measure.needless)
	);
}

/** A measure depends on the content, the language (from the extension) and the size limit; never on the path. */
function measureKey(oid: string, path: string, maxBytes: number): string {
	return `m${MEASURE_VERSION}:${oid}:${languageOf(path) ?? "none"}:${maxBytes}`;
}

/** Imports depend on the content and the language only (resolution, which needs the path, comes later). */
function importsKey(oid: string, path: string): string {
	return `i${EXTRACTOR_VERSION}:${oid}:${languageOf(path) ?? "none"}`;
}
