/**
 * The update step of a refresh: the new state of the files a walk or a path check listed. Files whose (size, mtime)
 * still vouch for their state keep it; files known only from the persisted manifest get their facts from the cache;
 * the rest are examined in batches. Its own module so the order of that triage — cheapest evidence first — reads
 * apart from the index's bookkeeping.
 */

import type { ManifestEntry } from "../cache/index.ts";
import { factKey } from "../cache-location.ts";
import { prepareExtraction } from "../extract/index.ts";
import type { FileFacts } from "../model/index.ts";
import type { ScannedFile } from "../scan/index.ts";
import { unchanged } from "../scan/index.ts";
import { type ExamineContext, parseBatch, type ReadBatch, readBatch } from "./examine-files.ts";
import type { FactBudget } from "./fact-budget.ts";
import { type FileState, PENDING, sameHash } from "./file-state.ts";

/** Files handled per batch: read, hashed, looked up, parsed; bounds memory and abort latency. */
const BATCH_FILES = 256;
/** The period of the timer that keeps the event loop running while files are examined (it never needs to fire). */
const KEEP_ALIVE_MS = 60_000;
/** Pending cache writes are flushed to a segment after this many new facts. */
const CACHE_FLUSH_EVERY = 2048;
/** Facts known from the manifest are fetched from the cache this many at a time: one segment's worth. */
export const MANIFEST_CHUNK = CACHE_FLUSH_EVERY;

/** What updating reads: the examine step's context, plus the manifest loaded after a restart. */
export interface UpdateContext extends ExamineContext {
	manifest: ReadonlyMap<string, ManifestEntry> | undefined;
	/** Called as files that needed work are finished: `done` of `total`. */
	onProgress: ((done: number, total: number) => void) | undefined;
	/**
	 * The memory budget's account, started at what stays resident besides `files`: facts kept as they were are
	 * accounted, new ones admitted whole or summarized (`fact-budget.ts`).
	 */
	budget: FactBudget;
	/**
	 * Called once, before anything is examined, with the state being built: `PENDING` until a file's state is known.
	 * Read-only to the caller, which may look at it while the update runs (an answer while a first index runs).
	 */
	onState?: ((next: ReadonlyMap<string, FileState>) => void) | undefined;
}

/**
 * The states of `files` after examining them: for a walk, the root's whole new state; for a path check, its paths'
 * (a checked path missing from the result is gone; the committer applies it to the state, so a one-file refresh of
 * a large root does not copy every other file's state). Reads, hashes, looks up and parses only what changed. Does
 * not touch the committed state (`context.previous`). Files keep the order given (a walk's is sorted by path).
 */
