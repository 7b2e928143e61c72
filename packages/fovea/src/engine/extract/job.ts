/**
 * What crosses between the index, the extract pool and its worker threads: one file to extract, and how one call
 * is extracted. Types only, in a module of their own, so the pool, its run queue and its workers name them without
 * importing the entry point (`many.ts`) that calls the pool.
 */
import type { LanguageId } from "../model/index.ts";

/** One file to extract: what crosses to a worker thread. */
export interface ExtractJob {
	path: string;
	language: LanguageId;
	source: string;
	/** Count its content terms; default the extracting thread's setting (a worker's is not the caller's: set it). */
	contentTerms?: boolean;
	/** The source's content hash (`hashOf(source)`) when the caller has it already: extraction then skips hashing. */
	hash?: string;
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
}
