/**
 * The facts of one project root, kept current incrementally: the index under a code map (`map/code-map.ts`, which
 * derives the graph and the answers from these facts).
 *
 * A refresh walks the root (metadata only), compares each file's (size, mtime) with what the previous refresh — or,
 * after a restart, the persisted manifest — recorded, and reads only files that differ. A read file's content hash
 * is looked up in the fact cache before anything is parsed, so touching a file, reverting it, or restarting costs
 * reads or nothing, not parses. `refresh({ paths })` checks just the named paths: the fast path after an edit.
 *
 * Safety: the walk follows no symlink and files are opened with `O_NOFOLLOW`; nothing is written inside the root
 * (the cache lives in the user's cache directory); no code from the root is run — only its bytes are parsed.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { ManifestEntry } from "../cache/index.ts";
import { FactCache } from "../cache/index.ts";
import { factKey } from "../cache-location.ts";
import type { CoverageGap, FileFacts } from "../model/index.ts";
import { forgetSharedNames } from "../model/index.ts";
import { type Extractor, loadExtractor } from "../parse/index.ts";
import type { ScannedFile } from "../scan/index.ts";
import { DEFAULT_MAX_FILE_BYTES, ensureRootPresent, type ScanResult, scanPaths, scanRoot } from "../scan/index.ts";
import type { SharedParse } from "./examine-files.ts";
import { FactBudget, factBudgetFromEnv, factBytes } from "./fact-budget.ts";
import { type FileState, manifestOf, PENDING } from "./file-state.ts";
import { type IndexSnapshot, nextSnapshot } from "./snapshot.ts";
import { updateStates } from "./update-states.ts";

export type { Extractor } from "../parse/index.ts";
export type { SharedParse };

export interface CodeIndexOptions {
	/** The extractor, or a loader called once, when the first file needs parsing. Default: the tree-sitter engine. */
	extractor?: Extractor | (() => Promise<Extractor>);
	/** The fact cache; `false` keeps facts in memory only. Default: a {@link FactCache} in the user cache dir. */
	cache?: FactCache | false;
	/**
	 * Supported files listed at most; more sets `truncated`. Default: no bound, every file of the root is indexed and
	 * memory is bounded by `factBudgetBytes` instead.
	 */
	maxFiles?: number;
	/**
	 * Estimated bytes of facts kept resident for this root; past it each further file is kept summarized (no call
	 * sites, no content terms) and counted in `IndexSnapshot.summarized` (`fact-budget.ts`). Default FOVEA_FACTS_MB,
	 * else 160 MB.
	 */
	factBudgetBytes?: number;
	maxFileBytes?: number;
	/**
	 * A file modified less than this long before it was read could change again within the file system's timestamp
	 * granularity without its (size, mtime) changing; it is re-read (not re-parsed) on the next refresh. Default 2 s.
	 */
	racyWindowMs?: number;
	/**
	 * Count each file's content terms (`FileFacts.contentTerms`), which a focus query's ranking by words reads.
	 * Default true. An index that answers no query by words (the `contour` CLI: a review asks only for exposure)
	 * turns it off: counting is about a tenth of a file's extraction. Its facts are cached under keys of their own
	 * (`factKey`), so two indexes of one root that differ here never take each other's facts.
	 */
	contentTerms?: boolean;
}

export interface RefreshOptions {
	/** Check only these paths (root-relative or absolute inside the root) instead of walking the whole root. */
	paths?: readonly string[];
	signal?: AbortSignal;
	/**
	 * Called as files that needed work are finished: `done` of `total`. From the call on, also for a refresh already
	 * running that this one waits behind (a post-turn probe's first index, say), so the caller is never left waiting
	 * without a word.
	 */
	onProgress?: (done: number, total: number) => void;
	/**
	 * Settles once another parse of this root's files has offered its facts (`offer`): the refresh walks, reads and
	 * looks up meanwhile, but parses nothing before, and takes what was offered instead. Its failure is ignored.
	 */
	offers?: PromiseLike<unknown>;
	/**
	 * A parse of the caller's own, tried first for each file the refresh must parse on its own thread (a batch the
	 * engine would share with parsing threads is left to them): the facts it returns (from a parse that also served
	 * the caller, as Contour measures the files its clone search will compare) are taken as the engine's and counted
	 * as parsed; `undefined` leaves the file to the engine. Must give what `extract` would for the same source; a
	 * throw counts as `undefined`.
	 */
	sharedParse?: SharedParse;
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

/** Path refreshes save the manifest when this many changes are unsaved or this long has passed. */
const MANIFEST_SLACK_CHANGES = 64;
const MANIFEST_SLACK_MS = 30_000;
const DEFAULT_RACY_WINDOW_MS = 2000;

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
	/** See `CodeIndexOptions.contentTerms`. */
	readonly contentTerms: boolean;

