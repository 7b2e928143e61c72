/**
 * The examine step of a refresh: one batch of files that may have changed is read, classified, hashed, looked up in
 * the fact cache and, only on a miss, parsed. Reading and parsing are two halves, so the caller can read the next
 * batch while this one parses (the extract pool's worker threads then never wait for the main thread's reads).
 * Functions over an explicit context rather than methods, so what the step may touch (the committed state it
 * compares with, the cache, the work counters) is stated in their signatures.
 */
import { join } from "node:path";
import type { FactCache } from "../cache/index.ts";
import { factKey } from "../cache-location.ts";
import type { ExtractJob } from "../extract/index.ts";
import { extractMany, extractsWithWorkers } from "../extract/index.ts";
import type { FileFacts } from "../model/index.ts";
import { type Pace, syncWhileFast, TimeSlice } from "../pace/index.ts";
import { type Extractor, hashOf } from "../parse/index.ts";
import type { ScannedFile } from "../scan/index.ts";
import { contentGap, type ReadOutcome, readBounded, readBoundedSync } from "../scan/index.ts";
import { type FileState, stateAsRead } from "./file-state.ts";

/** Asynchronous reads in flight at once, once a batch has met a slow read. */
const READ_CONCURRENCY = 32;
/** A batch this small (a refresh of a few paths) is read at once, without a turn first. */
const SMALL_BATCH = 32;

/** What examining a batch reads and counts. */
export interface ExamineContext {
	root: string;
	maxFileBytes: number;
	racyWindowMs: number;
	/** The committed state: a file read again with the same content hash keeps its facts. */
	previous: ReadonlyMap<string, FileState>;
	cache: FactCache | undefined;
	/** Whether parsed facts count content terms (`CodeIndexOptions.contentTerms`); it picks their cache key too. */
	contentTerms: boolean;
	/** The extractor, loaded on the first miss. */
	extractor: () => Promise<Extractor>;
	/** Work counters, incremented as files are read, found in the cache, parsed and cached. */
	stats: { filesRead: number; filesParsed: number; cacheHits: number; cacheWrites: number };
	signal: AbortSignal | undefined;
	/** Facts another parse will offer to the cache (`RefreshOptions.offers`): nothing is parsed before it settles. */
	offers?: PromiseLike<unknown> | undefined;
	/** The caller's own parse, tried first on each miss (`RefreshOptions.sharedParse`). */
	sharedParse?: SharedParse | undefined;
}

/** A caller's own parse of a file the refresh must parse: its facts, or `undefined` to leave it to the engine. */
export type SharedParse = (file: ExtractJob) => FileFacts | undefined;

/** A batch read and looked up: the states known without parsing, and the misses left to parse. */
export interface ReadBatch {
	batch: readonly ScannedFile[];
	outcomes: readonly ReadOutcome[];
	/** `undefined` for files now gone, and for misses until they are parsed. */
	states: (FileState | undefined)[];
	misses: readonly { i: number; key: string; hash: string; source: string }[];
}

/** Reads, classifies, hashes and looks up one batch; what only parsing can settle is left in `misses`. */
export async function readBatch(batch: readonly ScannedFile[], context: ExamineContext): Promise<ReadBatch> {
	const { cache, stats } = context;
	const outcomes = await readAll(batch, context);

	const states: (FileState | undefined)[] = new Array(batch.length);
	const lookups: { i: number; key: string; hash: string; source: string }[] = [];
	// Invalid UTF-8 becomes U+FFFD and is still extracted; a byte-order mark is dropped.
	const decoder = new TextDecoder("utf-8");
	for (let i = 0; i < batch.length; i++) {
		const file = batch[i] as ScannedFile;
		const outcome = outcomes[i] as ReadOutcome;
		if (outcome.kind === "absent") continue;
		if (outcome.kind === "gap") {
			if (outcome.reason !== "unreadable") stats.filesRead++;
			states[i] = stateOf(context, file, outcome, { gap: outcome.reason });
			continue;
		}
		stats.filesRead++;
		const gap = contentGap(outcome.bytes);
		if (gap !== undefined) {
			states[i] = stateOf(context, file, outcome, { gap });
			continue;
		}
		const source = decoder.decode(outcome.bytes);
		const hash = hashOf(source); // the extractor's content address, equal to the facts' `hash`
		const prev = context.previous.get(file.path);
		if (prev?.facts !== undefined && prev.hash === hash && prev.language === file.language) {
			states[i] = stateOf(context, file, outcome, { hash, facts: prev.facts }); // touched, not changed
			continue;
		}
		lookups.push({ i, key: factKey(hash, file.path, file.language, context.contentTerms), hash, source });
	}

	const found =
		cache !== undefined && lookups.length > 0
			? await cache.getMany(lookups.map((l) => l.key))
			: new Map<string, FileFacts>();
	const misses: typeof lookups = [];
	for (const lookup of lookups) {
		const facts = found.get(lookup.key);
		if (facts === undefined) misses.push(lookup);
		else {
			stats.cacheHits++;
			const file = batch[lookup.i] as ScannedFile;
			states[lookup.i] = stateOf(context, file, outcomes[lookup.i] as ReadOutcome, { hash: lookup.hash, facts });
		}
	}
	return { batch, outcomes, states, misses };
}

