/**
 * The on-disk cache of extracted {@link FileFacts} for one project root, plus the root's manifest (path → size,
 * mtime, content hash) that lets a restart skip reading unchanged files.
 *
 * Layout, under `<cacheDir>/<sha256(root) first 16 hex>/` (never inside the analysed root):
 * - `packs/<name>.pack`: immutable segments. Line 1 is a header; every other line is one record,
 *   `JSON.stringify([key, facts])`. One flush writes one segment (temp file + rename), so a cold index of thousands
 *   of files costs a handful of file creations instead of one per file.
 * - `index.json`: key → (segment, offset, length, last use), written atomically. It is a cache of the segments:
 *   segments it does not know (written since the last save, or by another process) are scanned when the cache opens,
 *   and a missing or damaged index is rebuilt from the segments.
 * - `manifest.json`: the root's manifest, written atomically.
 *
 * Bounds (entries and bytes) evict the least recently used entries, then rewrite the segments that held them. A
 * damaged segment, index or manifest is ignored and removed, never fatal: the cost is re-extraction.
 *
 * The formats live beside this class (`records.ts`, `index-file.ts`, `manifest.ts`), as do the segment
 * file reads (`segments.ts`) and the bounds policy (`eviction.ts`); this class holds the state and the order
 * of operations.
 */
import { mkdir, readFile, realpath } from "node:fs/promises";
import { join, resolve } from "node:path";
import { removeQuietly, writeAtomic } from "../atomic-write.ts";
import { defaultCacheDir, isInside, rootCacheDir } from "../cache-location.ts";
import type { FileFacts } from "../model/index.ts";
import { evictionVictims, segmentsToRewrite } from "./eviction.ts";
import { indexFileParts } from "./index-file.ts";
import { type ManifestEntry, manifestParts, parseManifest } from "./manifest.ts";
import { openFactStore } from "./open.ts";
import { parseRecord, recordLine } from "./records.ts";
import { type RecordToWrite, writeSegmentFiles } from "./segment-writer.ts";
import { bySegment, type Entry, packsDir, readRecordLines, readSegmentRecords, type Segment } from "./segments.ts";

export const DEFAULT_CACHE_MAX_ENTRIES = 50_000;
export const DEFAULT_CACHE_MAX_BYTES = 256 * 1024 * 1024;

/** Index saves are skipped while fewer unsaved segment bytes than this exist (they are rescanned on open). */
const INDEX_SAVE_SLACK_BYTES = 1024 * 1024;
const INDEX_SAVE_SLACK_SEGMENTS = 8;

export interface FactCacheOptions {
	/** Default {@link defaultCacheDir}. */
	cacheDir?: string;
	maxEntries?: number;
	maxBytes?: number;
}

export interface FactCacheStats {
	hits: number;
	misses: number;
	/** Records written to segments (new facts, not rewrites by compaction). */
	writes: number;
	segmentsWritten: number;
	bytesWritten: number;
	evictions: number;
	/** Damaged segments, indexes or manifests found (and removed). */
	corrupt: number;
	indexSaves: number;
}

/**
 * The fact cache of one root. Operations are serialized internally; all are safe to call before the cache opens
 * (it opens lazily). Disk failures degrade to misses: the cache is an optimization, never a source of truth.
 */
export class FactCache {
	readonly root: string;
	readonly dir: string;
	readonly maxEntries: number;
	readonly maxBytes: number;
	readonly stats: FactCacheStats = {
		hits: 0,
		misses: 0,
		writes: 0,
		segmentsWritten: 0,
		bytesWritten: 0,
		evictions: 0,
		corrupt: 0,
		indexSaves: 0,
	};
	/** Why the cache does not touch the disk (e.g. it would lie inside the root), or `undefined` when it does. */
	disabled: string | undefined;

