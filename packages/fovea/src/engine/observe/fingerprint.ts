import { createHash } from "node:crypto";
import type { FileFacts, SymbolFact } from "../model/index.ts";

/**
 * The semantic fingerprint of a file: its symbols with their signatures, its imports and the names it calls,
 * without line numbers, comments or whitespace. Two versions with equal fingerprints mean the same thing to the
 * code map, so a comment- or formatting-only edit is not drift.
 */
export function semanticFingerprint(facts: FileFacts): string {
	const symbols = facts.symbols.map((s) => `${s.kind} ${qualified(s)} ${squash(s.signature)}`).sort();
	const imports = facts.imports.map((i) => i.specifier).sort();
	const calls = facts.calls.callee.map((callee, i) => `${facts.calls.caller[i]}>${callee}`).sort();
	const inherits = facts.inherits.map((i) => `${i.symbol}<${i.relation}<${i.base}`).sort();
	// A summary's signatures are paged out: their digest stands in for them.
	const paged = facts.signatureDigest === undefined ? [] : [facts.signatureDigest];
	return createHash("sha256")
		.update(JSON.stringify([symbols, imports, calls, inherits, ...paged]))
		.digest("hex")
		.slice(0, 32);
}

/** What `describeDrift` reads of a file's facts: what a baseline keeps of each file (`baseline.ts`). */
export type DriftFacts = Pick<FileFacts, "symbols" | "imports" | "signatureDigest">;

/** What changed in meaning between two versions of a file, as short human-readable items (at most `limit`). */
export function describeDrift(before: DriftFacts | undefined, after: DriftFacts | undefined, limit = 6): string[] {
	if (before === undefined && after === undefined) return [];
	if (before === undefined) return [`new file (${(after as DriftFacts).symbols.length} symbols)`];
	if (after === undefined) return ["deleted"];
	const items: string[] = [];
	const old = new Map(before.symbols.map((s) => [`${s.kind} ${qualified(s)}`, s]));
	const now = new Map(after.symbols.map((s) => [`${s.kind} ${qualified(s)}`, s]));
	for (const [key, symbol] of now) {
		const previous = old.get(key);
		if (previous === undefined) items.push(`+ ${key} (line ${symbol.line})`);
		else if (squash(previous.signature) !== squash(symbol.signature)) items.push(`~ ${key}: ${symbol.signature}`);
	}
	for (const key of old.keys()) if (!now.has(key)) items.push(`- ${key}`);
	// Summaries keep a digest of their signatures, not the signatures: which one changed is not known here.
	const digests = [before.signatureDigest, after.signatureDigest];
	if (digests[0] !== undefined && digests[1] !== undefined && digests[0] !== digests[1])
		items.push("~ a signature changed");
	const importsBefore = new Set(before.imports.map((i) => i.specifier));
	const importsAfter = new Set(after.imports.map((i) => i.specifier));
	const added = [...importsAfter].filter((i) => !importsBefore.has(i));
	const removed = [...importsBefore].filter((i) => !importsAfter.has(i));
	if (added.length > 0) items.push(`+ imports ${added.slice(0, 3).join(", ")}${added.length > 3 ? ", …" : ""}`);
	if (removed.length > 0) items.push(`- imports ${removed.slice(0, 3).join(", ")}${removed.length > 3 ? ", …" : ""}`);
	if (items.length === 0) items.push("bodies changed (calls differ)");
	return items.length > limit ? [...items.slice(0, limit), `… ${items.length - limit} more`] : items;
}

function qualified(symbol: SymbolFact): string {
	return symbol.container === undefined ? symbol.name : `${symbol.container}.${symbol.name}`;
}

/** A signature without whitespace and without a trailing comma before a closing bracket (a formatter adds those). */
function squash(text: string): string {
	return text.replace(/\s+/g, "").replace(/,(?=[)\]}>])/g, "");
}