export async function updateStates(
	files: readonly ScannedFile[],
	context: UpdateContext,
): Promise<Map<string, FileState>> {
	const { signal, cache, previous, budget } = context;
	const next = new Map<string, FileState>();
	context.onState?.(next);
	// Facts a file kept from its previous state are published (the snapshot, the graph): a summary copies them.
	const admitted = (path: string, state: FileState): FileState => {
		const owns = state.facts !== previous.get(path)?.facts;
		const facts = state.facts === undefined ? undefined : budget.admit(state.facts, owns);
		return facts === state.facts ? state : { ...state, facts };
	};

	// Unchanged files keep their state; files known only from the manifest get their facts from the cache.
	const toRead: ScannedFile[] = [];
	const fromManifest: { file: ScannedFile; entry: ManifestEntry; key: string }[] = [];
	for (const file of files) {
		const prev = previous.get(file.path);
		next.set(file.path, PENDING); // holds the file's place until its state is known
		if (prev !== undefined) {
			if (unchanged(prev, file)) {
				next.set(file.path, prev);
				if (prev.facts !== undefined) budget.keep(prev.facts);
			} else toRead.push(file);
			continue;
		}
		const entry = context.manifest?.get(file.path);
		if (entry === undefined || !unchanged(entry, file)) toRead.push(file);
		else if (entry.gap !== undefined) {
			const { size, mtimeMs, ctimeMs, gap } = entry;
			next.set(file.path, { size, mtimeMs, ctimeMs, language: file.language, racy: false, gap });
		} else if (entry.hash !== undefined) {
			fromManifest.push({ file, entry, key: factKey(entry.hash, file.path, file.language, context.contentTerms) });
		} else toRead.push(file);
	}
	// In chunks of what one cache segment holds: facts the budget summarizes are let go chunk by chunk, instead of a
	// restart holding every file's whole facts at once (at 100,000 files a peak of 1.3 GB).
	for (let start = 0; start < fromManifest.length; start += MANIFEST_CHUNK) {
		signal?.throwIfAborted();
		const chunk = fromManifest.slice(start, start + MANIFEST_CHUNK);
		const keys = chunk.map((m) => m.key);
		const found = cache === undefined ? new Map<string, FileFacts>() : await cache.getMany(keys);
		for (const { file, entry, key } of chunk) {
			const facts = found.get(key);
			if (facts === undefined) {
				toRead.push(file);
				continue;
			}
			context.stats.cacheHits++;
			const { size, mtimeMs, ctimeMs, language } = file;
			const admitted = budget.admit(facts, true); // fresh from the cache
			next.set(file.path, {
				size,
				mtimeMs,
				ctimeMs,
				language,
				racy: false,
				hash: sameHash(entry.hash, admitted),
				facts: admitted,
			});
		}
	}

	const total = toRead.length;
	// Bytes of source left to examine, which the extract pool weighs (with files) before starting parsing threads.
	let bytesLeft = 0;
	for (const file of toRead) bytesLeft += file.size;
	prepareExtraction(context.extractor, total, new Set(toRead.map((file) => file.language)), bytesLeft);
	let done = 0;
	let unflushed = 0;
	const batches: ScannedFile[][] = [];
	for (let start = 0; start < toRead.length; start += BATCH_FILES)
		batches.push(toRead.slice(start, start + BATCH_FILES));
	let reading: Promise<ReadBatch> | undefined;
	// Node waits for V8's background tasks whenever its event loop runs out of work, and in a fresh process those
	// include optimizing WebAssembly and JavaScript. Synchronous reads and parses leave the loop with nothing in flight
	// between turns, so a ref'd timer keeps it running while files are examined: without it a cold index in a process
	// with nothing else to do stalls for as long as V8's background work lasts.
	const keepAlive = batches.length > 0 ? setInterval(() => {}, KEEP_ALIVE_MS) : undefined;
	try {
		for (let k = 0; k < batches.length; k++) {
			signal?.throwIfAborted();
			const read = await (reading ?? readBatch(batches[k] as ScannedFile[], context));
			// The next batch is read while this one parses: the extract pool's workers then wait for no read.
			reading = k + 1 < batches.length ? readBatch(batches[k + 1] as ScannedFile[], context) : undefined;
			reading?.catch(() => {}); // its failure is met when it is awaited (or dropped with an abort)
			const states = await parseBatch(read, context, total - done, bytesLeft);
			const { batch } = read;
			for (const file of batch) bytesLeft -= file.size;
			for (let i = 0; i < batch.length; i++) {
				const file = batch[i] as ScannedFile;
				const state = states[i];
				if (state === undefined) next.delete(file.path);
				else next.set(file.path, admitted(file.path, state));
			}
			done += batch.length;
			unflushed += batch.length;
			context.onProgress?.(done, total);
			if (unflushed >= CACHE_FLUSH_EVERY && cache !== undefined) {
				unflushed = 0;
				await cache.flush();
			}
		}
	} finally {
		clearInterval(keepAlive);
		await reading?.catch(() => {}); // no read outlives the refresh
		// Facts already extracted are worth keeping even when the refresh is abandoned.
		if (cache !== undefined && cache.pendingCount > 0) await cache.flush();
	}
	signal?.throwIfAborted();
	return next;
}
