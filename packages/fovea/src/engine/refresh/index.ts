/**
 * The index of one root, kept current. Takes a root and what may have changed (a walk, named paths, watch
 * events); gives an `IndexSnapshot` of its facts and coverage gaps, reading and parsing only the files that changed.
 *
 * @module
 */
export { CodeIndex, type CodeIndexOptions, type RefreshOptions, type SharedParse } from "./code-index.ts";
export { FirstIndex } from "./first-index.ts";
export { indexNotes, notedTokens, withNotes } from "./index-notes.ts";
export { RootWatch } from "./root-watch.ts";
export type { IndexingProgress, IndexSnapshot } from "./snapshot.ts";
