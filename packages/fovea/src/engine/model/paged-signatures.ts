/**
 * Signatures read back for symbols whose own signature was paged out: a summary (`refresh/fact-budget.ts`) keeps
 * each symbol's name, kind, lines and container, which the graph and the ranking read, but not its signature, which
 * only an answer shows (at 100,000 files ~650,000 summarized symbols, ~70 bytes each). An answer reads the signatures
 * it will show back from the fact cache first (`map/signature-pages.ts`) and puts them here, where a symbol's node
 * finds them (`graph/nodes.ts`).
 *
 * Bounded: the most recently read `MAX_PAGED` signatures are kept, so what a session's answers showed stays at hand
 * without the store growing back into the facts it stands in for. Keyed by the symbol's fact object, so a fact an
 * edit replaced is never given another's signature.
 */
import type { SymbolFact } from "./facts.ts";

/** The signature a symbol holds once its signature is paged out: nothing to show until it is read back. */
export const PAGED_OUT = "";

/** Signatures read back, at most (a focus shows at most ~50 symbols, an impact answer about as many). */
export const MAX_PAGED = 4096;

const paged = new Map<SymbolFact, string>();

/** Whether `symbol` holds no signature of its own (a summary's symbol): one must be read back to show it. */
export function isPagedOut(symbol: SymbolFact): boolean {
	return symbol.signature === PAGED_OUT;
}

/** The signature to show for `symbol`: its own, else one read back, else `undefined` (not read back, or lost). */
export function signatureOf(symbol: SymbolFact): string | undefined {
	if (symbol.signature !== PAGED_OUT) return symbol.signature;
	return paged.get(symbol);
}

/** Keeps `signature`, read back for `symbol`, as the most recently read; the oldest go past `MAX_PAGED`. */
export function keepPagedSignature(symbol: SymbolFact, signature: string): void {
	paged.delete(symbol);
	paged.set(symbol, signature);
	while (paged.size > MAX_PAGED) paged.delete(paged.keys().next().value as SymbolFact);
}

/** How many signatures read back are kept (for tests of the bound). */
export function pagedSignatureCount(): number {
	return paged.size;
}
