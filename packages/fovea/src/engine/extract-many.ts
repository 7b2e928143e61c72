/**
 * Extraction of many files in a row on the main thread, yielding to the event loop as it goes. Its own module
 * because `extractMany` is the boundary a worker pool could take over without the index changing.
 */
import type { FileFacts, LanguageId } from "./facts.ts";
import type { Extractor } from "./parser.ts";

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
