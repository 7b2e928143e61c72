/**
 * The process's one extraction pool, and how a process tunes it: `extractMany` uses it, so every index of every root
 * in a process shares the same parsing threads. A bundled CLI points it at its own worker build.
 *
 * Its worker script and start threshold stay process setters, not options of a code map: there is one pool per
 * process, so they cannot differ between maps; the script depends on how the process was built (bundled or run
 * from sources) and the threshold on how it runs (a short CLI run), both known to the process's entry point alone.
 * The setters also apply to a pool that exists already (workers restart on the new script, the threshold changes
 * in place), so a configure-once call would add an order rule without removing any state.
 */

import { DEFAULT_START_JOBS, ExtractPool } from "./extract/pool.ts";
import { extractThreads } from "./extract/thread-count.ts";
import { isCount } from "./model/count.ts";

let shared: ExtractPool | undefined;
let sharedScript: URL | undefined;
let sharedStartJobs: number | undefined;
let sharedStartBytes: number | undefined;

/** The process's pool, created on first use with the FOVEA_EXTRACT_THREADS setting (warning once if invalid). */
export function sharedExtractPool(): ExtractPool {
	if (shared === undefined) {
		const { threads, warning } = extractThreads();
		if (warning !== undefined) process.emitWarning(warning, { code: "FOVEA_EXTRACT_THREADS" });
		shared = new ExtractPool({
			threads,
			...(sharedScript === undefined ? {} : { script: sharedScript }),
			...(sharedStartJobs === undefined ? {} : { startJobs: sharedStartJobs }),
			...(sharedStartBytes === undefined ? {} : { startBytes: sharedStartBytes }),
		});
	}
	return shared;
}

/**
 * Points the shared pool's workers at another entry module, e.g. a bundled CLI's own build of `extract-worker.ts`;
 * `undefined` restores the default (`extract-worker.ts` beside this module). Workers already started are terminated.
 */
export function useExtractWorkerScript(url: URL | undefined): void {
	sharedScript = url;
	shared?.useScript(url);
}

/**
 * Sets from how many jobs a call may start the shared pool's workers, and from how many bytes of source (files or
 * bytes, whichever is reached first); `undefined` restores the default (1,500 jobs, see `extract-pool.ts` for the
 * measurements behind it; bytes: none).
 */
export function useExtractWorkersFrom(jobs: number | undefined, bytes?: number): void {
	if (jobs !== undefined && !isCount(jobs)) throw new RangeError(`useExtractWorkersFrom: ${jobs} is not a job count`);
	if (bytes !== undefined && !isCount(bytes))
		throw new RangeError(`useExtractWorkersFrom: ${bytes} is not a byte count`);
	sharedStartJobs = jobs;
	sharedStartBytes = bytes;
	if (shared !== undefined) {
		shared.startJobs = jobs ?? DEFAULT_START_JOBS;
		shared.startBytes = bytes ?? Number.POSITIVE_INFINITY;
	}
}
