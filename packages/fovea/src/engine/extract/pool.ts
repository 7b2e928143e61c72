/**
 * Parallel extraction for large `extractMany` calls (a cold index): worker threads running `worker.ts` take
 * jobs from the same shared queue as the main thread, which keeps extracting too, so one worker and the main thread
 * use both cores of a 2-core machine. Facts come back by structured clone and are compacted again on arrival, so
 * identifiers stay shared with the rest of the process.
 *
 * Design:
 * - Only calls with at least `minJobs` jobs whose extractor is the engine's own (`isEngineExtractor`: a wrapper's
 *   behaviour could not be reproduced in a worker) are shared; smaller ones, such as the refresh after a one-file
 *   edit, stay on the main thread, unless a worker runs already (its grammars loaded): then any call of two jobs or
 *   more is shared, so the short last batch of a large index (15 of vuejs/core's 527 files, 23 of pytest's 279) does
 *   not leave that worker idle while the main thread parses alone. Workers start lazily, and only for a call that
 *   is part of at least `startJobs` (a large cold index): a worker costs CPU to start and load its grammars, and on
 *   two cores two parsing threads each parse slower than one alone, so a worker pays for itself only on a large
 *   index (see bench/HISTORY.md).
 *   Once started, a worker serves every shared call.
 * - A worker keeps the process alive only while it has work: it is unref'd when idle and terminated after
 *   `idleMs` without work, so a long-lived host gives its memory back and a CLI exits as soon as its own work ends;
 *   at once when the call said it was the last of its refresh (`last`).
 * - A caller with work of its own first (a cold review measuring its change) can leave a call to the workers until
 *   its thread may join (`mainAfter`), take that thread's share through its own parse (`here`), and have a named
 *   tree visitor run beside each job's extraction in whichever thread parses it (`tree-visitor.ts`, `onVisited`).
 * - A worker that fails to start or is lost mid-run costs nothing but time: the jobs it had claimed are extracted on
 *   the main thread. After a failure to start (e.g. a missing script) no further worker is started until
 *   {@link useExtractWorkerScript} names another script; after {@link MAX_CRASHES} losses, none either.
 */
import type { LanguageId } from "../model/index.ts";
import { compactFacts } from "../model/index.ts";
import { TimeSlice } from "../pace/index.ts";
import { baselineCompilerEverywhere, type Extractor, isEngineExtractor } from "../parse/index.ts";
import type { ExtractJob, ExtractOptions } from "./job.ts";
import type { ExtractPoolOptions, ExtractPoolStats } from "./pool-settings.ts";
import { type ExtractResult, ExtractRun, extractOne, type JobDone } from "./run.ts";
import { ExtractThread, type ThreadEvents } from "./thread.ts";
import { extractThreads } from "./thread-count.ts";
import { defaultWorkerScript } from "./worker-script.ts";
import type { FromWorker, ToWorker, WorkerSettings } from "./worker-service.ts";

/**
 * While the last call said more jobs follow (`expected`), an idle worker waits this many times `idleMs` before it
 * retires: between two calls of one refresh the main thread reads, caches and writes segments, which on a busy
 * machine outlasts the idle time, and a 100,000-file cold index started its one worker 11 times, loading its
 * grammars each time. The refresh's last call still retires it at once.
 */
const MORE_EXPECTED_HOLD = 10;

/** A call shares with a worker already running from this many jobs: with one, the main thread claims it first anyway. */
const LIVE_MIN_JOBS = 2;

/** Losses of running workers after which the pool stops starting new ones. */
const MAX_CRASHES = 3;

/** See the module comment; a process can change it (`useExtractWorkersFrom`). */
export const DEFAULT_START_JOBS = 1500;

