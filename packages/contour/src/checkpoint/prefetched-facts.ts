/**
 * Facts of a project slice's files parsed ahead by Fovea's parsing threads (`ProjectSlice.prefetch`), kept apart
 * until the slice asks for them, so the slice holds what it would hold without them. Each hand-over is one run of
 * Fovea's extract pool that the threads work through while the review's own thread does other work; the review's
 * thread joins a run only once it wants one of its files (`wait`), then takes its share through its own parse (`here`).
 */
import { type ExtractJob, extractMany, type FileFacts, type LanguageId, loadExtractor } from "pi-fovea/engine";

/** A file's prefetched facts and what the run's tree visitor saw of it (`ExtractJob.visit`), if anything. */
export interface Prefetched {
	facts: FileFacts;
	visited?: unknown;
}

interface Run {
	paths: ReadonlySet<string>;
	done: Promise<void>;
	join(): void;
}

/** The prefetched facts of one slice, and the runs under way. */
export class PrefetchedFacts {
	readonly #ready = new Map<string, Prefetched>();
	readonly #runs: Run[] = [];
	readonly #handed = new Set<string>();
	readonly #here: ((job: ExtractJob) => FileFacts | undefined) | undefined;

	/** `here`: the review's own parse of a file, for the share of a run its thread takes. */
	constructor(here?: (job: ExtractJob) => FileFacts | undefined) {
		this.#here = here;
	}

	/** Hands `jobs` not handed before to the parsing threads; `signal` ends what they have not started. */
	hand(jobs: readonly ExtractJob[], signal: AbortSignal): void {
		const fresh = jobs.filter((job) => !this.#handed.has(job.path));
		if (fresh.length === 0) return;
		for (const job of fresh) this.#handed.add(job.path);
		const visited = new Map<number, unknown>();
		let join = () => {};
		const joined = new Promise<void>((resolve) => {
			join = resolve;
		});
		const done = loadExtractor([...new Set(fresh.map((job) => job.language as LanguageId))])
			.then((extractor) =>
				extractMany(extractor, fresh, {
					signal,
					mainAfter: joined,
					// This thread's share goes through the review's own parse, which measures only what clone search is
					// likely to take, else through plain extraction; the threads measure every file, as they cannot tell.
					here: (job) =>
						this.#here?.(job) ??
						extractor.extract(job.path, job.source, job.language, { contentTerms: job.contentTerms ?? true }),
					onVisited: (index, seen) => visited.set(index, seen),
				}),
			)
			.then(
				(results) =>
					results.forEach((result, i) => {
						if (!(result instanceof Error))
							this.#ready.set((fresh[i] as ExtractJob).path, { facts: result, visited: visited.get(i) });
					}),
				() => {}, // what the threads did not parse, the slice parses itself
			);
		this.#runs.push({ paths: new Set(fresh.map((job) => job.path)), done, join });
	}

	/** Waits for every run holding one of `paths`, taking this thread's share of what is not started yet. */
	async wait(paths: readonly string[]): Promise<void> {
		const runs = this.#runs.filter((run) => paths.some((path) => run.paths.has(path)));
		for (const run of runs) run.join();
		await Promise.all(runs.map((run) => run.done));
	}

	/** The prefetched facts of `path`, once: a second call gives `undefined`. */
	take(path: string): Prefetched | undefined {
		const found = this.#ready.get(path);
		this.#ready.delete(path);
		return found;
	}
}
