/**
 * What an answer must say about the index it was ranked on beyond its coverage footer: files kept as summaries to
 * fit the memory budget, and an index still being built. Both leave an answer incomplete in ways a reader cannot
 * tell from the ranking itself, so they are said in words, with their counts, never left silent.
 */
import type { IndexingProgress, IndexSnapshot } from "./snapshot.ts";

const count = (n: number): string => n.toLocaleString("en-US");

/** The note of a snapshot taken while its first index runs: "partial: 12,400 of 100,000 files indexed". */
export function indexingNote(progress: IndexingProgress): string {
	return `partial: ${count(progress.indexed)} of ${count(progress.total)} files indexed; the index continues, ask again for the rest.`;
}

/** The note of a snapshot with summarized files, or "" without any. */
export function summarizedNote(snapshot: Pick<IndexSnapshot, "summarized">): string {
	const n = snapshot.summarized;
	if (n === 0) return "";
	const files = n === 1 ? "1 file is" : `${count(n)} files are`;
	return `${files} kept summarized to fit the memory budget (FOVEA_FACTS_MB): their calls and the words of their bodies are not ranked.`;
}

/** The notes `snapshot` calls for, one a line, or "" (see the module comment). */
export function indexNotes(snapshot: Pick<IndexSnapshot, "summarized" | "indexing">): string {
	const progress = snapshot.indexing;
	return [progress === undefined ? "" : indexingNote(progress), summarizedNote(snapshot)]
		.filter((line) => line !== "")
		.join("\n");
}

/** `text` with `notes` (from `indexNotes`) after it, or `text` alone. */
export function withNotes(text: string, notes: string): string {
	return notes === "" ? text : `${text}\n${notes}`;
}

/** The tokens left to an answer of `maxTokens` once its notes are said (about three characters a token). */
export function notedTokens(maxTokens: number, notes: string): number {
	return notes === "" ? maxTokens : Math.max(1, maxTokens - Math.ceil((notes.length + 1) / 3));
}