	readonly #entries = new Map<string, Entry>();
	readonly #segments = new Map<string, Segment>();
	/**
	 * Facts put and not yet written, as their record lines: serialized when put, so a file's facts object (its
	 * whole facts, calls and content terms included, even when the index keeps only a summary of it) is not held
	 * until the next flush. Held that long, a cold index's facts outlived young collections by the thousand and died
	 * in the old generation (at 100,000 files most of them are summarized as they come in).
	 */
	readonly #pending = new Map<string, string>();
	#opened: Promise<void> | undefined;
	#lock: Promise<unknown> = Promise.resolve();
	#indexDirty = false;
	#unsavedBytes = 0;
	#unsavedSegments = 0;
	#clock = 0;
	/** The files of the root, as last told (`expectFiles`). */
	#files = 0;

	constructor(root: string, options: FactCacheOptions = {}) {
		this.root = resolve(root);
		const cacheDir = resolve(options.cacheDir ?? defaultCacheDir());
		this.dir = rootCacheDir(cacheDir, this.root);
		this.maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_CACHE_MAX_ENTRIES);
		this.maxBytes = Math.max(1, options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES);
		if (isInside(this.root, cacheDir)) this.disabled = "cache directory inside the analysed root";
	}

	/**
	 * Tells the cache how many files its root holds (a walk's count): its bounds grow to hold each file's facts with
	 * room for older versions, so a root larger than the default bounds (50,000 entries) never evicts its own current
	 * facts, and a restart of it parses nothing.
	 */
	expectFiles(files: number): void {
		this.#files = Math.max(0, files);
	}

	/**
	 * The bounds eviction keeps to: `maxEntries` and `maxBytes`, both scaled up when the root's files (`expectFiles`)
	 * with half as many older versions would not fit in `maxEntries`.
	 */
	get bounds(): { maxEntries: number; maxBytes: number } {
		const scale = Math.max(1, (1.5 * this.#files) / this.maxEntries);
		return { maxEntries: Math.ceil(this.maxEntries * scale), maxBytes: Math.ceil(this.maxBytes * scale) };
	}

	/** Live entries (including facts put but not flushed yet). */
	get size(): number {
		let n = this.#entries.size;
		for (const key of this.#pending.keys()) if (!this.#entries.has(key)) n++;
		return n;
	}

	/** Bytes of segment files on disk. */
	get bytes(): number {
		let n = 0;
		for (const s of this.#segments.values()) n += s.bytes;
		return n;
	}

	#packs(): string {
		return packsDir(this.dir);
	}

	#now(): number {
		// Strictly increasing, so entries touched in one run keep their order even within a millisecond.
		this.#clock = Math.max(this.#clock + 1, Date.now());
		return this.#clock;
	}

	#serial<T>(fn: () => Promise<T>): Promise<T> {
		const run = this.#lock.then(async () => {
			await this.#open();
			return fn();
		});
		this.#lock = run.catch(() => {});
		return run;
	}

	#open(): Promise<void> {
		this.#opened ??= this.#load().catch((error: unknown) => {
			this.disabled = `cache unavailable: ${error instanceof Error ? error.message : String(error)}`;
		});
		return this.#opened;
	}

	async #load(): Promise<void> {
		if (this.disabled !== undefined) return;
		// Resolve symlinks too: a cache directory reached through a link into the root is still inside it.
		const realRoot = await realpath(this.root).catch(() => this.root);
		await mkdir(this.#packs(), { recursive: true, mode: 0o700 });
		const realDir = await realpath(this.dir);
		if (isInside(realRoot, realDir)) {
			this.disabled = "cache directory inside the analysed root";
			return;
		}
		const opened = await openFactStore(this.dir, { segments: this.#segments, entries: this.#entries }, this.stats);
		this.#clock = Math.max(this.#clock, opened.clock);
		this.#unsavedSegments += opened.unsavedSegments;
		this.#unsavedBytes += opened.unsavedBytes;
		if (opened.indexDirty) this.#indexDirty = true;
	}

	async #dropSegment(segment: Segment): Promise<void> {
		for (const [key, entry] of this.#entries) if (entry.segment === segment) this.#entries.delete(key);
		this.#segments.delete(segment.name);
		this.#indexDirty = true;
		await removeQuietly(join(this.#packs(), segment.name));
	}

	/** The facts stored under `key`, or `undefined` (a miss). */
	async get(key: string): Promise<FileFacts | undefined> {
		return (await this.getMany([key])).get(key);
	}

	/** Facts for each key found; segments holding many requested records are read whole, once. */
	getMany(keys: readonly string[]): Promise<Map<string, FileFacts>> {
		return this.#serial(async () => {
			const found = new Map<string, FileFacts>();
			const stored: { key: string; entry: Entry }[] = [];
			const now = this.#now();
			for (const key of keys) {
				const pending = this.#pendingFacts(key);
				if (pending !== undefined) {
					found.set(key, pending);
					continue;
				}
				const entry = this.#entries.get(key);
				if (entry !== undefined) stored.push({ key, entry });
			}
			for (const [segment, wanted] of bySegment(stored)) {
				const records = await readSegmentRecords(join(this.#packs(), segment.name), segment, wanted);
				if (records === undefined) {
					this.stats.corrupt++;
					await this.#dropSegment(segment);
					continue;
				}
				for (const [key, facts] of records) {
					found.set(key, facts);
					const entry = this.#entries.get(key);
					if (entry !== undefined) entry.lastUsed = now;
				}
			}
			for (const key of keys) {
				if (found.has(key)) this.stats.hits++;
				else this.stats.misses++;
			}
			return found;
		});
	}

	/** Stores facts under `key`; written by the next {@link flush}. A key already stored is only touched. */
	put(key: string, facts: FileFacts): void {
		const entry = this.#entries.get(key);
		if (entry !== undefined) {
			entry.lastUsed = this.#now();
			return;
		}
		this.#pending.set(key, recordLine(key, facts));
	}

	/**
	 * The facts put under `key` and not yet written, without any disk work: how a refresh notices, just before it
	 * parses, facts that another parse of the same bytes offered meanwhile (see `CodeIndex.offer`).
	 */
	pending(key: string): FileFacts | undefined {
		return this.#pendingFacts(key);
	}

	/** The facts of `key`'s pending record line, decoded anew. */
	#pendingFacts(key: string): FileFacts | undefined {
		const line = this.#pending.get(key);
		return line === undefined ? undefined : parseRecord(line)?.[1];
	}

	/** Facts put but not yet written. */
	get pendingCount(): number {
		return this.#pending.size;
	}

	/**
	 * Writes pending facts as new segments, enforces the bounds and saves the index when due (`force`: always).
	 * Failures are swallowed: pending facts are dropped and the cache stays consistent.
	 */
	flush(options: { force?: boolean } = {}): Promise<void> {
		return this.#serial(async () => {
			if (this.disabled !== undefined) {
				this.#pending.clear();
				return;
			}
			try {
				await this.#writePending();
				await this.#enforceBounds();
				const due =
					this.#indexDirty &&
					(options.force === true ||
						this.#unsavedBytes >= INDEX_SAVE_SLACK_BYTES ||
						this.#unsavedSegments >= INDEX_SAVE_SLACK_SEGMENTS);
				if (due) await this.#saveIndex();
			} catch {
				this.#pending.clear();
			}
		});
	}

	async #writePending(): Promise<void> {
		if (this.#pending.size === 0) return;
		const records: RecordToWrite[] = [];
		for (const [key, line] of this.#pending) {
			if (!this.#entries.has(key)) records.push([key, () => line]);
		}
		this.#pending.clear();
		const written = await this.#writeSegments(records);
		const now = this.#now();
		for (const [key, place] of written) this.#entries.set(key, entryAt(place, now));
		this.stats.writes += written.size;
		this.#unsavedBytes += [...written.values()].reduce((n, p) => n + p.length, 0);
	}

	/** Writes records (key, JSON line when asked) into as few new segments as the size target allows. */
	async #writeSegments(records: readonly RecordToWrite[]): Promise<Map<string, Omit<Entry, "lastUsed">>> {
		const placed = new Map<string, Omit<Entry, "lastUsed">>();
		for await (const written of writeSegmentFiles(this.#packs(), records)) {
			const segment: Segment = { name: written.name, bytes: written.bytes, records: written.placed.length };
			this.#segments.set(segment.name, segment);
			for (const [key, offset, length] of written.placed) placed.set(key, { segment, offset, length });
			this.stats.segmentsWritten++;
			this.stats.bytesWritten += written.bytes;
			this.#unsavedSegments++;
			this.#indexDirty = true;
		}
		return placed;
	}

	async #enforceBounds(): Promise<void> {
		const victims = evictionVictims(this.#entries, this.bytes, this.bounds);
		if (victims !== undefined) {
			for (const key of victims) this.#entries.delete(key);
			this.stats.evictions += victims.length;
			this.#indexDirty = true;
		}
		const rewrite = segmentsToRewrite(this.#entries, this.#segments);
		if (rewrite.size > 0) await this.#compact(rewrite);
	}

	/** Moves the live records of `segments` into new segments, saves the index, then removes the old files. */
	async #compact(segments: ReadonlySet<Segment>): Promise<void> {
		const records: RecordToWrite[] = [];
		const lastUsed = new Map<string, number>();
		const moving: { key: string; entry: Entry }[] = [];
		for (const [key, entry] of this.#entries) if (segments.has(entry.segment)) moving.push({ key, entry });
		for (const [segment, list] of bySegment(moving)) {
			const lines = await readRecordLines(join(this.#packs(), segment.name), segment, list);
			for (const { key, entry } of list) {
				const line = lines.get(key);
				if (line === undefined) {
					this.#entries.delete(key); // damaged or gone: a future miss
					continue;
				}
				records.push([key, () => line]);
				lastUsed.set(key, entry.lastUsed);
			}
		}
		const written = await this.#writeSegments(records);
		for (const [key, place] of written) {
			this.#entries.set(key, entryAt(place, lastUsed.get(key) ?? this.#now()));
		}
		for (const segment of segments) this.#segments.delete(segment.name);
		this.#indexDirty = true;
		await this.#saveIndex();
		for (const segment of segments) await removeQuietly(join(this.#packs(), segment.name));
	}

	async #saveIndex(): Promise<void> {
		await writeAtomic(join(this.dir, "index.json"), indexFileParts(this.#segments.values(), this.#entries));
		this.#indexDirty = false;
		this.#unsavedBytes = 0;
		this.#unsavedSegments = 0;
		this.stats.indexSaves++;
	}

	/** The persisted manifest of the root, or `undefined` when absent, from another extractor, or damaged. */
	loadManifest(): Promise<Map<string, ManifestEntry> | undefined> {
		return this.#serial(async () => {
			if (this.disabled !== undefined) return undefined;
			const path = join(this.dir, "manifest.json");
			let text: string;
			try {
				text = await readFile(path, "utf8");
			} catch {
				return undefined;
			}
			const files = parseManifest(text, this.root);
			if (files === undefined) {
				this.stats.corrupt++;
				await removeQuietly(path);
			}
			return files === null ? undefined : files;
		});
	}

	/**
	 * Replaces the persisted manifest atomically with `files`, read as it is written (a map, or entries made on the
	 * way from the index's own state): it must not change until the returned promise settles.
	 */
	saveManifest(files: Iterable<[string, ManifestEntry]>): Promise<void> {
		return this.#serial(async () => {
			if (this.disabled !== undefined) return;
			await writeAtomic(join(this.dir, "manifest.json"), manifestParts(this.root, files)).catch(() => {});
		});
	}
}

/**
 * An entry as one literal of one shape: a spread of the place with `lastUsed` added keeps that last property in an
 * array of its own beside the object (~40 bytes an entry, 100,000 entries after a cold index of as many files).
 */
function entryAt(place: Omit<Entry, "lastUsed">, lastUsed: number): Entry {
	return { segment: place.segment, offset: place.offset, length: place.length, lastUsed };
}