/**
 * The read outcomes of a batch, in its order: synchronous reads while they are fast, then asynchronous ones
 * (`pace/sync-while-fast.ts`). A large batch gives the event loop a turn first: it is read ahead while the caller hands
 * the previous one to the parsing threads.
 */
export async function readAll(
	batch: readonly ScannedFile[],
	context: Pick<ExamineContext, "signal" | "root" | "maxFileBytes">,
	pace: Pace = { sync: true },
): Promise<ReadOutcome[]> {
	const { signal, root, maxFileBytes } = context;
	const slice = new TimeSlice();
	if (batch.length > SMALL_BATCH) await slice.turn();
	const path = (i: number) => join(root, (batch[i] as ScannedFile).path);
	return await syncWhileFast(
		batch.length,
		(i) => readBoundedSync(path(i), maxFileBytes),
		(i) => readBounded(path(i), maxFileBytes),
		{ pace, concurrency: READ_CONCURRENCY, slice, signal },
	);
}

/**
 * Parses the misses of a read batch (caching their facts) and returns every state of the batch. `expected` is how
 * many files may still need parsing, this batch's included, and `expectedBytes` their bytes: the extract pool starts
 * worker threads for large totals.
 */
export async function parseBatch(
	read: ReadBatch,
	context: ExamineContext,
	expected: number,
	expectedBytes = 0,
): Promise<(FileState | undefined)[]> {
	const { signal, cache, stats } = context;
	const { batch, outcomes, states } = read;
	if (read.misses.length > 0 && context.offers !== undefined) {
		await Promise.resolve(context.offers).catch(() => {});
		signal?.throwIfAborted();
	}
	// Facts offered since the lookup (another parse of the same bytes, see `CodeIndex.offer`) spare a parse.
	const misses: ReadBatch["misses"][number][] = [];
	for (const miss of read.misses) {
		const offered = cache?.pending(miss.key);
		if (offered === undefined) {
			misses.push(miss);
			continue;
		}
		stats.cacheHits++;
		const file = batch[miss.i] as ScannedFile;
		states[miss.i] = stateOf(context, file, outcomes[miss.i] as ReadOutcome, { hash: miss.hash, facts: offered });
	}
	if (misses.length === 0) return states;

	const jobs: ExtractJob[] = misses.map(({ i, source, hash }) => {
		const file = batch[i] as ScannedFile;
		return { path: file.path, language: file.language, source, hash, contentTerms: context.contentTerms };
	});
	const extractor = await context.extractor();
	await extractor.ensureLanguages(new Set(jobs.map((j) => j.language)));
	signal?.throwIfAborted();
	// The caller's own parse takes the files it wants first (its grammars are the ones just loaded); the engine
	// extracts the rest. Not when the engine would share the batch with parsing threads: the caller parses here.
	const sharing = context.sharedParse !== undefined && !extractsWithWorkers(jobs.length, expected, expectedBytes);
	const left: number[] = [];
	const slice = new TimeSlice();
	for (let j = 0; j < jobs.length; j++) {
		const facts = sharing ? sharedFacts(context, jobs[j] as ExtractJob) : undefined;
		if (facts === undefined) {
			left.push(j);
			continue;
		}
		stats.filesParsed++;
		settle(j, facts);
		// Like the engine's own extraction: the event loop (a host's interface) gets a turn between parses.
		if (slice.due) {
			await slice.turn();
			signal?.throwIfAborted(); // what was parsed is settled and cached already
		}
	}
	const results = await extractMany(
		extractor,
		left.map((j) => jobs[j] as ExtractJob),
		{
			signal,
			expected: expected - (jobs.length - left.length),
			expectedBytes,
			// The refresh's last batch: no file after it can need a parsing thread.
			last: expected <= read.batch.length,
			onEach: () => {
				stats.filesParsed++;
			},
		},
	);
	for (let k = 0; k < results.length; k++) settle(left[k] as number, results[k]);
	signal?.throwIfAborted(); // after caching what was finished
	return states;

	function settle(j: number, result: FileFacts | Error | undefined): void {
		const { i, key, hash } = misses[j] as (typeof misses)[number];
		const file = batch[i] as ScannedFile;
		const outcome = outcomes[i] as ReadOutcome;
		if (result === undefined || result instanceof Error) {
			states[i] = stateOf(context, file, outcome, { gap: "parse-error" });
			return;
		}
		if (cache !== undefined) {
			cache.put(key, result);
			stats.cacheWrites++;
		}
		states[i] = stateOf(context, file, outcome, { hash, facts: result });
	}
}

/**
 * The facts of `job` from the caller's own parse, when it takes the file; a throw leaves the file to the engine. The
 * caller keeps its facts: the index takes them with symbols of its own, which a summary changes in place
 * (`fact-budget.ts`).
 */
function sharedFacts(context: ExamineContext, job: ExtractJob): FileFacts | undefined {
	if (context.sharedParse === undefined) return undefined;
	try {
		const facts = context.sharedParse(job);
		return facts === undefined ? undefined : { ...facts, symbols: facts.symbols.map((symbol) => ({ ...symbol })) };
	} catch {
		return undefined;
	}
}

/** The state of a file read with content or found to be a gap. */
function stateOf(
	context: ExamineContext,
	file: ScannedFile,
	outcome: ReadOutcome,
	rest: Parameters<typeof stateAsRead>[2],
): FileState {
	return stateAsRead(file, outcome as ReadOutcome & { kind: "gap" | "content" }, rest, context.racyWindowMs);
}
