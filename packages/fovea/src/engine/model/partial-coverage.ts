/**
 * Files that are mapped, but only best effort: the parser met syntax it could not read (symbols near it may be
 * missing or cut short), the text holds replacement characters where the bytes were not UTF-8, or the file's queries
 * ran out of time (a tree nested thousands deep). Listed beside the
 * coverage gaps, so that a file read in part never passes for one read whole. "Parse errors", not "syntax errors":
 * the file may be valid and the grammar older than the language (tree-sitter's TypeScript grammar here does not
 * read `import("./x").T` in a type).
 */
import type { FileFacts } from "./facts.ts";

/** Why a mapped file is only mapped best effort. */
export type PartialReason = "parse-errors" | "not-utf8" | "cut-short";

/** A mapped file whose facts are best effort, and why (one entry per reason). */
export interface PartialFile {
	path: string;
	reason: PartialReason;
}

/** Each reason, and whether `facts` have it: the one place the reasons are stated. */
const REASONS: readonly (readonly [PartialReason, (facts: FileFacts) => boolean])[] = [
	["parse-errors", (facts) => facts.parseErrors > 0],
	["not-utf8", (facts) => (facts.replacementCharacters ?? 0) > 0],
	["cut-short", (facts) => facts.cutShort === true],
];

/** The reasons `facts` are best effort, as entries for `path`; none for a clean file. */
export function partialEntries(path: string, facts: FileFacts): PartialFile[] {
	return REASONS.filter(([, has]) => has(facts)).map(([reason]) => ({ path, reason }));
}

/** Whether `facts` are best effort for any reason (`partialEntries` would give some), without building the entries. */
export function isPartial(facts: FileFacts): boolean {
	return REASONS.some(([, has]) => has(facts));
}

/** How many files `partial` names (a file with two reasons has two entries). */
export function partialFileCount(partial: readonly PartialFile[]): number {
	return new Set(partial.map((entry) => entry.path)).size;
}
