/**
 * The facts of one project root, kept current incrementally.
 *
 * A refresh walks the root (metadata only), compares each file's (size, mtime) with what the previous refresh — or,
 * after a restart, the persisted manifest — recorded, and reads only files that differ. A read file's content hash
 * is looked up in the fact cache before anything is parsed, so touching a file, reverting it, or restarting costs
 * reads or nothing, not parses. `refresh({ paths })` checks just the named paths: the fast path after an edit.
 *
 * Safety: the walk follows no symlink and files are opened with `O_NOFOLLOW`; nothing is written inside the root
 * (the cache lives in the user's cache directory); no code from the root is run — only its bytes are parsed.
 */
import { constants, type Stats } from "node:fs";
import { open } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { factKey } from "./cache-location.ts";
import { FactCache } from "./fact-cache.ts";
import type { ManifestEntry } from "./fact-manifest.ts";
import type { CoverageGap, FileFacts, LanguageId } from "./facts.ts";
import { type Extractor, hashOf, loadExtractor } from "./parser.ts";
import {
	DEFAULT_MAX_FILE_BYTES,
	DEFAULT_MAX_FILES,
	type ScannedFile,
	type ScanResult,
	scanPaths,
	scanRoot,
} from "./scan.ts";

export type { Extractor } from "./parser.ts";

export interface CodeIndexOptions {
	/** The extractor, or a loader called once, when the first file needs parsing. Default: the tree-sitter engine. */
	extractor?: Extractor | (() => Promise<Extractor>);
	/** The fact cache; `false` keeps facts in memory only. Default: a {@link FactCache} in the user cache dir. */
	cache?: FactCache | false;
	maxFiles?: number;
	maxFileBytes?: number;
	/**
	 * A file modified less than this long before it was read could change again within the file system's timestamp
	 * granularity without its (size, mtime) changing; it is re-read (not re-parsed) on the next refresh. Default 2 s.
	 */
	racyWindowMs?: number;
}

export interface RefreshOptions {
	/** Check only these paths (root-relative or absolute inside the root) instead of walking the whole root. */
	paths?: readonly string[];
	signal?: AbortSignal;
	/** Called as files that needed work are finished: `done` of `total`. */
	onProgress?: (done: number, total: number) => void;
}

export interface IndexSnapshot {
	root: string;
	files: ReadonlyMap<string, FileFacts>;
	/** Files seen but not mapped, sorted by path. */
	gaps: CoverageGap[];
	truncated: boolean;
	/** Bumps only when some file's facts changed. */
	generation: number;
	/** Paths whose facts changed in the refresh that produced this snapshot, including removed ones; sorted. */
	changed: string[];
	/**
	 * Paths whose facts changed from the previous generation to this one: `changed` of the refresh that made this
	 * generation, kept while later refreshes change nothing, so a graph one generation behind can catch up.
	 */
	generationChanged: string[];
}

/** Work counters: exact, so tests can assert them. */
export interface CodeIndexStats {
	/** Full tree walks. */
	scans: number;
	/** File metadata lookups (walk and path checks). */
	filesStatted: number;
	/** Files whose content was read. */
	filesRead: number;
	/** Files handed to the extractor. */
	filesParsed: number;
	/** Facts found in the fact cache instead of being parsed. */
	cacheHits: number;
	/** New facts stored in the fact cache. */
	cacheWrites: number;
}

/** The last known state of one file whose content was examined. */
interface FileState {
	size: number;
	mtimeMs: number;
	racy: boolean;
	language: LanguageId;
	/** Content hash, for files that have facts. */
	hash?: string;
	/** Absent only for a state just loaded from the manifest, before its facts are fetched. */
	facts?: FileFacts;
	/** A gap found by looking at the content (binary, generated, minified, unreadable, parse-error). */
	gap?: CoverageGap["reason"];
}

