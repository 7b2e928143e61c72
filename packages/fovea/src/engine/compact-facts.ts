import type { FileFacts } from "./facts.ts";

/** Distinct identifiers kept for sharing; past this the table starts over (sharing is an optimization only). */
const MAX_SHARED = 200_000;
const shared = new Map<string, string>();

/**
 * Makes a file's facts cheap to keep resident, in place, and returns them. Two things cost memory here:
 * - a string cut from a tree-sitter node is a V8 slice of the whole source text, so one kept name or signature
 *   kept the entire file alive; every string is replaced by a standalone copy;
 * - the same identifiers (callee names, containers, import specifiers) repeat across thousands of files; they are
 *   shared through one bounded table, so each distinct name is stored once per process.
 * Signatures are copied but not shared: they are long and nearly all distinct.
 */
export function compactFacts(facts: FileFacts): FileFacts {
	for (const symbol of facts.symbols) {
		symbol.name = share(symbol.name);
		symbol.signature = standalone(symbol.signature);
		if (symbol.container !== undefined) symbol.container = share(symbol.container);
	}
	for (const imported of facts.imports) {
		imported.specifier = share(imported.specifier);
		if (imported.names !== undefined) imported.names = imported.names.map(share);
	}
	for (const call of facts.calls) {
		call.callee = share(call.callee);
		if (call.caller !== undefined) call.caller = share(call.caller);
	}
	for (const inherit of facts.inherits) {
		inherit.symbol = share(inherit.symbol);
		inherit.base = share(inherit.base);
	}
	if (facts.package !== undefined) facts.package = share(facts.package);
	return facts;
}

function share(value: string): string {
	const known = shared.get(value);
	if (known !== undefined) return known;
	if (shared.size >= MAX_SHARED) shared.clear();
	const copy = standalone(value);
	shared.set(copy, copy);
	return copy;
}

/**
 * A copy of `value` that does not point into a larger string: slicing a fresh concatenation flattens it into a new
 * buffer just one character longer than `value`, so the original source can be collected.
 */
function standalone(value: string): string {
	return ` ${value}`.slice(1);
}
