/**
 * The memory budget of one root's resident facts. No file of a root is ever left out of its index for lack of
 * room: once the facts kept in memory reach the budget, every further file is kept as a summary (its symbols,
 * imports and inheritance, which the graph's nodes and import edges need) without its call sites and content terms,
 * the two facts that grow with a file's length. A summarized file is still found by its path and its names and still
 * takes part in the import graph; its calls add no edges and words of its body do not rank it. The snapshot counts
 * summarized files, and answers say how many there are, so what the budget left out is never silent.
 *
 * A summary keeps the names an import brings in only where resolution reads them (Python's `from package import
 * module`): elsewhere they name nothing the graph links.
 *
 * A summary's symbols are paged out of memory too when the index has a fact cache to read them back from: they keep
 * their names, kinds, lines and containers (what the graph and the ranking read) but not their signatures, which only
 * an answer shows; an answer reads the signatures it shows back from the cache (`map/signature-pages.ts`), so what it
 * prints is the same. Without a cache a summary keeps its signatures.
 *
 * Sizes are an estimate of V8's heap bytes (object headers, slots, one-byte strings), not a measure: the budget
 * bounds the facts' growth with the root, and the benchmark reports the process's real peak RSS beside it.
 */
import { envInt } from "../../workspace/env.ts";
import {
	type CallSites,
	type FileFacts,
	PAGED_OUT,
	type SymbolFact,
	signatureDigest,
	symbolFact,
} from "../model/index.ts";

/** Resident facts of one root, at most, unless FOVEA_FACTS_MB says otherwise. */
export const DEFAULT_FACT_BUDGET_MB = 160;

/** The budget in bytes from FOVEA_FACTS_MB (16 MB to 64 GB), read when an index is made. */
export function factBudgetFromEnv(): number {
	return envInt("FOVEA_FACTS_MB", DEFAULT_FACT_BUDGET_MB, 16, 65_536) * 1024 * 1024;
}

/** Bytes of a one-byte string held alone (header and characters, rounded to V8's 8-byte words); none when empty. */
function stringBytes(value: string): number {
	return value.length === 0 ? 0 : 16 + Math.ceil(value.length / 8) * 8;
}

/**
 * The estimated heap bytes of `facts` with what keeps them resident: the object and its arrays, the file's state and
 * its entries in the index's maps, each symbol (its name and signature), import and inheritance, the call sites'
 * three columns (callee names are shared across files, so only their slots count) and the content terms. The
 * constants were set against V8's retained heap on generated polyglot files (~5.9 KB a file whole, ~4.3 KB
 * summarized with its signatures); the estimate is 10-20% below it. Computed each time it is asked (a pass over the
 * file's symbols and imports), not kept in a table by facts object: that costs a weak entry per file for as long as
 * the facts live.
 */
export function factBytes(facts: FileFacts): number {
	let bytes = 1000 + stringBytes(facts.path) + stringBytes(facts.hash);
	for (const symbol of facts.symbols) bytes += 112 + stringBytes(symbol.name) + stringBytes(symbol.signature);
	for (const imported of facts.imports)
		bytes += 56 + stringBytes(imported.specifier) + 8 * (imported.names?.length ?? 0);
	bytes += 64 * facts.inherits.length;
	bytes += 3 * 16 + 36 * facts.calls.callee.length;
	if (facts.contentTerms !== undefined) bytes += stringBytes(facts.contentTerms);
	return bytes;
}

/** Whether `facts` is a summary kept in place of a file's whole facts (see the module comment). */
export function isSummary(facts: FileFacts): boolean {
	return facts.calls === SUMMARY_CALLS;
}

/**
 * The call sites of every summary: one set of empty columns, frozen, instead of an object and three arrays per
 * summarized file (~130 bytes each, at 100,000 files most of them summaries). Also what marks a summary: no other
 * facts hold this object.
 */
const SUMMARY_CALLS: CallSites = Object.freeze({
	callee: Object.freeze([]) as unknown as string[],
	caller: Object.freeze([]) as unknown as string[],
	line: Object.freeze([]) as unknown as number[],
});

/**
 * `facts` without its call sites and content terms, and when `pageable` (the signatures can be read back from a fact
 * cache) its symbols without their signatures (see the module comment). Facts the caller `owns` (fresh from a parse
 * or the cache, held by nothing else) have their symbols' signatures dropped in place: new symbols for every summary
 * made the whole facts' symbols garbage, which at 100,000 files raised the heap's peak by more than the signatures
 * saved. Facts held elsewhere (published in a snapshot, a caller's own parse) are never changed: their symbols are
 * copied.
 */
export function summarize(facts: FileFacts, pageable = false, owns = false): FileFacts {
	if (isSummary(facts)) return facts;
	// Every other fact is kept as it is, so a fact added to the model stays in summaries unless it is named here.
	const { contentTerms: _terms, calls: _calls, ...kept } = facts;
	let symbols = facts.symbols;
	// Read before the signatures go: a change of one is still a change of the file's meaning (`observe/fingerprint.ts`).
	const digest = pageable ? signatureDigest(symbols) : undefined;
	if (pageable && owns) for (const symbol of symbols) symbol.signature = PAGED_OUT;
	else if (pageable) symbols = symbols.map(pagedOut);
	let imports = facts.imports;
	if (facts.language !== "python" && imports.some((imported) => imported.names !== undefined)) {
		if (owns) for (const imported of imports) imported.names = undefined;
		else imports = imports.map(({ specifier, line }) => ({ specifier, line }));
	}
	// One literal with every property: one added afterwards would cost each summary an array of properties.
	return digest === undefined
		? { ...kept, symbols, imports, calls: SUMMARY_CALLS }
		: { ...kept, symbols, imports, calls: SUMMARY_CALLS, signatureDigest: digest };
}

/** `symbol` without its signature: a literal of its own shape (see `symbolFact`), sharing its strings. */
function pagedOut(symbol: SymbolFact): SymbolFact {
	const { name, kind, line, endLine, container, exported } = symbol;
	return symbolFact(name, kind, line, endLine, PAGED_OUT, container, exported);
}

/**
 * The running account of one refresh against the budget: it starts from what stays resident as it is, then each
 * file's facts are admitted whole while they fit, and summarized once they do not.
 */
export class FactBudget {
	readonly limit: number;
	/** Whether summaries page their signatures out: the index has a working fact cache to read them back from. */
	#pageable = false;
	#used = 0;

	constructor(limit: number) {
		this.limit = Math.max(0, limit);
	}

	/** Estimated bytes of the facts accounted so far. */
	get used(): number {
		return this.#used;
	}

	/**
	 * Starts an account at `bytes` already resident; summaries made in it page their signatures out when `pageable`
	 * (a fact cache can give them back).
	 */
	start(bytes: number, pageable: boolean): void {
		this.#used = Math.max(0, bytes);
		this.#pageable = pageable;
	}

	/** Accounts facts that stay resident as they are (a file unchanged since it was admitted). */
	keep(facts: FileFacts): void {
		this.#used += factBytes(facts);
	}

	/**
	 * The facts to keep resident for a file: `facts` when they fit, else their summary; accounted either way. `owns`
	 * says the facts are held by nothing else, so a summary may change them in place (see `summarize`).
	 */
	admit(facts: FileFacts, owns = false): FileFacts {
		const whole = factBytes(facts);
		if (!isSummary(facts) && this.#used + whole <= this.limit) {
			this.#used += whole;
			return facts;
		}
		const summary = summarize(facts, this.#pageable, owns);
		this.#used += factBytes(summary);
		return summary;
	}
}