/** One file to extract: the `extractMany` boundary a worker pool can take over. */
export interface ExtractJob {
	path: string;
	language: LanguageId;
	source: string;
}

/**
 * Extracts each job in order; a job whose extraction throws gives its error instead of facts. When `signal` aborts,
 * it stops early and returns the results so far (shorter than `jobs`), so finished work can still be cached.
 */
export async function extractMany(
	extractor: Extractor,
	jobs: readonly ExtractJob[],
	options: { signal?: AbortSignal; onEach?: () => void } = {},
): Promise<(FileFacts | Error)[]> {
	const out: (FileFacts | Error)[] = [];
	let slice = performance.now();
	for (const job of jobs) {
		if (options.signal?.aborted === true) break;
		try {
			out.push(extractor.extract(job.path, job.source, job.language));
		} catch (error) {
			out.push(error instanceof Error ? error : new Error(String(error)));
		}
		options.onEach?.();
		// Parsing runs on the main thread: give the event loop a turn every few milliseconds.
		if (performance.now() - slice > 12) {
			await new Promise<void>((done) => setImmediate(done));
			slice = performance.now();
		}
	}
	return out;
}

const BINARY_SNIFF_BYTES = 8192;
const MINIFIED_MIN_BYTES = 2048;
const MINIFIED_AVG_LINE = 500;
const GENERATED_HEAD_BYTES = 4096;
const GENERATED_HEAD_LINES = 15;
const GENERATED_MARKERS = [/@generated\b/, /DO NOT EDIT/, /\bauto-?generated\b/i];

/** Why file content is not parsed (binary, minified, generated), or `undefined` when it is source to parse. */
export function contentGap(bytes: Uint8Array): "binary" | "minified" | "generated" | undefined {
	const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return "binary";
	if (buffer.length > MINIFIED_MIN_BYTES) {
		let lines = 1;
		for (let i = buffer.indexOf(10); i >= 0; i = buffer.indexOf(10, i + 1)) lines++;
		if (buffer.length / lines > MINIFIED_AVG_LINE) return "minified";
	}
	const head = buffer.subarray(0, GENERATED_HEAD_BYTES).toString("latin1").split("\n", GENERATED_HEAD_LINES).join("\n");
	if (GENERATED_MARKERS.some((marker) => marker.test(head))) return "generated";
	return undefined;
}

/** What reading one file gave. */
type ReadOutcome =
	| { kind: "absent" }
	| { kind: "gap"; reason: CoverageGap["reason"]; size: number; mtimeMs: number; readAt: number }
	| { kind: "content"; bytes: Buffer; size: number; mtimeMs: number; readAt: number };

/** Never follow a final symlink; never block on a FIFO swapped in after the walk (then `fstat` says: not a file). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Reads a regular file, bounded by `maxBytes`. Size and mtime are taken before reading, so a write that races the
 * read shows up as a difference on the next refresh.
 */
