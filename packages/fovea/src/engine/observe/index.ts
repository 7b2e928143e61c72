/**
 * What a session looked at and changed, per root. Takes what the agent's tools did (reads, searches, edits and
 * their paths) and the roots they touched; gives attention, the semantic baseline and its drift, provenance of
 * changes, and the probes run after a turn. Knows nothing of Pi: the extension hands it plain values.
 *
 * @module
 */
export { Observer } from "./observer.ts";
