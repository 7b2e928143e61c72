/**
 * What crosses between the index, the extract pool and its worker threads: one file to extract, and how one call
 * is extracted. Types only, in a module of their own, so the pool, its run queue and its workers name them without
 * importing the entry point (`many.ts`) that calls the pool.
 */
import type { FileFacts, LanguageId } from "../model/index.ts";

/** One file to extract: what crosses to a worker thread. */
export interface ExtractJob {
	path: string;
	language: LanguageId;
	source: string;
	/** Count its content terms; default the extracting thread's setting (a worker's is not the caller's: set it). */
	contentTerms?: boolean;
	/** The source's content hash (`hashOf(source)`) when the caller has it already: extraction then skips hashing. */
	hash?: string;
	/**
	 * A tree visitor to run beside the extraction (`registerTreeVisitor`), by name; what it returns reaches the caller
	 * through `ExtractOptions.onVisited`. A thread that has not registered the name extracts the facts only.
	 */
	visit?: string;
	/** Data for that visitor (it crosses to a worker by structured clone). */
	visitWith?: unknown;
}

/** How a call is extracted; see `ExtractPool.extract` (`pool.ts`). */
export interface ExtractOptions {
	signal?: AbortSignal | undefined;
	onEach?: (() => void) | undefined;
	expected?: number | undefined;
	/** Bytes of source in the `expected` jobs: worker threads also start for a large total of bytes (`startBytes`). */
	expectedBytes?: number | undefined;
	/**
	 * Nothing follows this call in its refresh: once it is over, every worker without work retires at once instead of
	 * after `idleMs`, so a worker's heap does not stay through the graph build and the first answer that follow an
	 * index, which is where a process peaks.
	 */
	last?: boolean | undefined;
	/**
	 * The main thread takes jobs of this call only once this settles: until then it has other work of its own (a
	 * review measuring its changed files) and the call's jobs are the workers' alone. The call returns once every job
	 * is done: by the workers, or by the main thread as well once it may (a worker lost or none running: all of them).
	 */
	mainAfter?: Promise<unknown> | undefined;
	/**
	 * The caller's own parse of a job the main thread takes, tried first (as `RefreshOptions.sharedParse`: it gives
	 * the facts extraction would, and may do more with the tree); `undefined` leaves the job to extraction, with its
	 * visitor. For a caller whose own parse does less than the visitor where less is needed.
	 */
	here?: ((job: ExtractJob) => FileFacts | undefined) | undefined;
	/** Given what a job's visitor returned (`ExtractJob.visit`), when it returned something, with the job's index. */
	onVisited?: ((index: number, visited: unknown) => void) | undefined;
}
