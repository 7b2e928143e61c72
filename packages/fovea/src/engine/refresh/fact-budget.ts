/**
 * The memory budget of one root's resident facts. No file of a root is ever left out of its index for lack of
 * room: once the facts kept in memory reach the budget, every further file is kept as a summary (its symbols,
 * imports and inheritance, which the graph's nodes and import edges need) without its call sites and content terms,
 * the two facts that grow with a file's length. A summarized file is still found by its path and its names and still
 * takes part in the import graph; its calls add no edges and words of its body do not rank it. The snapshot counts
 * summarized files, and answers say how many there are, so what the budget left out is never silent.
 *
 * Sizes are an estimate of V8's heap bytes (object headers, slots, one-byte strings), not a measure: the budget
 * bounds the facts' growth with the root, and the benchmark reports the process's real peak RSS beside it.
 */
import { envInt } from "../../workspace/env.ts";
import type { CallSites, FileFacts } from "../model/index.ts";

/** Resident facts of one root, at most, unless FOVEA_FACTS_MB says otherwise. */
export const DEFAULT_FACT_BUDGET_MB = 160;

/** The budget in bytes from FOVEA_FACTS_MB (16 MB to 64 GB), read when an index is made. */
export function factBudgetFromEnv(): number {
	return envInt("FOVEA_FACTS_MB", DEFAULT_FACT_BUDGET_MB, 16, 65_536) * 1024 * 1024;
}

/** Estimated bytes of each facts object, computed once (facts are never changed after they are published). */
const sizes = new WeakMap<FileFacts, number>();
/** Facts that are summaries made by `summarize`. */
const summaries = new WeakSet<FileFacts>();

/** Bytes of a one-byte string held alone (header and characters, rounded to V8's 8-byte words). */
function stringBytes(value: string): number {
	return 16 + Math.ceil(value.length / 8) * 8;
}

/**
 * The estimated heap bytes of `facts` with what keeps them resident: the object and its arrays, the file's state and
 * its entries in the index's maps, each symbol (its name and signature), import and inheritance, the call sites'
 * three columns (callee names are shared across files, so only their slots count) and the content terms. The
 * constants were set against V8's retained heap on generated polyglot files (~5.9 KB a file whole, ~4.3 KB
 * summarized); the estimate is 10-20% below it.
 */
export function factBytes(facts: FileFacts): number {
	const known = sizes.get(facts);
	if (known !== undefined) return known;
	let bytes = 1000 + stringBytes(facts.path) + stringBytes(facts.hash);
	for (const symbol of facts.symbols) bytes += 112 + stringBytes(symbol.name) + stringBytes(symbol.signature);
	for (const imported of facts.imports)
		bytes += 56 + stringBytes(imported.specifier) + 8 * (imported.names?.length ?? 0);
	bytes += 64 * facts.inherits.length;
	bytes += 3 * 16 + 36 * facts.calls.callee.length;
	if (facts.contentTerms !== undefined) bytes += stringBytes(facts.contentTerms);
	sizes.set(facts, bytes);
	return bytes;
}

/** Whether `facts` is a summary kept in place of a file's whole facts (see the module comment). */
export function isSummary(facts: FileFacts): boolean {
	return summaries.has(facts);
}

/**
 * The call sites of every summary: one set of empty columns, frozen, instead of an object and three arrays per
 * summarized file (~130 bytes each, at 100,000 files most of them summaries).
 */
const SUMMARY_CALLS: CallSites = Object.freeze({
	callee: Object.freeze([]) as unknown as string[],
	caller: Object.freeze([]) as unknown as string[],
	line: Object.freeze([]) as unknown as number[],
});

/** `facts` without its call sites and content terms (see the module comment). */
export function summarize(facts: FileFacts): FileFacts {
	if (summaries.has(facts)) return facts;
	// Every other fact is kept as it is, so a fact added to the model stays in summaries unless it is named here.
	const { contentTerms: _terms, calls: _calls, ...kept } = facts;
	const summary: FileFacts = { ...kept, calls: SUMMARY_CALLS };
	summaries.add(summary);
	return summary;
}

/**
 * The running account of one refresh against the budget: it starts from what stays resident as it is, then each
 * file's facts are admitted whole while they fit, and summarized once they do not.
 */
export class FactBudget {
	readonly limit: number;
	#used = 0;

	constructor(limit: number) {
		this.limit = Math.max(0, limit);
	}

	/** Estimated bytes of the facts accounted so far. */
	get used(): number {
		return this.#used;
	}

	/** Starts an account at `bytes` already resident. */
	start(bytes: number): void {
		this.#used = Math.max(0, bytes);
	}

	/** Accounts facts that stay resident as they are (a file unchanged since it was admitted). */
	keep(facts: FileFacts): void {
		this.#used += factBytes(facts);
	}

	/** The facts to keep resident for a file: `facts` when they fit, else their summary; accounted either way. */
	admit(facts: FileFacts): FileFacts {
		const whole = factBytes(facts);
		if (!summaries.has(facts) && this.#used + whole <= this.limit) {
			this.#used += whole;
			return facts;
		}
		const summary = summarize(facts);
		this.#used += factBytes(summary);
		return summary;
	}
}
