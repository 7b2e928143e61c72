/**
 * Parallel extraction for large `extractMany` calls (a cold index): worker threads running `extract-worker.ts` take
 * jobs from the same shared queue as the main thread, which keeps extracting too, so one worker and the main thread
 * use both cores of a 2-core machine. Facts come back by structured clone and are compacted again on arrival, so
 * identifiers stay shared with the rest of the process.
 *
 * Design:
 * - Workers start lazily, on the first call with at least `minJobs` jobs whose extractor is the engine's own
 *   (`isEngineExtractor`: a wrapper's behaviour could not be reproduced in a worker). Smaller calls, such as the
 *   refresh after a one-file edit, stay on the main thread and start nothing.
 * - A worker keeps the process alive only while it has work: it is unref'd when idle and terminated after
 *   `idleMs` without work, so a long-lived host gives its memory back and a CLI exits as soon as its own work ends.
 * - A worker that fails to start or is lost mid-run costs nothing but time: the jobs it had claimed are extracted on
 *   the main thread. After a failure to start (e.g. a missing script) no further worker is started until
 *   {@link useExtractWorkerScript} names another script; after {@link MAX_CRASHES} losses, none either.
 */
import { Worker } from "node:worker_threads";
import { compactFacts } from "./compact-facts.ts";
import type { ExtractJob } from "./extract-many.ts";
import { type ExtractResult, ExtractRun, extractOne } from "./extract-run.ts";
import { extractThreads } from "./extract-threads.ts";
import type { FromWorker, ToWorker } from "./extract-worker.ts";
import type { LanguageId } from "./facts.ts";
import { type Extractor, isEngineExtractor } from "./parser.ts";

/** Exact work counters of a pool, for tests and benchmarks. */
export interface ExtractPoolStats {
	/** Worker threads created. */
	workersStarted: number;
	/** Workers that failed to start or were lost while running. */
	workerFailures: number;
	/** Workers terminated after being idle, or by `close`. */
	workersRetired: number;
	jobsByWorkers: number;
	/** Jobs extracted on the main thread, including `recoveredJobs`. */
	jobsByMain: number;
	/** Jobs a lost worker had claimed, extracted again on the main thread. */
	recoveredJobs: number;
	/** Time inside `extract`, summed per side (the workers' on their own threads). */
	mainExtractMs: number;
	workerExtractMs: number;
}

export interface ExtractPoolOptions {
	/** Worker threads at most; 0 extracts on the main thread only. Default: {@link extractThreads}. */
	threads?: number;
	/** Calls with fewer jobs stay on the main thread. Default 48. */
	minJobs?: number;
	/** A worker idle this long is terminated. Default 5 s. */
	idleMs?: number;
	/** The worker's entry module. Default: `extract-worker.ts` beside this module. */
	script?: URL;
}

/** Losses of running workers after which the pool stops starting new ones. */
const MAX_CRASHES = 3;
/** The main thread gives the event loop (and worker results) a turn this often while it extracts. */
const YIELD_MS = 12;
const DEFAULT_SCRIPT = new URL("./extract-worker.ts", import.meta.url);

interface PoolWorker {
	thread: Worker;
	/** Whether it loaded the extractor: a worker lost before that failed to start. */
	ready: boolean;
	/** Runs sent to this worker that it is not done with. */
	runs: Set<ExtractRun<PoolWorker>>;
	/** `warm` calls waiting for this worker's grammars, oldest first. */
	loads: (() => void)[];
	idleTimer: NodeJS.Timeout | undefined;
	retiring: boolean;
}

/** A pool of extraction worker threads; see the module comment. */
export class ExtractPool {
	readonly stats: ExtractPoolStats = {
		workersStarted: 0,
		workerFailures: 0,
		workersRetired: 0,
		jobsByWorkers: 0,
		jobsByMain: 0,
		recoveredJobs: 0,
		mainExtractMs: 0,
		workerExtractMs: 0,
	};
	readonly threads: number;
	readonly minJobs: number;
	readonly idleMs: number;
	#script: URL;
	readonly #workers = new Set<PoolWorker>();
	readonly #runs = new Map<number, ExtractRun<PoolWorker>>();
	#nextRun = 0;
	#crashes = 0;
	#startFailed = false;