	#extractor: Promise<Extractor> | undefined;
	readonly #extractorSource: Extractor | (() => Promise<Extractor>);
	#state = new Map<string, FileState>();
	/** Gaps found by the walk itself (unsupported, too large, minified by name). */
	#scanGaps = new Map<string, CoverageGap>();
	/** Gaps found in file content, as published in the snapshot. */
	#contentGaps = new Map<string, CoverageGap>();
	#truncated = false;
	/** The memory budget's account of the facts resident in `#state` (estimated bytes). */
	readonly #budget: FactBudget;
	#residentBytes = 0;
	/** While a first index examines the files its walk listed: the state being built, and the walk's gaps. */
	#live: { next: ReadonlyMap<string, FileState>; scanGaps: Map<string, CoverageGap>; truncated: boolean } | undefined;
	#directories: readonly string[] = [];
	#settingsFiles: readonly string[] = [];
	#snapshot: IndexSnapshot | undefined;
	#manifest: Map<string, ManifestEntry> | undefined;
	#manifestLoaded = false;
	#manifestDirty = 0;
	#manifestSavedAt = 0;
	#queue: Promise<unknown> = Promise.resolve();
	/** Progress callbacks of the refreshes running or waiting: each hears the progress of whichever runs. */
	readonly #progressListeners = new Set<(done: number, total: number) => void>();