/** A pool of extraction worker threads; see the module comment. */
export class ExtractPool {
	readonly stats: ExtractPoolStats = {
		workersStarted: 0,
		workerFailures: 0,
		workersRetired: 0,
		sparesRetired: 0,
		sharedCalls: 0,
		jobsByWorkers: 0,
		jobsByMain: 0,
		recoveredJobs: 0,
		mainExtractMs: 0,
		workerExtractMs: 0,
	};
	readonly threads: number;
	readonly minJobs: number;
	/** Settable: a process can learn after the pool exists that threads pay off sooner (see `useExtractWorkersFrom`). */
	startJobs: number;
	/** Settable like `startJobs` (see `ExtractPoolOptions.startBytes`). */
	startBytes: number;
	readonly idleMs: number;
	/** Decided when the first worker starts (see {@link defaultWorkerScript}). */
	#script: URL | undefined;
	/** Threads not ended yet, retiring ones included until they exit. */
	readonly #threads = new Set<ExtractThread>();
	/** The thread `prestart` started, until a call takes it or it ends. */
	#spare: ExtractThread | undefined;
	/** How long a worker released now idles before it retires (see `MORE_EXPECTED_HOLD`). */
	#idleAfter = 0;
	readonly #runs = new Map<number, ExtractRun<ExtractThread>>();
	#nextRun = 0;
	#crashes = 0;
	#startFailed = false;
	readonly #events: ThreadEvents = {
		message: (thread, message) => this.#receive(thread, message),
		exit: (thread) => this.#ended(thread),
	};

	constructor(options: ExtractPoolOptions = {}) {
		this.threads = options.threads ?? extractThreads().threads;
		this.minJobs = options.minJobs ?? 48;
		this.startJobs = options.startJobs ?? DEFAULT_START_JOBS;
		this.startBytes = options.startBytes ?? Number.POSITIVE_INFINITY;
		this.idleMs = options.idleMs ?? 1000;
		this.#idleAfter = this.idleMs;
		this.#script = options.script;
	}

	/**
	 * Whether a call of `jobs` jobs that is part of `expected` would be shared with worker threads (by the engine's
	 * own extractor): what a caller weighs before parsing files on the main thread itself. `expectedBytes`: the bytes
	 * of source of those `expected` jobs.
	 */
	sharesWithWorkers(jobs: number, expected: number, expectedBytes = 0): boolean {
		if (this.threads === 0 || jobs < LIVE_MIN_JOBS) return false;
		if (this.liveWorkers > 0) return true;
		return jobs >= this.minJobs && this.#startsWorkers(jobs, expected, expectedBytes);
	}

	/**
	 * Whether a run of calls bringing `expected` jobs in all would start workers: then a caller that knows that total
	 * before its first call (a refresh, right after its walk) can start them at once (`warm`): a worker's start and
	 * grammar loading then overlap the caller's reads instead of leaving the main thread to parse alone.
	 */
	startsWorkersFor(expected: number, expectedBytes = 0): boolean {
		return this.threads > 0 && expected >= this.minJobs && this.#startsWorkers(expected, expected, expectedBytes);
	}

	/**
	 * Whether a call of `jobs` jobs, part of `expected` jobs of `bytes` bytes of source, is large enough to start
	 * workers (a large cold index).
	 */
	#startsWorkers(jobs: number, expected: number, bytes: number): boolean {
		return Math.max(jobs, expected) >= this.startJobs || bytes >= this.startBytes;
	}

	/** Worker threads started and neither retiring nor lost (starting, working or idle). */
	get liveWorkers(): number {
		return this.#working().length;
	}

	/**
	 * Extracts each job, results in job order; `extractMany`'s contract: an extraction error is that job's result,
	 * `onEach` is called once per finished job, and when `signal` aborts the contiguous prefix of finished results
	 * is returned. `expected` is how many jobs the call is part of (its own and those that will follow).
	 */
	async extract(
		extractor: Extractor,
		jobs: readonly ExtractJob[],
		options: ExtractOptions = {},
	): Promise<ExtractResult[]> {
		const { signal } = options;
		this.#idleAfter =
			options.last !== true && (options.expected ?? 0) > jobs.length ? this.idleMs * MORE_EXPECTED_HOLD : this.idleMs;
		const run = new ExtractRun<ExtractThread>(++this.#nextRun, jobs, options.onEach, options.onVisited);
		const large = jobs.length >= this.minJobs;
		if (
			(large || (jobs.length >= LIVE_MIN_JOBS && this.liveWorkers > 0)) &&
			signal?.aborted !== true &&
			isEngineExtractor(extractor)
		) {
			this.#share(run, large && this.#startsWorkers(jobs.length, options.expected ?? 0, options.expectedBytes ?? 0));
		}
		try {
			// Until the main thread may join, the workers work alone: it waits for that, for them to finish, or an abort.
			if (options.mainAfter !== undefined) {
				const working = run.attached.size > 0 ? [run.settled(false)] : [];
				await Promise.race([options.mainAfter.catch(() => {}), ...working, aborted(signal)]);
			}
			// The event loop (and the workers' results) gets a turn after every slice of extraction.
			const slice = new TimeSlice();
			while (signal?.aborted !== true) {
				const index = run.claim();
				if (index === undefined) break;
				this.#extractHere(extractor, run, index, options.here);
				if (slice.due) await slice.turn();
			}
			await run.settled(signal?.aborted === true);
			if (signal?.aborted !== true) {
				// Jobs claimed by a worker that was lost.
				for (const index of run.missing()) {
					this.#extractHere(extractor, run, index, options.here);
					this.stats.recoveredJobs++;
				}
			}
			return run.prefix();
		} finally {
			this.#runs.delete(run.id);
			for (const thread of run.attached) thread.release(run, this.#idleAfter);
			if (options.last === true) for (const thread of this.#working()) thread.retireIfIdle();
		}
	}

	/**
	 * Starts the workers now, if this pool would start any, and resolves once each has loaded the extractor and the
	 * grammars of `languages` (or has failed to). For a caller that knows a large extraction is coming.
	 */
	async warm(languages: Iterable<LanguageId> = []): Promise<void> {
		const message: ToWorker = { kind: "load", languages: [...new Set(languages)], settings: settings() };
		// A large extraction is coming: the workers wait for it past their usual idle time.
		this.#idleAfter = this.idleMs * MORE_EXPECTED_HOLD;
		await Promise.all(
			this.#fill().map(
				(thread) =>
					new Promise<void>((loaded) => {
						thread.loads.push(loaded);
						thread.send(message);
					}),
			),
		);
	}

	/**
	 * Starts one thread ahead of the decision to use it, for a caller that expects a large extraction before it can
	 * know (a CLI on a root with nothing cached, before its walk): Node's start of the thread and the loading of its
	 * modules then overlap the walk instead of the main thread's first parses. The thread holds no grammar and does
	 * not keep the process alive; it counts as started only once a call or `warm` takes it, and `dropSpare` (or its
	 * idle time) retires it otherwise. Nothing happens if a worker runs already or none may start.
	 */
	prestart(): void {
		if (this.#spare !== undefined || this.threads === 0 || this.#working().length > 0) return;
		if (this.#startFailed || this.#crashes >= MAX_CRASHES) return;
		try {
			this.#script ??= defaultWorkerScript();
			this.#spare = new ExtractThread(this.#script, this.idleMs, this.#events);
		} catch {
			this.#startFailed = true;
			this.stats.workerFailures++;
			return;
		}
		this.#spare.release(undefined, this.idleMs * MORE_EXPECTED_HOLD);
	}

	/** Retires the thread `prestart` started if no call took it: the extraction it was started for starts none. */
	dropSpare(): void {
		this.#spare?.retire();
	}

	/** Points new workers at `script` (terminating current ones); `undefined` restores the default. */
	useScript(script: URL | undefined): void {
		this.#script = script;
		this.#startFailed = false;
		this.#crashes = 0;
		this.close();
	}

	/** Terminates every worker now; runs they were part of finish on the main thread. */
	close(): void {
		for (const thread of this.#threads) thread.retire();
		this.dropSpare();
	}

	#extractHere(
		extractor: Extractor,
		run: ExtractRun<ExtractThread>,
		index: number,
		here: ExtractOptions["here"],
	): void {
		const start = performance.now();
		const job = run.jobs[index] as ExtractJob;
		const own = here === undefined ? undefined : ownParse(here, job);
		const { result, visited } = own ?? extractOne(extractor, job);
		this.stats.mainExtractMs += performance.now() - start;
		this.stats.jobsByMain++;
		run.settle(index, result, visited);
	}

	/** Sends `run` to the workers, starting them up to `threads` if `start`. */
	#share(run: ExtractRun<ExtractThread>, start: boolean): void {
		const threads = start ? this.#fill() : this.#working();
		if (threads.length === 0) return;
		this.stats.sharedCalls++;
		this.#runs.set(run.id, run);
		const message: ToWorker = { kind: "run", run: run.id, jobs: run.jobs, claims: run.claims, settings: settings() };
		for (const thread of threads) {
			thread.runs.add(run);
			run.attached.add(thread);
			thread.send(message);
		}
	}

	#working(): ExtractThread[] {
		return [...this.#threads].filter((thread) => !thread.retiring);
	}

	/** Starts workers up to `threads`, unless starting failed before; returns the working ones. */
	#fill(): ExtractThread[] {
		let working = this.#working().length;
		const spare = this.#spare;
		if (spare !== undefined && !spare.retiring && working < this.threads) {
			this.#spare = undefined;
			this.#threads.add(spare);
			this.stats.workersStarted++;
			working++;
		}
		while (working < this.threads && !this.#startFailed && this.#crashes < MAX_CRASHES) {
			try {
				this.#script ??= defaultWorkerScript();
				this.#threads.add(new ExtractThread(this.#script, this.idleMs, this.#events));
			} catch {
				this.#startFailed = true;
				this.stats.workerFailures++;
				break;
			}
			this.stats.workersStarted++;
			working++;
		}
		return this.#working();
	}

	#receive(thread: ExtractThread, message: FromWorker): void {
		if (message.kind === "ready") return;
		if (message.kind === "loaded") {
			thread.loads.shift()?.();
			thread.release(undefined, this.#idleAfter);
			return;
		}
		this.stats.workerExtractMs += message.extractMs;
		const run = this.#runs.get(message.run);
		if (run !== undefined) {
			for (const outcome of message.outcomes) {
				this.stats.jobsByWorkers++;
				if ("facts" in outcome)
					run.settle(outcome.index, compactFacts(outcome.facts, { cloned: true }), outcome.visited);
				else run.settle(outcome.index, new Error(outcome.error));
			}
		}
		if (message.done) {
			run?.detach(thread);
			thread.release(run, this.#idleAfter);
		}
	}

	/** The thread ended: retired as planned, or lost (failed to start, crashed); its runs go on without it. */
	#ended(thread: ExtractThread): void {
		const spare = thread === this.#spare;
		if (spare) this.#spare = undefined;
		this.#threads.delete(thread);
		if (thread.retiring) this.stats[spare ? "sparesRetired" : "workersRetired"]++;
		else {
			this.stats.workerFailures++;
			if (thread.ready) this.#crashes++;
			else this.#startFailed = true;
		}
		for (const run of thread.runs) run.detach(thread);
		thread.runs.clear();
	}
}

/** Resolves when `signal` aborts (never without one). */
function aborted(signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve) => {
		if (signal?.aborted === true) resolve();
		else signal?.addEventListener("abort", () => resolve(), { once: true });
	});
}

/** The caller's own parse of `job` (`ExtractOptions.here`) as a job done; `undefined` when it declined the job. */
function ownParse(here: NonNullable<ExtractOptions["here"]>, job: ExtractJob): JobDone | undefined {
	try {
		const facts = here(job);
		return facts === undefined ? undefined : { result: facts };
	} catch (error) {
		return { result: error instanceof Error ? error : new Error(String(error)) };
	}
}

/** The main thread's settings that a worker follows, as they are now (see `ToWorker`). */
function settings(): WorkerSettings {
	return { baselineCompilerEverywhere: baselineCompilerEverywhere() };
}
