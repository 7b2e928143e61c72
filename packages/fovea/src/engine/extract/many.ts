/**
 * Extraction of many files in a row: the boundary between the index and the extract pool. Small calls and custom
 * extractors run on the main thread, yielding to the event loop as they go; a large call with the engine's own
 * extractor is shared with worker threads (`pool.ts`). Either way the index sees the same results.
 */

import type { FileFacts, LanguageId } from "../model/index.ts";
import { type Extractor, expectExtraction, isEngineExtractor } from "../parse/index.ts";
import { sharedExtractPool } from "../shared-extract-pool.ts";
import type { ExtractJob, ExtractOptions } from "./job.ts";

/**
 * Extracts each job, results in job order; a job whose extraction throws gives its error instead of facts. `onEach`
 * is called once per finished job. When `signal` aborts, it stops early and returns the contiguous prefix of finished
 * results (shorter than `jobs`), so finished work can still be cached. `expected` is how many jobs the call is part of
 * (its own and those the caller will send next): worker threads start only for large totals (a cold index).
 */
export function extractMany(
	extractor: Extractor,
	jobs: readonly ExtractJob[],
	options: ExtractOptions = {},
): Promise<(FileFacts | Error)[]> {
	return sharedExtractPool().extract(extractor, jobs, options);
}

/**
 * Whether `extractMany` of `jobs` jobs, part of `expected`, would share them with worker threads: then a caller's
 * own parse on the main thread (`RefreshOptions.sharedParse`) would only hold the workers back.
 */
export function extractsWithWorkers(jobs: number, expected: number, expectedBytes = 0): boolean {
	return sharedExtractPool().sharesWithWorkers(jobs, expected, expectedBytes);
}

/**
 * Gets ready for a run of `extractMany` calls bringing `expected` jobs of `expectedBytes` bytes of source in the
 * given `languages`, before the caller reads its first files: the size is announced to the grammar compiler
 * (`expectExtraction`); when that total would start worker threads (a large cold index) and the extractor `load`
 * gives is the engine's, the workers start now and load those grammars, and so does this thread, all while the
 * caller reads. Returns at once; `load` is called only then. A failure here is met again, and handled, by the calls.
 * A thread started ahead of this call (`ExtractPool.prestart`) is taken by the workers or, when none start, retired.
 */
export function prepareExtraction(
	load: () => Promise<Extractor>,
	expected: number,
	languages: ReadonlySet<LanguageId>,
	expectedBytes = 0,
): void {
	expectExtraction(expectedBytes);
	const pool = sharedExtractPool();
	if (!pool.startsWorkersFor(expected, expectedBytes)) {
		pool.dropSpare(); // a thread started ahead for this extraction (`ExtractPool.prestart`) is not needed
		return;
	}
	load()
		.then((extractor) => {
			if (!isEngineExtractor(extractor)) return pool.dropSpare();
			void pool.warm(languages);
			return extractor.ensureLanguages(languages);
		})
		.catch(() => {});
}

/**
 * Starts the pool's parsing threads now, each loading the grammars of `languages`, for a caller about to give them a
 * short run of work while its own thread parses other files (a cold review lists the files its change reaches while
 * it measures the changed files): started at once, a thread's start and grammar loading overlap that caller's own
 * work. With `expected` (the jobs the caller's work may come to), only when a run of that many would start threads
 * (`useExtractWorkersFrom`): smaller work does not pay for a thread's start. Returns whether a thread runs (none
 * when `FOVEA_EXTRACT_THREADS` is 0 or threads failed to start); a thread given nothing retires after its idle time
 * without keeping the process alive.
 */
export function startExtractThreads(languages: Iterable<LanguageId>, expected?: number): boolean {
	const pool = sharedExtractPool();
	if (expected !== undefined && pool.liveWorkers === 0 && !pool.startsWorkersFor(expected)) return false;
	pool.warm(languages).catch(() => {});
	return pool.liveWorkers > 0;
}