	constructor(root: string, options: CodeIndexOptions = {}) {
		this.root = resolve(root);
		this.#extractorSource = options.extractor ?? loadExtractor;
		this.cache = options.cache === false ? undefined : (options.cache ?? new FactCache(this.root));
		this.maxFiles = options.maxFiles;
		this.#budget = new FactBudget(options.factBudgetBytes ?? factBudgetFromEnv());
		this.contentTerms = options.contentTerms ?? true;
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

	/** The import settings files (`tsconfig.json`, `package.json`, `go.mod`, `Cargo.toml`…) the last walk found, sorted. */
	get settingsFiles(): readonly string[] {
		return this.#settingsFiles;
	}

	/** Estimated bytes of the facts resident for this root, and the budget they are held to (`fact-budget.ts`). */
	get residentFacts(): { bytes: number; budget: number } {
		return { bytes: this.#residentBytes, budget: this.#budget.limit };
	}

	/**
	 * While the first index of this root runs, once its walk has listed the files: a snapshot of the files indexed so
	 * far (generation 0, never published as the index's), with `indexing` saying how far the index is; otherwise
	 * `undefined`. It costs one pass over the files listed, so a query can answer from it instead of waiting.
	 */
	indexedSoFar(): IndexSnapshot | undefined {
		const live = this.#live;
		if (live === undefined || this.#snapshot !== undefined) return undefined;
		const known = new Map<string, FileState>();
		for (const [path, state] of live.next) if (state !== PENDING) known.set(path, state);
		const { snapshot } = nextSnapshot({
			root: this.root,
			previous: new Map(),
			next: known,
			snapshot: undefined,
			contentGaps: new Map(),
			scanGaps: live.scanGaps,
			truncated: live.truncated,
			touched: undefined,
		});
		return { ...snapshot, generation: 0, indexing: { indexed: known.size, total: live.next.size } };
	}

	/** The latest completed snapshot, or `undefined` before the first refresh. */
	get snapshot(): IndexSnapshot | undefined {
		return this.#snapshot;
	}

	/** Brings the index up to date; an aborted or failed refresh leaves the previous snapshot in place. */
	refresh(options: RefreshOptions = {}): Promise<IndexSnapshot> {
		const listener = options.onProgress;
		if (listener !== undefined) this.#progressListeners.add(listener);
		const run = this.#queue.then(() => this.#refresh(options));
		this.#queue = run.catch(() => {});
		if (listener === undefined) return run;
		return run.finally(() => this.#progressListeners.delete(listener));
	}

	/**
	 * Takes facts that another parse of a file's content produced (Contour measures a changed file and gets the
	 * engine's facts from the same tree) into the fact cache, so a refresh that reads those same bytes at that path
	 * finds them instead of parsing again. Facts are content-addressed: if the file now holds other bytes, its hash
	 * differs and nothing is reused. Without a fact cache this does nothing. Facts are taken as this index would
	 * extract them (`contentTerms`): counted terms are dropped for an index that counts none, and facts without them
	 * are refused by one that counts them (its refresh parses the file instead).
	 */
	offer(facts: FileFacts): void {
		if (this.contentTerms && facts.contentTerms === undefined) return;
		const { contentTerms: _dropped, ...withoutTerms } = facts;
		const taken = this.contentTerms ? facts : withoutTerms;
		this.cache?.put(factKey(facts.hash, facts.path, facts.language, this.contentTerms), taken);
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
			// A root never indexed has nothing to compare with: listing at once saves the compare walk's first stat.
			...(this.#state.size > 0 ? { recorded: this.#state } : {}),
		});
		this.stats.scans++;
		this.stats.filesStatted += scan.stats.filesStatted;
		// However large the root, the cache keeps every file's facts (an unchanged walk lists none: the state counts).
		this.cache?.expectFiles(scan.unchanged ? this.#state.size : scan.files.length);
		this.#directories = scan.directories;
		this.#settingsFiles = scan.settingsFiles;
		const scanGaps = new Map(scan.gaps.map((g) => [g.path, g]));
		const first = this.#snapshot === undefined;
		const onState = (next: ReadonlyMap<string, FileState>) => {
			if (first) this.#live = { next, scanGaps, truncated: scan.truncated };
		};
		let next: Map<string, FileState>;
		try {
			next = scan.unchanged ? this.#state : await this.#update(scan.files, options, 0, onState);
		} finally {
			this.#live = undefined;
		}
		forgetSharedNames();
		// Checked after the walk: a root deleted while it was walked lists a part of its files, or none.
		if (!scan.unchanged) await ensureRootPresent(this.root);
		return this.#commit(next, scanGaps, scan.truncated, undefined);
	}

	/** Checks only `paths`; `undefined` when one of them needs a walk (a directory). */
	async #refreshPaths(paths: readonly string[], options: RefreshOptions): Promise<IndexSnapshot | undefined> {
		// Nothing to check (a ranking on the map as it is, an import resolution): the snapshot stands as it is, not
		// copied into an equal one (at 10,000 files that copy was ~4 MB of garbage per query).
		const current = this.#snapshot;
		if (paths.length === 0 && current !== undefined) return this.#saveManifestIfDue(new Set()).then(() => current);
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
		const limit = this.maxFiles ?? Number.POSITIVE_INFINITY;
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
		// What stays resident besides the paths checked: their facts are accounted again as they are kept or admitted.
		let resident = this.#residentBytes;
		for (const path of scope) {
			const facts = this.#state.get(path)?.facts;
			if (facts !== undefined) resident -= factBytes(facts);
		}
		const next = await this.#update(files, options, resident);
		// A path found gone may have gone with the whole root.
		if (verdicts.some((v) => v.kind === "absent")) await ensureRootPresent(this.root);
		return this.#commit(next, scanGaps, truncated, scope);
	}

	/** The states of `files` after examining them (see `updateStates`). */
	#update(
		files: readonly ScannedFile[],
		options: RefreshOptions,
		resident: number,
		onState?: (next: ReadonlyMap<string, FileState>) => void,
	): Promise<Map<string, FileState>> {
		// Signatures paged out of summaries are read back from the cache: only a cache that works can page them.
		this.#budget.start(resident, this.cache !== undefined && this.cache.disabled === undefined);
		return updateStates(files, {
			root: this.root,
			maxFileBytes: this.maxFileBytes,
			racyWindowMs: this.racyWindowMs,
			previous: this.#state,
			manifest: this.#manifest,
			cache: this.cache,
			contentTerms: this.contentTerms,
			extractor: () => this.#getExtractor(),
			stats: this.stats,
			signal: options.signal,
			onProgress: (done, total) => {
				for (const listener of this.#progressListeners) listener(done, total);
			},
			offers: options.offers,
			sharedParse: options.sharedParse,
			budget: this.#budget,
			onState,
		});
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
		const { snapshot, contentGaps, dirty } = nextSnapshot({
			root: this.root,
			previous: this.#state,
			next,
			snapshot: this.#snapshot,
			contentGaps: this.#contentGaps,
			scanGaps,
			truncated,
			touched,
		});
		this.#contentGaps = contentGaps;
		// An unchanged walk examined nothing and left the account as it was.
		if (next !== this.#state) this.#residentBytes = this.#budget.used;
		if (touched === undefined) this.#state = next;
		else {
			// A path refresh's `next` holds its paths only: applied here, where the refresh can no longer be abandoned.
			for (const path of touched) {
				const state = next.get(path);
				if (state === undefined) this.#state.delete(path);
				else this.#state.set(path, state);
			}
		}
		this.#scanGaps = scanGaps;
		this.#truncated = truncated;
		this.#snapshot = snapshot;
		this.#manifest = undefined; // every file the manifest vouched for is in the state now, or gone
		this.#manifestDirty += dirty;
		return this.#saveManifestIfDue(touched).then(() => snapshot);
	}

	/** Saves the manifest after a walk, or after path refreshes once enough changes or time have gathered. */
	#saveManifestIfDue(touched: ReadonlySet<string> | undefined): Promise<void> {
		const due =
			this.#manifestDirty > 0 &&
			(touched === undefined ||
				this.#manifestDirty >= MANIFEST_SLACK_CHANGES ||
				Date.now() - this.#manifestSavedAt >= MANIFEST_SLACK_MS);
		return due ? this.#saveManifest() : Promise.resolve();
	}

	async #saveManifest(): Promise<void> {
		if (this.cache === undefined || this.#manifestDirty === 0) return;
		await this.cache.saveManifest(manifestOf(this.#state));
		this.#manifestDirty = 0;
		this.#manifestSavedAt = Date.now();
	}
}

/** Ignore files change which files exist for the index: an edit to one needs a full walk. */
function isIgnoreFile(path: string): boolean {
	return path === ".gitignore" || path.endsWith("/.gitignore") || path === ".git/info/exclude";
}
