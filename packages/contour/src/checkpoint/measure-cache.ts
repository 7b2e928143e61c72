/**
 * What a review computed from file content, kept by content identity: the Git blob id of the bytes (the same in a
 * commit, the index or the worktree) and the language the path's extension selects. Staging bytes that were already
 * reviewed in the worktree, or reviewing the same commit again, reuses the measure and the imports instead of
 * reading and parsing them again.
 *
 * Bounded by an estimate of the bytes held (JSON size of the entries), least recently used dropped first.
 */
import { LRUCache } from "lru-cache";
import { EXTRACTOR_VERSION, type FileFacts, languageOf } from "pi-fovea/engine";
import { type FileMeasure, MEASURE_VERSION } from "../review/index.ts";

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

/** Measures and imports by (blob id, language, settings). */
export class MeasureCache {
	readonly #entries: LRUCache<string, Entry>;
	#hits = 0;
	#misses = 0;

	constructor(maxBytes = DEFAULT_MEASURE_CACHE_BYTES) {
		this.#entries = new LRUCache<string, Entry>({
			maxSize: Math.max(1024, Math.floor(maxBytes)),
			sizeCalculation: (entry) => Math.max(1, JSON.stringify(entry.value).length),
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
		this.#entries.set(measureKey(oid, path, maxBytes), { kind: "measure", value: measure });
	}

	/** The cached imports of blob `oid` read as `path`'s language. */
	imports(oid: string, path: string): ImportFacts | undefined {
		const entry = this.#lookup(importsKey(oid, path));
		return entry?.kind === "imports" ? entry.value : undefined;
	}

	/** Keeps the imports of blob `oid`. */
	putImports(oid: string, path: string, imports: ImportFacts): void {
		this.#entries.set(importsKey(oid, path), { kind: "imports", value: imports });
	}

	get stats(): MeasureCacheStats {
		return { hits: this.#hits, misses: this.#misses, entries: this.#entries.size, bytes: this.#entries.calculatedSize };
	}

	clear(): void {
		this.#entries.clear();
	}

	/** The entries, most recently used first, at most `limit` of them (for a cache on disk). */
	export(limit = Number.POSITIVE_INFINITY): [string, MeasureCacheEntry][] {
		const out: [string, MeasureCacheEntry][] = [];
		for (const [key, entry] of this.#entries.entries()) {
			if (out.length >= limit) break;
			out.push([key, entry]);
		}
		return out;
	}

	/**
	 * Adds entries exported earlier, most recently used first (as `export` gives them), without replacing newer
	 * ones. Entries of another shape or version are skipped: a cache on disk is input, not trusted state.
	 */
	restore(entries: readonly (readonly [string, unknown])[]): number {
		let restored = 0;
		for (let i = entries.length - 1; i >= 0; i--) {
			const [key, entry] = entries[i] as readonly [string, unknown];
			if (typeof key !== "string" || this.#entries.has(key) || !validEntry(key, entry)) continue;
			this.#entries.set(key, entry);
			restored++;
		}
		return restored;
	}

	#lookup(key: string): Entry | undefined {
		const entry = this.#entries.get(key);
		if (entry === undefined) this.#misses++;
		else this.#hits++;
		return entry;
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
