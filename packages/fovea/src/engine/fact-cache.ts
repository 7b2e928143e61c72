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
 */
import { createHash } from "node:crypto";
import { mkdir, open, readdir, readFile, realpath, rename, stat, unlink, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { compactFacts } from "./compact-facts.ts";
import { type CoverageGap, EXTRACTOR_VERSION, type FileFacts, type LanguageId } from "./facts.ts";

export const DEFAULT_CACHE_MAX_ENTRIES = 50_000;
export const DEFAULT_CACHE_MAX_BYTES = 256 * 1024 * 1024;

const FORMAT_VERSION = 1;
const SEGMENT_HEADER = `${JSON.stringify({ fovea: "facts", v: FORMAT_VERSION, extractor: EXTRACTOR_VERSION })}\n`;
/** A flush larger than this is split into several segments, so compaction never holds a huge buffer. */
const SEGMENT_TARGET_BYTES = 16 * 1024 * 1024;
/** Beyond this many segments, the small ones are merged. */
const MAX_SEGMENTS = 48;
/** Index saves are skipped while fewer unsaved segment bytes than this exist (they are rescanned on open). */
const INDEX_SAVE_SLACK_BYTES = 1024 * 1024;
const INDEX_SAVE_SLACK_SEGMENTS = 8;
/** Temp files older than this are leftovers of a crashed writer. */
const STALE_TEMP_MS = 10 * 60 * 1000;

/**
 * The cache key of one file's facts: its content hash (`FileFacts.hash`: sha256 of the extractor version and the
 * content) qualified by language and path. Facts carry their path (and
 * some languages derive `package` from it), so two files with equal bytes have different facts; content-addressing
 * still holds per path: restoring earlier bytes at a path, or reverting a branch, hits.
 */
export function factKey(hash: string, path: string, language: LanguageId): string {
	return createHash("sha256").update(`${hash}\0${language}\0${path}`).digest("hex");
}

/** `$FOVEA_CACHE_DIR`, else `$XDG_CACHE_HOME/pi-fovea`, else `~/.cache/pi-fovea`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
	const explicit = env.FOVEA_CACHE_DIR;
	if (explicit !== undefined && explicit !== "" && isAbsolute(explicit)) return explicit;
	const xdg = env.XDG_CACHE_HOME;
	if (xdg !== undefined && xdg !== "" && isAbsolute(xdg)) return join(xdg, "pi-fovea");
	return join(homedir(), ".cache", "pi-fovea");
}

/** The directory holding `root`'s cache inside `cacheDir`. */
export function rootCacheDir(cacheDir: string, root: string): string {
	return join(cacheDir, createHash("sha256").update(root).digest("hex").slice(0, 16));
}

function isInside(parent: string, child: string): boolean {
	const rel = relative(parent, child);
	return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** One file as last seen by the indexer: facts by `hash`, or a content gap (binary, generated, …). */
export interface ManifestEntry {
	size: number;
	mtimeMs: number;
	hash?: string;
	gap?: CoverageGap["reason"];
	/** Modified so close to when it was checked that (size, mtime) cannot vouch for it: re-read next time. */
	racy?: boolean;
}

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

interface Segment {
	name: string;
	bytes: number;
	/** Records physically in the file; more than its live entries once some were evicted or superseded. */
	records: number;
}

interface Entry {
	segment: Segment;
	offset: number;
	length: number;
	lastUsed: number;
}

type IndexFile = {
	v: number;
	extractor: number;
	segments: [name: string, bytes: number, records: number][];
	entries: [key: string, segment: number, offset: number, length: number, lastUsed: number][];
};

function isFactsShape(value: unknown): value is FileFacts {
	if (typeof value !== "object" || value === null) return false;
	const f = value as Record<string, unknown>;
	return (
		typeof f.path === "string" &&
		typeof f.language === "string" &&
		typeof f.hash === "string" &&
		Array.isArray(f.symbols) &&
		Array.isArray(f.imports) &&
		Array.isArray(f.calls) &&
		Array.isArray(f.inherits)
	);
}

/** Parses one record line; `undefined` when damaged. */
function parseRecord(line: string): [string, FileFacts] | undefined {
	try {
		const value: unknown = JSON.parse(line);
		if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== "string") return undefined;
		const facts: unknown = value[1];
		return isFactsShape(facts) ? [value[0], compactFacts(facts)] : undefined;
	} catch {
		return undefined;
	}
}

let tempCounter = 0;
function uniqueSuffix(): string {
	tempCounter = (tempCounter + 1) % 1e9;
	return `${process.pid.toString(36)}-${Date.now().toString(36)}-${tempCounter.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Writes `data` to `path` atomically: a sibling temp file, then rename. */
async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
	const temp = join(dirname(path), `.tmp-${uniqueSuffix()}`);
	try {
		await writeFile(temp, data, { mode: 0o600 });
		await rename(temp, path);
	} catch (error) {
		await unlink(temp).catch(() => {});
		throw error;
	}
}

async function removeQuietly(path: string): Promise<void> {
	await unlink(path).catch(() => {});
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
	readonly #pending = new Map<string, FileFacts>();
	#opened: Promise<void> | undefined;
	#lock: Promise<unknown> = Promise.resolve();
	#indexDirty = false;
	#unsavedBytes = 0;
	#unsavedSegments = 0;
	#clock = 0;

	constructor(root: string, options: FactCacheOptions = {}) {
		this.root = resolve(root);
		const cacheDir = resolve(options.cacheDir ?? defaultCacheDir());
		this.dir = rootCacheDir(cacheDir, this.root);
		this.maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_CACHE_MAX_ENTRIES);
		this.maxBytes = Math.max(1, options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES);
		if (isInside(this.root, cacheDir)) this.disabled = "cache directory inside the analysed root";
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
		return join(this.dir, "packs");
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
		const index = await this.#readIndex();
		const onDisk = new Map<string, number>();
		const now = Date.now();
		for (const entry of await readdir(this.#packs(), { withFileTypes: true })) {
			if (!entry.isFile()) continue;
			const path = join(this.#packs(), entry.name);
			if (entry.name.startsWith(".tmp-")) {
				const info = await stat(path).catch(() => undefined);
				if (info !== undefined && now - info.mtimeMs > STALE_TEMP_MS) await removeQuietly(path);
				continue;
			}
			if (!entry.name.endsWith(".pack")) continue;
			const info = await stat(path).catch(() => undefined);
			if (info !== undefined) onDisk.set(entry.name, info.size);
		}
		const known = new Set<string>();
		if (index !== undefined) {
			const table: (Segment | undefined)[] = index.segments.map(([name, bytes, records]) => {
				if (onDisk.get(name) !== bytes) return undefined; // gone or damaged: rescanned below if present
				known.add(name);
				const segment: Segment = { name, bytes, records };
				this.#segments.set(name, segment);
				return segment;
			});
			for (const [key, seg, offset, length, lastUsed] of index.entries) {
				const segment = table[seg];
				if (segment === undefined || this.#entries.has(key)) continue;
				this.#entries.set(key, { segment, offset, length, lastUsed });
				this.#clock = Math.max(this.#clock, lastUsed);
			}
		}
		for (const [name, bytes] of onDisk) {
			if (known.has(name)) continue;
			await this.#scanSegment(name, bytes);
			// Rescanned on every open until the index is saved: count it toward the save that is due.
			this.#unsavedSegments++;
			this.#unsavedBytes += bytes;
			this.#indexDirty = true;
		}
		if (index === undefined && this.#segments.size > 0) this.#indexDirty = true;
	}

	async #readIndex(): Promise<IndexFile | undefined> {
		const path = join(this.dir, "index.json");
		let text: string;
		try {
			text = await readFile(path, "utf8");
		} catch {
			return undefined;
		}
		try {
			const value = JSON.parse(text) as IndexFile;
			if (value.v !== FORMAT_VERSION || value.extractor !== EXTRACTOR_VERSION) {
				await removeQuietly(path); // another format or extractor: stale, not damaged
				return undefined;
			}
			if (
				Array.isArray(value.segments) &&
				Array.isArray(value.entries) &&
				value.segments.every(
					(s) => Array.isArray(s) && typeof s[0] === "string" && typeof s[1] === "number" && typeof s[2] === "number",
				) &&
				value.entries.every(
					(e) =>
						Array.isArray(e) &&
						e.length === 5 &&
						typeof e[0] === "string" &&
						typeof e[1] === "number" &&
						typeof e[2] === "number" &&
						typeof e[3] === "number" &&
						typeof e[4] === "number",
				)
			) {
				return value;
			}
		} catch {
			// fall through: damaged
		}
		this.stats.corrupt++;
		await removeQuietly(path);
		return undefined;
	}

	/** Adds the records of a segment the index does not know; a damaged one is removed. */
	async #scanSegment(name: string, bytes: number): Promise<void> {
		const path = join(this.#packs(), name);
		let data: Buffer;
		try {
			data = await readFile(path);
		} catch {
			return;
		}
		const headerEnd = data.indexOf(10);
		if (headerEnd < 0 || data.subarray(0, headerEnd + 1).toString("utf8") !== SEGMENT_HEADER) {
			// Another format or extractor version, or damaged: nothing in it is usable.
			if (headerEnd < 0 || !data.subarray(0, headerEnd).toString("utf8").includes('"fovea":"facts"')) {
				this.stats.corrupt++;
			}
			await removeQuietly(path);
			return;
		}
		const info = await stat(path).catch(() => undefined);
		const lastUsed = info?.mtimeMs ?? Date.now();
		const segment: Segment = { name, bytes, records: 0 };
		let offset = headerEnd + 1;
		let damaged = false;
		while (offset < data.length) {
			let end = data.indexOf(10, offset);
			if (end < 0) end = data.length;
			const record = parseRecord(data.subarray(offset, end).toString("utf8"));
			segment.records++;
			if (record === undefined) damaged = true;
			else if (!this.#entries.has(record[0])) {
				this.#entries.set(record[0], { segment, offset, length: end - offset, lastUsed });
			}
			offset = end + 1;
		}
		this.#segments.set(name, segment);
		if (damaged) {
			// Keep nothing from a damaged file: drop what it gave and remove it.
			this.stats.corrupt++;
			await this.#dropSegment(segment);
		}
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
			const bySegment = new Map<Segment, { key: string; entry: Entry }[]>();
			const now = this.#now();
			for (const key of keys) {
				const pending = this.#pending.get(key);
				if (pending !== undefined) {
					found.set(key, pending);
					continue;
				}
				const entry = this.#entries.get(key);
				if (entry === undefined) continue;
				let list = bySegment.get(entry.segment);
				if (list === undefined) {
					list = [];
					bySegment.set(entry.segment, list);
				}
				list.push({ key, entry });
			}
			for (const [segment, wanted] of bySegment) {
				const records = await this.#readRecords(segment, wanted);
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

	/** Reads the wanted records of one segment; `undefined` when the segment is gone or damaged. */
	async #readRecords(
		segment: Segment,
		wanted: readonly { key: string; entry: Entry }[],
	): Promise<Map<string, FileFacts> | undefined> {
		const path = join(this.#packs(), segment.name);
		const out = new Map<string, FileFacts>();
		let wantedBytes = 0;
		for (const w of wanted) wantedBytes += w.entry.length;
		try {
			if (wantedBytes * 4 >= segment.bytes) {
				const data = await readFile(path);
				if (data.length !== segment.bytes) return undefined;
				for (const { key, entry } of wanted) {
					const record = parseRecord(data.subarray(entry.offset, entry.offset + entry.length).toString("utf8"));
					if (record === undefined || record[0] !== key) return undefined;
					out.set(key, record[1]);
				}
				return out;
			}
			const handle = await open(path, "r");
			try {
				if ((await handle.stat()).size !== segment.bytes) return undefined;
				for (const { key, entry } of wanted) {
					const buffer = Buffer.allocUnsafe(entry.length);
					const { bytesRead } = await handle.read(buffer, 0, entry.length, entry.offset);
					const record = bytesRead === entry.length ? parseRecord(buffer.toString("utf8")) : undefined;
					if (record === undefined || record[0] !== key) return undefined;
					out.set(key, record[1]);
				}
			} finally {
				await handle.close();
			}
			return out;
		} catch {
			return undefined;
		}
	}

	/** Stores facts under `key`; written by the next {@link flush}. A key already stored is only touched. */
	put(key: string, facts: FileFacts): void {
		const entry = this.#entries.get(key);
		if (entry !== undefined) {
			entry.lastUsed = this.#now();
			return;
		}
		this.#pending.set(key, facts);
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
		const records: [string, string][] = [];
		for (const [key, facts] of this.#pending) {
			if (!this.#entries.has(key)) records.push([key, JSON.stringify([key, facts])]);
		}
		this.#pending.clear();
		const written = await this.#writeSegments(records);
		const now = this.#now();
		for (const [key, place] of written) this.#entries.set(key, { ...place, lastUsed: now });
		this.stats.writes += written.size;
		this.#unsavedBytes += [...written.values()].reduce((n, p) => n + p.length, 0);
	}

	/** Writes records (key, JSON line) into as few new segments as the size target allows. */
	async #writeSegments(records: readonly [string, string][]): Promise<Map<string, Omit<Entry, "lastUsed">>> {
		const placed = new Map<string, Omit<Entry, "lastUsed">>();
		let i = 0;
		while (i < records.length) {
			const parts: string[] = [SEGMENT_HEADER];
			const segment: Segment = { name: `${uniqueSuffix()}.pack`, bytes: 0, records: 0 };
			let offset = Buffer.byteLength(SEGMENT_HEADER);
			const here: [string, number, number][] = [];
			while (i < records.length && (here.length === 0 || offset < SEGMENT_TARGET_BYTES)) {
				const [key, line] = records[i++] as [string, string];
				const length = Buffer.byteLength(line);
				here.push([key, offset, length]);
				parts.push(line, "\n");
				offset += length + 1;
			}
			await writeAtomic(join(this.#packs(), segment.name), parts.join(""));
			segment.bytes = offset;
			segment.records = here.length;
			this.#segments.set(segment.name, segment);
			for (const [key, off, length] of here) placed.set(key, { segment, offset: off, length });
			this.stats.segmentsWritten++;
			this.stats.bytesWritten += offset;
			this.#unsavedSegments++;
			this.#indexDirty = true;
		}
		return placed;
	}

	async #enforceBounds(): Promise<void> {
		let liveBytes = 0;
		for (const e of this.#entries.values()) liveBytes += e.length + 1;
		const overEntries = this.#entries.size > this.maxEntries;
		const overBytes = this.bytes > this.maxBytes;
		if (overEntries || overBytes) {
			// Evict to 90% so the next few flushes do not compact again at once.
			const entryTarget = Math.floor(this.maxEntries * 0.9);
			const byteTarget = Math.floor(this.maxBytes * 0.9);
			const byAge = [...this.#entries].sort((a, b) => a[1].lastUsed - b[1].lastUsed);
			for (const [key, entry] of byAge) {
				if (this.#entries.size <= entryTarget && liveBytes <= byteTarget) break;
				this.#entries.delete(key);
				liveBytes -= entry.length + 1;
				this.stats.evictions++;
			}
			this.#indexDirty = true;
		}
		// Rewrite segments that lost records, and merge small segments when there are too many.
		const live = new Map<Segment, number>();
		for (const e of this.#entries.values()) live.set(e.segment, (live.get(e.segment) ?? 0) + 1);
		const rewrite = new Set<Segment>();
		for (const segment of this.#segments.values()) {
			if ((live.get(segment) ?? 0) < segment.records) rewrite.add(segment);
		}
		if (this.#segments.size - rewrite.size > MAX_SEGMENTS) {
			const small = [...this.#segments.values()]
				.filter((s) => !rewrite.has(s))
				.sort((a, b) => a.bytes - b.bytes)
				.slice(0, this.#segments.size - rewrite.size - MAX_SEGMENTS / 2);
			for (const s of small) rewrite.add(s);
		}
		if (rewrite.size > 0) await this.#compact(rewrite);
	}

	/** Moves the live records of `segments` into new segments, saves the index, then removes the old files. */
	async #compact(segments: ReadonlySet<Segment>): Promise<void> {
		const records: [string, string][] = [];
		const lastUsed = new Map<string, number>();
		const bySegment = new Map<Segment, [string, Entry][]>();
		for (const [key, entry] of this.#entries) {
			if (!segments.has(entry.segment)) continue;
			let list = bySegment.get(entry.segment);
			if (list === undefined) {
				list = [];
				bySegment.set(entry.segment, list);
			}
			list.push([key, entry]);
		}
		for (const [segment, list] of bySegment) {
			let data: Buffer;
			try {
				data = await readFile(join(this.#packs(), segment.name));
			} catch {
				data = Buffer.alloc(0);
			}
			for (const [key, entry] of list) {
				const line = data.subarray(entry.offset, entry.offset + entry.length).toString("utf8");
				const record = data.length === segment.bytes ? parseRecord(line) : undefined;
				if (record === undefined || record[0] !== key) {
					this.#entries.delete(key); // damaged or gone: a future miss
					continue;
				}
				records.push([key, line]);
				lastUsed.set(key, entry.lastUsed);
			}
		}
		const written = await this.#writeSegments(records);
		for (const [key, place] of written) {
			this.#entries.set(key, { ...place, lastUsed: lastUsed.get(key) ?? this.#now() });
		}
		for (const segment of segments) this.#segments.delete(segment.name);
		this.#indexDirty = true;
		await this.#saveIndex();
		for (const segment of segments) await removeQuietly(join(this.#packs(), segment.name));
	}

	async #saveIndex(): Promise<void> {
		const names: Segment[] = [...this.#segments.values()];
		const slot = new Map<Segment, number>(names.map((s, i) => [s, i]));
		const index: IndexFile = {
			v: FORMAT_VERSION,
			extractor: EXTRACTOR_VERSION,
			segments: names.map((s) => [s.name, s.bytes, s.records]),
			entries: [],
		};
		for (const [key, e] of this.#entries) {
			const seg = slot.get(e.segment);
			if (seg !== undefined) index.entries.push([key, seg, e.offset, e.length, e.lastUsed]);
		}
		await writeAtomic(join(this.dir, "index.json"), JSON.stringify(index));
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

	/** Replaces the persisted manifest atomically. */
	saveManifest(files: ReadonlyMap<string, ManifestEntry>): Promise<void> {
		return this.#serial(async () => {
			if (this.disabled !== undefined) return;
			const rows: ManifestRow[] = [];
			for (const [path, e] of files) {
				rows.push([path, e.size, e.mtimeMs, e.hash ?? null, e.gap ?? null, e.racy === true ? 1 : 0]);
			}
			const body: ManifestFile = { v: FORMAT_VERSION, extractor: EXTRACTOR_VERSION, root: this.root, files: rows };
			await writeAtomic(join(this.dir, "manifest.json"), JSON.stringify(body)).catch(() => {});
		});
	}
}

type ManifestRow = [
	path: string,
	size: number,
	mtimeMs: number,
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

const GAP_REASONS = new Set<string>([
	"unsupported-language",
	"generated",
	"minified",
	"too-large",
	"binary",
	"unreadable",
	"parse-error",
]);

/** The manifest's entries; `null` when valid but not applicable (another extractor or root); `undefined` when damaged. */
function parseManifest(text: string, root: string): Map<string, ManifestEntry> | undefined | null {
	let value: ManifestFile;
	try {
		value = JSON.parse(text) as ManifestFile;
	} catch {
		return undefined;
	}
	if (typeof value !== "object" || value === null || !Array.isArray(value.files)) return undefined;
	if (value.v !== FORMAT_VERSION || value.extractor !== EXTRACTOR_VERSION || value.root !== root) return null;
	const files = new Map<string, ManifestEntry>();
	for (const row of value.files) {
		if (!Array.isArray(row) || row.length !== 6) return undefined;
		const [path, size, mtimeMs, hash, gap, racy] = row;
		if (typeof path !== "string" || typeof size !== "number" || typeof mtimeMs !== "number") return undefined;
		if (hash !== null && typeof hash !== "string") return undefined;
		if (gap !== null && !GAP_REASONS.has(gap)) return undefined;
		if (hash === null && gap === null) return undefined;
		const entry: ManifestEntry = { size, mtimeMs };
		if (hash !== null) entry.hash = hash;
		if (gap !== null) entry.gap = gap;
		if (racy === 1) entry.racy = true;
		files.set(path, entry);
	}
	return files;
}
