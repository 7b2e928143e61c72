/**
 * One `extractMany` call as the extract pool runs it: the shared queue (a counter in shared memory that the main
 * thread and every worker claim job indices from, one at a time, so no thread sits on a batch another could take),
 * the results in job order, and when the call may return. Apart from the pool so the rules that keep results
 * complete — every claimed job is settled, by its worker or, if that worker is lost, by the main thread — read on
 * their own.
 */

import type { FileFacts } from "../model/index.ts";
import type { Extractor } from "../parse/index.ts";
import type { ExtractJob } from "./job.ts";
import { extractVisited } from "./tree-visitor.ts";

/** A job's result: its facts, or the error its extraction threw. */
export type ExtractResult = FileFacts | Error;

/** A job done: its result, and what its visitor returned (`ExtractJob.visit`), if anything. */
export interface JobDone {
	result: ExtractResult;
	visited?: unknown;
}

/**
 * Extracts one job on this thread, with its visitor when this thread has it registered; an error thrown by the
 * extractor becomes the job's result.
 */
export function extractOne(extractor: Extractor, job: ExtractJob): JobDone {
	try {
		const visited = extractVisited(job);
		if (visited !== undefined) return { result: visited.facts, visited: visited.visited };
		return {
			result: extractor.extract(job.path, job.source, job.language, { contentTerms: job.contentTerms, hash: job.hash }),
		};
	} catch (error) {
		return { result: error instanceof Error ? error : new Error(String(error)) };
	}
}

/** The shared queue and results of one call; `W` is whatever stands for a worker taking part. */
export class ExtractRun<W> {
	readonly id: number;
	readonly jobs: readonly ExtractJob[];
	/** Element 0 is the next unclaimed index; shared with the workers, which claim with `Atomics.add` too. */
	readonly claims = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
	/** Workers sent this run that have not said they are done with it and have not been lost. */
	readonly attached = new Set<W>();
	readonly #results: (ExtractResult | undefined)[];
	readonly #onEach: (() => void) | undefined;
	readonly #onVisited: ((index: number, visited: unknown) => void) | undefined;
	#settled = 0;
	/** How many jobs will be settled: every job, or, once stopped, those claimed before. Unknown while claiming. */
	#limit: number | undefined;
	#wake: (() => void) | undefined;

	constructor(
		id: number,
		jobs: readonly ExtractJob[],
		onEach: (() => void) | undefined,
		onVisited?: (index: number, visited: unknown) => void,
	) {
		this.id = id;
		this.jobs = jobs;
		this.#results = new Array(jobs.length);
		this.#onEach = onEach;
		this.#onVisited = onVisited;
	}

	/** The next job index for the main thread, or `undefined` when every job is claimed. */
	claim(): number | undefined {
		const index = Atomics.add(this.claims, 0, 1);
		return index < this.jobs.length ? index : undefined;
	}

	/** Records a finished job (once per job) and calls `onVisited` (when its visitor returned something) and `onEach`. */
	settle(index: number, result: ExtractResult, visited?: unknown): void {
		if (this.#results[index] !== undefined) return;
		this.#results[index] = result;
		if (visited !== undefined) this.#onVisited?.(index, visited);
		this.#settled++;
		this.#onEach?.();
		this.#check();
	}

	/** `worker` claims no more of this run's jobs: it said so, or it was lost. */
	detach(worker: W): void {
		if (this.attached.delete(worker)) this.#check();
	}

	/**
	 * Resolves once no claimed job can still arrive: all claimed jobs are settled, or no worker is left that could
	 * settle one. `stop` ends claiming first (an abort: only jobs already claimed will be waited for); without it,
	 * every job is claimed already (the main thread claims until none is left before it waits).
	 */
	settled(stop: boolean): Promise<void> {
		const claimed = stop ? Atomics.exchange(this.claims, 0, this.jobs.length) : this.jobs.length;
		this.#limit = Math.min(claimed, this.jobs.length);
		return new Promise<void>((wake) => {
			this.#wake = wake;
			this.#check();
		});
	}

	/** Indices of jobs not settled (those of a lost worker), in order. */
	missing(): number[] {
		const out: number[] = [];
		for (let i = 0; i < this.jobs.length; i++) if (this.#results[i] === undefined) out.push(i);
		return out;
	}

	/** The results of the contiguous prefix of settled jobs (all of them when nothing is missing). */
	prefix(): ExtractResult[] {
		const out: ExtractResult[] = [];
		for (const result of this.#results) {
			if (result === undefined) break;
			out.push(result);
		}
		return out;
	}

	#check(): void {
		if (this.#wake === undefined || this.#limit === undefined) return;
		if (this.#settled < this.#limit && this.attached.size > 0) return;
		const wake = this.#wake;
		this.#wake = undefined;
		wake();
	}
}