async function readBounded(path: string, maxBytes: number): Promise<ReadOutcome> {
	let handle: Awaited<ReturnType<typeof open>>;
	try {
		handle = await open(path, OPEN_FLAGS);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP") return { kind: "absent" };
		return { kind: "gap", reason: "unreadable", size: 0, mtimeMs: 0, readAt: 0 };
	}
	try {
		const info: Stats = await handle.stat();
		const readAt = Date.now();
		if (!info.isFile()) return { kind: "absent" };
		if (info.size > maxBytes) {
			return { kind: "gap", reason: "too-large", size: info.size, mtimeMs: info.mtimeMs, readAt };
		}
		let buffer = Buffer.allocUnsafe(Math.min(info.size, maxBytes) + 1);
		let length = 0;
		for (;;) {
			const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
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
		if (length > maxBytes) return { kind: "gap", reason: "too-large", size: length, mtimeMs: info.mtimeMs, readAt };
		return { kind: "content", bytes: buffer.subarray(0, length), size: info.size, mtimeMs: info.mtimeMs, readAt };
	} catch {
		return { kind: "gap", reason: "unreadable", size: 0, mtimeMs: 0, readAt: 0 };
	} finally {
		await handle.close().catch(() => {});
	}
}

const READ_CONCURRENCY = 32;
/** Files handled per batch: read, hashed, looked up, parsed; bounds memory and abort latency. */
const BATCH_FILES = 256;
/** Pending cache writes are flushed to a segment after this many new facts. */
const CACHE_FLUSH_EVERY = 2048;
/** Path refreshes save the manifest when this many changes are unsaved or this long has passed. */
const MANIFEST_SLACK_CHANGES = 64;
const MANIFEST_SLACK_MS = 30_000;
const DEFAULT_RACY_WINDOW_MS = 2000;

/** A placeholder in a state being built; never committed (every one is replaced or deleted). */
const PENDING: FileState = { size: -1, mtimeMs: -1, racy: true, language: "typescript" };

function byPath(a: { path: string }, b: { path: string }): number {
	return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** The facts of one project root. Refreshes run one at a time, in call order. */
export class CodeIndex {
	readonly root: string;
	readonly stats: CodeIndexStats = {
		scans: 0,
		filesStatted: 0,
		filesRead: 0,
		filesParsed: 0,
		cacheHits: 0,
		cacheWrites: 0,
	};
	readonly cache: FactCache | undefined;
	readonly maxFiles: number | undefined;
	readonly maxFileBytes: number;
	readonly racyWindowMs: number;

	#extractor: Promise<Extractor> | undefined;
	readonly #extractorSource: Extractor | (() => Promise<Extractor>);
	#state = new Map<string, FileState>();
	/** Gaps found by the walk itself (unsupported, too large, minified by name). */
	#scanGaps = new Map<string, CoverageGap>();
	/** Gaps found in file content, as published in the snapshot. */
	#contentGaps = new Map<string, CoverageGap>();
	#truncated = false;
	#directories: readonly string[] = [];
	#snapshot: IndexSnapshot | undefined;
	#manifest: Map<string, ManifestEntry> | undefined;
	#manifestLoaded = false;
	#manifestDirty = 0;
	#manifestSavedAt = 0;
	#queue: Promise<unknown> = Promise.resolve();

	constructor(root: string, options: CodeIndexOptions = {}) {
		this.root = resolve(root);
		this.#extractorSource = options.extractor ?? loadExtractor;
		this.cache = options.cache === false ? undefined : (options.cache ?? new FactCache(this.root));
		this.maxFiles = options.maxFiles;
		this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
		if (this.cache !== undefined && this.cache.root !== this.root) {
			throw new Error(`Fovea: the fact cache of ${this.cache.root} cannot serve ${this.root}`);
		}
		this.racyWindowMs = options.racyWindowMs ?? DEFAULT_RACY_WINDOW_MS;
	}

	/** Root-relative directories the last full walk listed (`""` is the root). */
	get walkedDirectories(): readonly string[] {
		return this.#directories;
	}

	/** The latest completed snapshot, or `undefined` before the first refresh. */
	get snapshot(): IndexSnapshot | undefined {
		return this.#snapshot;
	}

	/** Brings the index up to date; an aborted or failed refresh leaves the previous snapshot in place. */
	refresh(options: RefreshOptions = {}): Promise<IndexSnapshot> {
		const run = this.#queue.then(() => this.#refresh(options));
		this.#queue = run.catch(() => {});
		return run;
	}

	/** Persists the manifest and pending cache writes now (refreshes do it when due). */
	flush(): Promise<void> {
		const run = this.#queue.then(async () => {
			await this.#saveManifest();
			await this.cache?.flush({ force: true });
		});
		this.#queue = run.catch(() => {});
		return run;
	}

	#getExtractor(): Promise<Extractor> {
		let loading = this.#extractor;
		if (loading === undefined) {
			const source = this.#extractorSource;
			loading = typeof source === "function" ? source() : Promise.resolve(source);
			this.#extractor = loading;
			loading.catch(() => {
				if (this.#extractor === loading) this.#extractor = undefined; // a failed load is retried later
			});
		}
		return loading;
	}

	/** Root-relative `/` path of a caller-supplied path, or `undefined` when it is not inside the root. */
	#relative(path: string): string | undefined {
		const rel = relative(this.root, resolve(this.root, path));
		if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
		return sep === "/" ? rel : rel.split(sep).join("/");
	}

	async #refresh(options: RefreshOptions): Promise<IndexSnapshot> {
		const signal = options.signal;
		signal?.throwIfAborted();
		if (!this.#manifestLoaded && this.cache !== undefined) {
			this.#manifest = await this.cache.loadManifest();
		}
		this.#manifestLoaded = true;

		const paths = options.paths?.map((p) => this.#relative(p)).filter((p): p is string => p !== undefined);
		if (paths !== undefined && this.#snapshot !== undefined && !paths.some(isIgnoreFile)) {
			const partial = await this.#refreshPaths(paths, options);
			if (partial !== undefined) return partial;
		}
		return this.#refreshAll(options);
	}

	async #refreshAll(options: RefreshOptions): Promise<IndexSnapshot> {
		const scan: ScanResult = await scanRoot(this.root, {
			maxFiles: this.maxFiles,
			maxFileBytes: this.maxFileBytes,
			signal: options.signal,
		});
		this.stats.scans++;
		this.stats.filesStatted += scan.stats.filesStatted;
		this.#directories = scan.directories;
		const scanGaps = new Map(scan.gaps.map((g) => [g.path, g]));
		const next = await this.#update(scan.files, "all", options);
		return this.#commit(next, scanGaps, scan.truncated, undefined);
	}

	/** Checks only `paths`; `undefined` when one of them needs a walk (a directory). */
	async #refreshPaths(paths: readonly string[], options: RefreshOptions): Promise<IndexSnapshot | undefined> {
		const { verdicts, stats } = await scanPaths(this.root, paths, {
			maxFileBytes: this.maxFileBytes,
			signal: options.signal,
		});
		this.stats.filesStatted += stats.filesStatted;
		if (verdicts.some((v) => v.kind === "directory")) return undefined;
		const scanGaps = new Map(this.#scanGaps);
		const files: ScannedFile[] = [];
		const scope = new Set<string>();
		let truncated = this.#truncated;
		const limit = this.maxFiles ?? DEFAULT_MAX_FILES;
		let count = this.#state.size;
		for (const verdict of verdicts) {
			scope.add(verdict.path);
			scanGaps.delete(verdict.path);
			if (verdict.kind === "absent") {
				// A removed (or now ignored, or now symlinked) directory takes everything below it along.
				const prefix = `${verdict.path}/`;
				for (const path of this.#state.keys()) if (path.startsWith(prefix)) scope.add(path);
				for (const path of scanGaps.keys()) if (path.startsWith(prefix)) scanGaps.delete(path);
			} else if (verdict.kind === "gap") scanGaps.set(verdict.path, verdict.gap);
			else if (verdict.kind === "file") {
				if (!this.#state.has(verdict.path) && count >= limit) {
					truncated = true;
					continue;
				}
				if (!this.#state.has(verdict.path)) count++;
				files.push(verdict.file);
			}
		}
		const next = await this.#update(files, scope, options);
		return this.#commit(next, scanGaps, truncated, scope);
	}

	/**
	 * The new state after examining `files`; any path in `scope` (`"all"`: every path) not among them is dropped.
	 * Reads, hashes, looks up and parses only what changed. Does not touch the committed state. Files keep the order
	 * given (a walk's is sorted by path).
	 */
	async #update(
		files: readonly ScannedFile[],
		scope: ReadonlySet<string> | "all",
		options: RefreshOptions,
	): Promise<Map<string, FileState>> {
		const signal = options.signal;
		const next = new Map(scope === "all" ? [] : this.#state);
		if (scope !== "all") for (const path of scope) next.delete(path);

		// Unchanged files keep their state; files known only from the manifest get their facts from the cache.
		const toRead: ScannedFile[] = [];
		const fromManifest: { file: ScannedFile; entry: ManifestEntry; key: string }[] = [];
		for (const file of files) {
			const prev = this.#state.get(file.path);
			next.set(file.path, PENDING); // holds the file's place until its state is known
			if (prev !== undefined) {
				if (unchanged(prev, file)) next.set(file.path, prev);
				else toRead.push(file);
				continue;
			}
			const entry = this.#manifest?.get(file.path);
			if (entry === undefined || !unchanged(entry, file)) toRead.push(file);
			else if (entry.gap !== undefined) {
				const { size, mtimeMs, gap } = entry;
				next.set(file.path, { size, mtimeMs, language: file.language, racy: false, gap });
			} else if (entry.hash !== undefined) {
				fromManifest.push({ file, entry, key: factKey(entry.hash, file.path, file.language) });
			} else toRead.push(file);
		}
		if (fromManifest.length > 0) {
			signal?.throwIfAborted();
			const keys = fromManifest.map((m) => m.key);
			const found = this.cache === undefined ? new Map<string, FileFacts>() : await this.cache.getMany(keys);
			for (const { file, entry, key } of fromManifest) {
				const facts = found.get(key);
				if (facts === undefined) {
					toRead.push(file);
					continue;
				}
				this.stats.cacheHits++;
				const { size, mtimeMs, language } = file;
				next.set(file.path, { size, mtimeMs, language, racy: false, hash: entry.hash, facts });
			}
		}

		const total = toRead.length;
		let done = 0;
		let unflushed = 0;
		try {
			for (let start = 0; start < toRead.length; start += BATCH_FILES) {
				signal?.throwIfAborted();
				const batch = toRead.slice(start, start + BATCH_FILES);
				const states = await this.#examine(batch, signal);
				for (let i = 0; i < batch.length; i++) {
					const file = batch[i] as ScannedFile;
					const state = states[i];
					if (state === undefined) next.delete(file.path);
					else next.set(file.path, state);
				}
				done += batch.length;
				unflushed += batch.length;
				options.onProgress?.(done, total);
				if (unflushed >= CACHE_FLUSH_EVERY && this.cache !== undefined) {
					unflushed = 0;
					await this.cache.flush();
				}
			}
		} finally {
			// Facts already extracted are worth keeping even when the refresh is abandoned.
			if (this.cache !== undefined && this.cache.pendingCount > 0) await this.cache.flush();
		}
		signal?.throwIfAborted();
		return next;
	}

	/** Reads, classifies, hashes, looks up and (on a miss) parses one batch; `undefined` for files now gone. */
	async #examine(batch: readonly ScannedFile[], signal: AbortSignal | undefined): Promise<(FileState | undefined)[]> {
		const outcomes: ReadOutcome[] = new Array(batch.length);
		let cursor = 0;
		const reader = async (): Promise<void> => {
			while (cursor < batch.length) {
				const i = cursor++;
				const file = batch[i] as ScannedFile;
				signal?.throwIfAborted();
				outcomes[i] = await readBounded(join(this.root, file.path), this.maxFileBytes);
			}
		};
		await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, batch.length) }, reader));

		const states: (FileState | undefined)[] = new Array(batch.length);
		const lookups: { i: number; key: string; hash: string; source: string }[] = [];
		// Invalid UTF-8 becomes U+FFFD and is still extracted; a byte-order mark is dropped.
		const decoder = new TextDecoder("utf-8");
		for (let i = 0; i < batch.length; i++) {
			const file = batch[i] as ScannedFile;
			const outcome = outcomes[i] as ReadOutcome;
			if (outcome.kind === "absent") continue;
			if (outcome.kind === "gap") {
				if (outcome.reason !== "unreadable") this.stats.filesRead++;
				states[i] = this.#state_(file, outcome, { gap: outcome.reason });
				continue;
			}
			this.stats.filesRead++;
			const gap = contentGap(outcome.bytes);
			if (gap !== undefined) {
				states[i] = this.#state_(file, outcome, { gap });
				continue;
			}
			const source = decoder.decode(outcome.bytes);
			const hash = hashOf(source); // the extractor's content address, equal to the facts' `hash`
			const prev = this.#state.get(file.path);
			if (prev?.facts !== undefined && prev.hash === hash && prev.language === file.language) {
				states[i] = this.#state_(file, outcome, { hash, facts: prev.facts }); // touched, not changed
				continue;
			}
			lookups.push({ i, key: factKey(hash, file.path, file.language), hash, source });
		}

		const found =
			this.cache !== undefined && lookups.length > 0
				? await this.cache.getMany(lookups.map((l) => l.key))
				: new Map<string, FileFacts>();
		const misses: typeof lookups = [];
		for (const lookup of lookups) {
			const facts = found.get(lookup.key);
			const file = batch[lookup.i] as ScannedFile;
			const outcome = outcomes[lookup.i] as ReadOutcome & { kind: "content" };
			if (facts === undefined) misses.push(lookup);
			else {
				this.stats.cacheHits++;
				states[lookup.i] = this.#state_(file, outcome, { hash: lookup.hash, facts });
			}
		}
		if (misses.length === 0) return states;

		const jobs: ExtractJob[] = misses.map(({ i, source }) => {
			const file = batch[i] as ScannedFile;
			return { path: file.path, language: file.language, source };
		});
		const extractor = await this.#getExtractor();
		await extractor.ensureLanguages(new Set(jobs.map((j) => j.language)));
		signal?.throwIfAborted();
		const results = await extractMany(extractor, jobs, {
			signal,
			onEach: () => {
				this.stats.filesParsed++;
			},
		});
		for (let j = 0; j < results.length; j++) {
			const { i, key, hash } = misses[j] as (typeof misses)[number];
			const file = batch[i] as ScannedFile;
			const outcome = outcomes[i] as ReadOutcome & { kind: "content" };
			const result = results[j];
			if (result === undefined || result instanceof Error) {
				states[i] = this.#state_(file, outcome, { gap: "parse-error" });
				continue;
			}
			if (this.cache !== undefined) {
				this.cache.put(key, result);
				this.stats.cacheWrites++;
			}
			states[i] = this.#state_(file, outcome, { hash, facts: result });
		}
		signal?.throwIfAborted(); // after caching what was finished
		return states;
	}

	/** A file's state as just read: size and mtime from the open file, racy when modified moments before. */
	#state_(
		file: ScannedFile,
		outcome: { size: number; mtimeMs: number; readAt: number },
		rest: { hash?: string; facts?: FileFacts; gap?: CoverageGap["reason"] },
	): FileState {
		// An unreadable file has no trustworthy metadata: keep the walk's, and look again next time.
		const size = rest.gap === "unreadable" ? file.size : outcome.size;
		const mtimeMs = rest.gap === "unreadable" ? file.mtimeMs : outcome.mtimeMs;
		const racy = rest.gap === "unreadable" || outcome.readAt - mtimeMs < this.racyWindowMs;
		return { size, mtimeMs, racy, language: file.language, ...rest };
	}

	/**
	 * Publishes `next` as the new state and snapshot. `touched` lists the only paths that may differ from the current
	 * state (a path refresh), so the work is proportional to them; `undefined` compares everything (a walk).
	 */
	#commit(
		next: Map<string, FileState>,
		scanGaps: Map<string, CoverageGap>,
		truncated: boolean,
		touched: ReadonlySet<string> | undefined,
	): Promise<IndexSnapshot> {
		const previous = this.#state;
		const changed: string[] = [];
		let dirty = 0;
		const compare = (path: string): void => {
			const state = next.get(path);
			if (state === PENDING) throw new Error(`Fovea: ${path} was left unexamined`); // a bug, not a file
			const before = previous.get(path);
			if (state === before) return;
			dirty++;
			if (state?.facts !== before?.facts) changed.push(path);
		};
		if (touched === undefined) {
			for (const path of next.keys()) compare(path);
			for (const path of previous.keys()) if (!next.has(path)) compare(path);
		} else {
			for (const path of touched) compare(path);
		}
		changed.sort();

		let files: Map<string, FileFacts>;
		let contentGaps: Map<string, CoverageGap>;
		if (touched === undefined || this.#snapshot === undefined) {
			files = new Map();
			contentGaps = new Map();
			for (const [path, state] of next) {
				if (state.facts !== undefined) files.set(path, state.facts);
				else if (state.gap !== undefined) contentGaps.set(path, { path, reason: state.gap });
			}
		} else {
			files = new Map(this.#snapshot.files);
			contentGaps = new Map(this.#contentGaps);
			for (const path of touched) {
				const state = next.get(path);
				if (state?.facts !== undefined) files.set(path, state.facts);
				else files.delete(path);
				if (state?.gap !== undefined) contentGaps.set(path, { path, reason: state.gap });
				else contentGaps.delete(path);
			}
		}
		const gaps: CoverageGap[] = [...scanGaps.values(), ...contentGaps.values()].sort(byPath);
		this.#contentGaps = contentGaps;

		const generation = (this.#snapshot?.generation ?? 0) + (changed.length > 0 || this.#snapshot === undefined ? 1 : 0);
		const generationChanged =
			changed.length > 0 || this.#snapshot === undefined ? changed : this.#snapshot.generationChanged;
		const snapshot: IndexSnapshot = { root: this.root, files, gaps, truncated, generation, changed, generationChanged };
		this.#state = next;
		this.#scanGaps = scanGaps;
		this.#truncated = truncated;
		this.#snapshot = snapshot;
		this.#manifest = undefined; // every file the manifest vouched for is in the state now, or gone
		this.#manifestDirty += dirty;

		const due =
			this.#manifestDirty > 0 &&
			(touched === undefined ||
				this.#manifestDirty >= MANIFEST_SLACK_CHANGES ||
				Date.now() - this.#manifestSavedAt >= MANIFEST_SLACK_MS);
		return (due ? this.#saveManifest() : Promise.resolve()).then(() => snapshot);
	}

	async #saveManifest(): Promise<void> {
		if (this.cache === undefined || this.#manifestDirty === 0) return;
		const files = new Map<string, ManifestEntry>();
		for (const [path, s] of this.#state) {
			const entry: ManifestEntry = { size: s.size, mtimeMs: s.mtimeMs };
			if (s.hash !== undefined && s.facts !== undefined) entry.hash = s.hash;
			else if (s.gap !== undefined) entry.gap = s.gap;
			else continue;
			if (s.racy) entry.racy = true;
			files.set(path, entry);
		}
		await this.cache.saveManifest(files);
		this.#manifestDirty = 0;
		this.#manifestSavedAt = Date.now();
	}
}

/** Whether a file's walk metadata matches a recorded state that (size, mtime) can vouch for. */
function unchanged(prev: { size: number; mtimeMs: number; racy?: boolean }, file: ScannedFile): boolean {
	return prev.racy !== true && prev.size === file.size && prev.mtimeMs === file.mtimeMs;
}

/** Ignore files change which files exist for the index: an edit to one needs a full walk. */
function isIgnoreFile(path: string): boolean {
	return path === ".gitignore" || path.endsWith("/.gitignore") || path === ".git/info/exclude";
}