	constructor(options: ExtractPoolOptions = {}) {
		this.threads = options.threads ?? extractThreads().threads;
		this.minJobs = options.minJobs ?? 48;
		this.idleMs = options.idleMs ?? 5000;
		this.#script = options.script ?? DEFAULT_SCRIPT;
	}

	/** Worker threads started and neither retired nor lost (starting, working or idle). */
	get liveWorkers(): number {
		return this.#workers.size;
	}

	/**
	 * Extracts each job, results in job order; `extractMany`'s contract: an extraction error is that job's result,
	 * `onEach` is called once per finished job, and when `signal` aborts the contiguous prefix of finished results
	 * is returned.
	 */
	async extract(
		extractor: Extractor,
		jobs: readonly ExtractJob[],
		options: { signal?: AbortSignal | undefined; onEach?: (() => void) | undefined } = {},
	): Promise<ExtractResult[]> {
		const { signal } = options;
		const run = new ExtractRun<PoolWorker>(++this.#nextRun, jobs, options.onEach);
		if (jobs.length >= this.minJobs && signal?.aborted !== true && isEngineExtractor(extractor)) this.#share(run);
		try {
			let slice = performance.now();
			while (signal?.aborted !== true) {
				const index = run.claim();
				if (index === undefined) break;
				this.#extractHere(extractor, run, index);
				if (performance.now() - slice > YIELD_MS) {
					await new Promise<void>((done) => setImmediate(done));
					slice = performance.now();
				}
			}
			await run.settled(signal?.aborted === true);
			if (signal?.aborted !== true) {
				// Jobs claimed by a worker that was lost.
				for (const index of run.missing()) {
					this.#extractHere(extractor, run, index);
					this.stats.recoveredJobs++;
				}
			}
			return run.prefix();
		} finally {
			this.#runs.delete(run.id);
			for (const worker of run.attached) this.#release(worker, run);
		}
	}

	/**
	 * Starts the workers now, if this pool would start any, and resolves once each has loaded the extractor and the
	 * grammars of `languages` (or has failed to). For a caller that knows a large extraction is coming.
	 */
	async warm(languages: Iterable<LanguageId> = []): Promise<void> {
		this.#fill();
		const message: ToWorker = { kind: "load", languages: [...new Set(languages)] };
		await Promise.all(
			[...this.#workers].map(
				(worker) =>
					new Promise<void>((loaded) => {
						worker.loads.push(loaded);
						this.#hold(worker);
						worker.thread.postMessage(message);
					}),
			),
		);
	}

	/** Points new workers at `script` (terminating current ones); `undefined` restores the default. */
	useScript(script: URL | undefined): void {
		this.#script = script ?? DEFAULT_SCRIPT;
		this.#startFailed = false;
		this.#crashes = 0;
		this.close();
	}

	/** Terminates every worker now; runs they were part of finish on the main thread. */
	close(): void {
		for (const worker of [...this.#workers]) this.#retire(worker);
	}

	#extractHere(extractor: Extractor, run: ExtractRun<PoolWorker>, index: number): void {
		const start = performance.now();
		const result = extractOne(extractor, run.jobs[index] as ExtractJob);
		this.stats.mainExtractMs += performance.now() - start;
		this.stats.jobsByMain++;
		run.settle(index, result);
	}

	/** Sends `run` to the workers, starting them up to `threads`. */
	#share(run: ExtractRun<PoolWorker>): void {
		this.#fill();
		if (this.#workers.size === 0) return;
		this.#runs.set(run.id, run);
		const message: ToWorker = { kind: "run", run: run.id, jobs: run.jobs, claims: run.claims };
		for (const worker of this.#workers) {
			worker.runs.add(run);
			run.attached.add(worker);
			this.#hold(worker);
			worker.thread.postMessage(message);
		}
	}

	/** Starts workers up to `threads`, unless starting failed before. */
	#fill(): void {
		while (this.#workers.size < this.threads && !this.#startFailed && this.#crashes < MAX_CRASHES) {
			if (this.#start() === undefined) break;
		}
	}

	#start(): PoolWorker | undefined {
		let thread: Worker;
		try {
			thread = new Worker(this.#script, { execArgv: workerExecArgv(process.execArgv) });
		} catch {
			this.#startFailed = true;
			this.stats.workerFailures++;
			return undefined;
		}
		this.stats.workersStarted++;
		const worker: PoolWorker = {
			thread,
			ready: false,
			runs: new Set(),
			loads: [],
			idleTimer: undefined,
			retiring: false,
		};
		this.#workers.add(worker);
		thread.on("message", (message: FromWorker) => this.#receive(worker, message));
		thread.on("error", () => {}); // the exit that follows does the bookkeeping
		thread.on("exit", () => this.#lost(worker));
		thread.unref(); // held only while a run or a `warm` call waits for it
		return worker;
	}

	#receive(worker: PoolWorker, message: FromWorker): void {
		if (message.kind === "ready") {
			worker.ready = true;
			return;
		}
		if (message.kind === "loaded") {
			worker.loads.shift()?.();
			this.#release(worker, undefined);
			return;
		}
		this.stats.workerExtractMs += message.extractMs;
		const run = this.#runs.get(message.run);
		if (run !== undefined) {
			for (const outcome of message.outcomes) {
				this.stats.jobsByWorkers++;
				run.settle(outcome.index, "facts" in outcome ? compactFacts(outcome.facts) : new Error(outcome.error));
			}
		}
		if (message.done) {
			run?.detach(worker);
			this.#release(worker, run);
		}
	}

	/** Something waits for `worker`: it keeps the process alive and is not retired. */
	#hold(worker: PoolWorker): void {
		clearTimeout(worker.idleTimer);
		worker.idleTimer = undefined;
		worker.thread.ref();
	}

	/** `worker` is done with `run` (or `run` is over); an idle worker stops holding the process and is retired later. */
	#release(worker: PoolWorker, run: ExtractRun<PoolWorker> | undefined): void {
		if (run !== undefined) worker.runs.delete(run);
		if (worker.runs.size > 0 || worker.loads.length > 0 || worker.retiring) return;
		worker.thread.unref();
		clearTimeout(worker.idleTimer);
		worker.idleTimer = setTimeout(() => this.#retire(worker), this.idleMs);
		worker.idleTimer.unref();
	}

	#retire(worker: PoolWorker): void {
		if (worker.retiring) return;
		worker.retiring = true;
		this.#workers.delete(worker); // counts no more, though its thread may take a moment to end
		clearTimeout(worker.idleTimer);
		this.stats.workersRetired++;
		void worker.thread.terminate();
	}

	/** The thread ended: retired as planned, or lost (failed to start, crashed); its runs go on without it. */
	#lost(worker: PoolWorker): void {
		this.#workers.delete(worker);
		clearTimeout(worker.idleTimer);
		if (!worker.retiring) {
			this.stats.workerFailures++;
			if (worker.ready) this.#crashes++;
			else this.#startFailed = true;
		}
		for (const loaded of worker.loads.splice(0)) loaded();
		for (const run of worker.runs) run.detach(worker);
		worker.runs.clear();
	}
}

/**
 * The process's Node options for a worker: all of them (loaders, conditions and the like apply to the worker's modules
 * too) except `--input-type`, which is for code given as a string and makes a worker started from a file fail.
 */
function workerExecArgv(execArgv: readonly string[]): string[] {
	const out: string[] = [];
	for (let i = 0; i < execArgv.length; i++) {
		const arg = execArgv[i] as string;
		if (arg === "--input-type") i++;
		else if (!arg.startsWith("--input-type=")) out.push(arg);
	}
	return out;
}

let shared: ExtractPool | undefined;
let sharedScript: URL | undefined;

/** The process's pool, created on first use with the FOVEA_EXTRACT_THREADS setting (warning once if invalid). */
export function sharedExtractPool(): ExtractPool {
	if (shared === undefined) {
		const { threads, warning } = extractThreads();
		if (warning !== undefined) process.emitWarning(warning, { code: "FOVEA_EXTRACT_THREADS" });
		shared = new ExtractPool({ threads, ...(sharedScript === undefined ? {} : { script: sharedScript }) });
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
