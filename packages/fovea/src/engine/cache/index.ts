/**
 * The fact cache on disk. Takes facts keyed by content hash and a root's manifest (path → size, times, hash); gives
 * them back across restarts, in pack segments with an index, within bounds on entries and bytes.
 *
 * @module
 */
export { FactCache } from "./fact-cache.ts";
export type { ManifestEntry } from "./manifest.ts";
