/**
 * How many worker threads the extract pool may start. Its own module because the setting has a rule of its own:
 * one thread fewer than the cores (the main thread extracts too), at most three (each thread holds its own wasm heap
 * and grammars), unless FOVEA_EXTRACT_THREADS says otherwise.
 */
import { availableParallelism } from "node:os";
import { envInt } from "../../workspace/env.ts";

/** The environment variable that sets the thread count; `0` turns the pool off. */
export const EXTRACT_THREADS_VARIABLE = "FOVEA_EXTRACT_THREADS";
/** More threads than this are never started, whatever the variable says. */
export const MAX_EXTRACT_THREADS = 16;
const DEFAULT_CEILING = 3;

/**
 * The worker thread count: FOVEA_EXTRACT_THREADS when it is a non-negative integer (clamped to
 * {@link MAX_EXTRACT_THREADS}), else `min(cores - 1, 3)`. An invalid value does not stop indexing: it gives the
 * default and a `warning` naming the variable, for the caller to emit.
 */
export function extractThreads(
	env: Record<string, string | undefined> = process.env,
	cores: number = availableParallelism(),
): { threads: number; warning?: string } {
	const fallback = Math.max(0, Math.min(cores - 1, DEFAULT_CEILING));
	const raw = env[EXTRACT_THREADS_VARIABLE]?.trim();
	if (raw === undefined || raw === "") return { threads: fallback };
	// -1 marks what is not a non-negative integer (envInt gives the fallback for non-integers, clamps negatives).
	const threads = envInt(EXTRACT_THREADS_VARIABLE, -1, -1, MAX_EXTRACT_THREADS, env);
	if (threads >= 0) return { threads };
	return {
		threads: fallback,
		warning: `${EXTRACT_THREADS_VARIABLE} must be a non-negative integer (0 turns the extract pool off), got ${JSON.stringify(raw)}; using ${fallback}`,
	};
}
