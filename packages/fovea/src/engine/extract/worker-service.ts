/**
 * The worker-thread side of the extract pool (`pool.ts`): loads the same extractor as the main thread, and
 * for each run it is sent, claims jobs from the run's shared counter until none is left, sending the facts (or the
 * error message) back in small batches, with what a job's tree visitor saw (`tree-visitor.ts`). Kept to what
 * extraction needs so it starts fast. `worker.ts` is the entry that serves; a package whose jobs name tree visitors
 * has an entry of its own that registers them first, then serves.
 */
import { type MessagePort, parentPort } from "node:worker_threads";
import type { FileFacts, LanguageId } from "../model/index.ts";
import { isLanguageId } from "../model/index.ts";
import { type Extractor, loadExtractor, useBaselineCompilerEverywhere } from "../parse/index.ts";
import type { ExtractJob } from "./job.ts";
import { extractOne } from "./run.ts";

export { registerTreeVisitor, type TreeVisitor } from "./tree-visitor.ts";

/**
 * What the pool sends: load grammars ahead of work, or take part in a run. Each carries the main thread's settings,
 * which the thread follows from its first message on, before it compiles anything: a thread started ahead of the
 * decision to use it (`ExtractPool.prestart`) cannot know them when it starts.
 */
export type ToWorker = { kind: "load"; languages: readonly LanguageId[]; settings: WorkerSettings } | RunMessage;

/** A run handed to a worker: every job of one call, and the counter both sides claim job indices from. */
export interface RunMessage {
	kind: "run";
	settings: WorkerSettings;
	run: number;
	jobs: readonly ExtractJob[];
	/** `Int32Array` over a `SharedArrayBuffer`: element 0 is the next unclaimed job index. */
	claims: Int32Array;
}

/** One finished job: its facts and what its visitor saw, or the message of the error its extraction threw. */
export type JobOutcome = { index: number; facts: FileFacts; visited?: unknown } | { index: number; error: string };

/**
 * What a worker sends back: `ready` once the extractor is loaded, `loaded` per `load`, and a run's results in
 * batches; `done` marks a run's last batch from this worker, which then claims no more of its jobs.
 */
export type FromWorker =
	| { kind: "ready" }
	| { kind: "loaded" }
	| { kind: "results"; run: number; outcomes: JobOutcome[]; extractMs: number; done: boolean };

/** The settings of the main thread that a worker follows (see {@link ToWorker}). */
export interface WorkerSettings {
	baselineCompilerEverywhere: boolean;
}

/** Results are sent after this many jobs or this long, whichever comes first, so progress and aborts stay fine-grained. */
const FLUSH_JOBS = 16;
const FLUSH_MS = 50;

/**
 * Serves the pool from this worker thread: loads the extractor, then takes the pool's messages. Throws on the main
 * thread. Tree visitors this thread is to run are registered before.
 */
export function serveExtraction(): void {
	if (parentPort === null) throw new Error("extract-worker runs as a worker thread of the extract pool");
	const port = parentPort;
	/** Whether this thread follows the main thread's settings yet: from its first message on, for good. */
	let following = false;
	let queue: Promise<void> = Promise.resolve();
	loadExtractor().then(
		(extractor) => {
			port.on("message", (message: ToWorker) => {
				if (!following) {
					following = true;
					if (message.settings.baselineCompilerEverywhere === true) useBaselineCompilerEverywhere();
				}
				queue = queue.then(() =>
					message.kind === "run" ? work(port, extractor, message) : load(port, extractor, message.languages),
				);
			});
			port.postMessage({ kind: "ready" } satisfies FromWorker);
		},
		(error: unknown) => {
			throw error; // an uncaught error ends the worker; the pool extracts its jobs on the main thread
		},
	);
}

async function load(port: MessagePort, extractor: Extractor, languages: readonly LanguageId[]): Promise<void> {
	try {
		await extractor.ensureLanguages(languages.filter(isLanguageId));
	} catch {
		// A grammar that fails to load here fails again in a run, which then leaves its jobs to the main thread.
	}
	port.postMessage({ kind: "loaded" } satisfies FromWorker);
}

async function work(port: MessagePort, extractor: Extractor, { run, jobs, claims }: RunMessage): Promise<void> {
	let outcomes: JobOutcome[] = [];
	let extractMs = 0;
	let flushedAt = performance.now();
	const flush = (done: boolean) => {
		port.postMessage({ kind: "results", run, outcomes, extractMs, done } satisfies FromWorker);
		outcomes = [];
		extractMs = 0;
		flushedAt = performance.now();
	};
	if (Atomics.load(claims, 0) < jobs.length) {
		try {
			// Invalid languages are left to `extract`, which turns each into that job's error.
			await extractor.ensureLanguages(new Set(jobs.map((job) => job.language).filter(isLanguageId)));
		} catch {
			flush(true); // claims nothing: the main thread takes every job this worker would have
			return;
		}
	}
	for (let index = Atomics.add(claims, 0, 1); index < jobs.length; index = Atomics.add(claims, 0, 1)) {
		const start = performance.now();
		const { result, visited } = extractOne(extractor, jobs[index] as ExtractJob);
		outcomes.push(
			result instanceof Error
				? { index, error: result.message }
				: { index, facts: result, ...(visited === undefined ? {} : { visited }) },
		);
		const end = performance.now();
		extractMs += end - start;
		if (outcomes.length >= FLUSH_JOBS || end - flushedAt >= FLUSH_MS) flush(false);
	}
	flush(true);
}
