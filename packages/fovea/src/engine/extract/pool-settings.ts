/**
 * What an extract pool takes (its options) and what it counts (its work counters, exact for tests and benchmarks).
 */
/** Exact work counters of a pool, for tests and benchmarks. */
export interface ExtractPoolStats {
	/** Worker threads created. */
	workersStarted: number;
	/** Workers that failed to start or were lost while running. */
	workerFailures: number;
	/** Workers terminated after being idle, or by `close`. */
	workersRetired: number;
	/** Threads started ahead (`prestart`) and retired unused; never counted in `workersStarted`. */
	sparesRetired: number;
	jobsByWorkers: number;
	/** Calls sent to at least one worker. */
	sharedCalls: number;
	/** Jobs extracted on the main thread, including `recoveredJobs`. */
	jobsByMain: number;
	/** Jobs a lost worker had claimed, extracted again on the main thread. */
	recoveredJobs: number;
	/** Time inside `extract`, summed per side (the workers' on their own threads). */
	mainExtractMs: number;
	workerExtractMs: number;
}

export interface ExtractPoolOptions {
	/** Worker threads at most; 0 extracts on the main thread only. Default: `extractThreads()` (`thread-count.ts`). */
	threads?: number;
	/** Calls with fewer jobs stay on the main thread unless a worker runs already (see the module comment). Default 48. */
	minJobs?: number;
	/** New workers start only for a call that is part of at least this many jobs (its `expected`). Default 1500. */
	startJobs?: number;
	/**
	 * New workers also start for a call that is part of at least this many bytes of source (its `expectedBytes`):
	 * parsing time follows bytes more than files (279 files of pytest take as long as 500 of vuejs/core's). Default
	 * none: files only.
	 */
	startBytes?: number;
	/**
	 * A worker idle this long is terminated. Default 1 s: the batches of one refresh follow each other within
	 * milliseconds, and a worker's heap and grammars are worth giving back before the queries that follow an index.
	 */
	idleMs?: number;
	/** The worker's entry module. Default: `defaultWorkerScript()` (`worker-script.ts`). */
	script?: URL;
}
