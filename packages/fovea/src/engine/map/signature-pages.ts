/**
 * Reads back the signatures an answer will show of symbols whose files are summaries (`refresh/fact-budget.ts` pages
 * them out of memory): their files' whole facts come from the fact cache, by the same content-addressed key the index
 * stored them under, and each summary symbol is given the signature of the whole facts' symbol at its place (a
 * summary keeps its file's symbols in order). A file the cache no longer holds, or holds with other symbols, is
 * skipped: its symbols are shown as kind and name, as a symbol with no signature always was.
 */
import type { FactCache } from "../cache/index.ts";
import { factKey } from "../cache-location.ts";
import type { GraphNode } from "../graph/index.ts";
import { type FileFacts, isPagedOut, keepPagedSignature, type SymbolFact } from "../model/index.ts";
import { isSummary } from "../refresh/fact-budget.ts";

/** Work counters of reading signatures back, for tests and benchmarks. */
export interface SignaturePageStats {
	/** Files whose whole facts were looked up in the cache. */
	filesRead: number;
	/** Signatures read back. */
	signaturesRead: number;
}

/**
 * Makes the signatures of `nodes` showable (see the module comment). `files` are the snapshot's facts their graph was
 * built from; `contentTerms` is the index's (it is part of the cache key). Files' nodes, and symbols whose signature
 * is resident or read back already, cost nothing.
 */
export async function readSignatures(
	nodes: Iterable<GraphNode | undefined>,
	files: ReadonlyMap<string, FileFacts>,
	cache: FactCache | undefined,
	contentTerms: boolean,
	stats?: SignaturePageStats,
): Promise<void> {
	if (cache === undefined) return;
	const wanted = new Map<string, FileFacts>();
	for (const node of nodes) {
		// A symbol with a signature to show (its own, or one read back already) needs nothing.
		if (node === undefined || node.kind === "file" || node.removed === true) continue;
		if (node.signature !== undefined || wanted.has(node.path)) continue;
		const facts = files.get(node.path);
		if (facts !== undefined && isSummary(facts)) wanted.set(node.path, facts);
	}
	if (wanted.size === 0) return;
	const keys = new Map<string, FileFacts>();
	for (const facts of wanted.values()) keys.set(factKey(facts.hash, facts.path, facts.language, contentTerms), facts);
	const found = await cache.getMany([...keys.keys()]);
	if (stats !== undefined) stats.filesRead += keys.size;
	for (const [key, summary] of keys) {
		const whole = found.get(key)?.symbols;
		if (whole === undefined || whole.length !== summary.symbols.length) continue;
		for (let i = 0; i < whole.length; i++) {
			const paged = summary.symbols[i] as SymbolFact;
			const own = whole[i] as SymbolFact;
			if (!isPagedOut(paged) || own.name !== paged.name || own.line !== paged.line) continue;
			keepPagedSignature(paged, own.signature);
			if (stats !== undefined) stats.signaturesRead++;
		}
	}
}
