/**
 * Files that are mapped, but only best effort: the parser met syntax it could not read (symbols near it may be
 * missing or cut short), or the text holds replacement characters where the bytes were not UTF-8. Listed beside the
 * coverage gaps, so that a file read in part never passes for one read whole. "Parse errors", not "syntax errors":
 * the file may be valid and the grammar older than the language (tree-sitter's TypeScript grammar here does not
 * read `import("./x").T` in a type).
 */
import type { FileFacts } from "./facts.ts";

/** Why a mapped file is only mapped best effort. */
export type PartialReason = "parse-errors" | "not-utf8";

/** A mapped file whose facts are best effort, and why (one entry per reason). */
export interface PartialFile {
	path: string;
	reason: PartialReason;
}

/** The reasons `facts` are best effort, as entries for `path`; none for a clean file. */
export function partialEntries(path: string, facts: FileFacts): PartialFile[] {
	const out: PartialFile[] = [];
	if (facts.parseErrors > 0) out.push({ path, reason: "parse-errors" });
	if ((facts.replacementCharacters ?? 0) > 0) out.push({ path, reason: "not-utf8" });
	return out;
}

/** Whether `facts` are best effort for any reason (`partialEntries` would give some). */
export function isPartial(facts: FileFacts): boolean {
	return facts.parseErrors > 0 || (facts.replacementCharacters ?? 0) > 0;
}

/** How many files `partial` names (a file with two reasons has two entries). */
export function partialFileCount(partial: readonly PartialFile[]): number {
	return new Set(partial.map((entry) => entry.path)).size;
}
