import { type CallSites, type FileFacts, type ImportFact, type SymbolFact, symbolFact } from "./facts.ts";

/** Distinct identifiers kept for sharing; past this the table starts over (sharing is an optimization only). */
const MAX_SHARED = 200_000;
const shared = new Map<string, string>();

/**
 * Lets the table of shared identifiers go. The index calls it once a refresh has taken in its facts: the strings
 * stay shared in the facts that hold them, and the table itself (~3.5 MB at 10,000 files) only matters while a
 * batch of files comes in. A file extracted later may hold its own copy of a name; sharing is an optimization only.
 */
export function forgetSharedNames(): void {
	shared.clear();
}

/** Where a file's fact strings come from, which says whether they must be copied. */
export interface CompactOptions {
	/**
	 * The strings were cut from the parsed source text (the main thread's own extraction): each is a V8 slice of the
	 * whole source, so one kept name or signature would keep the entire file alive, and every string is replaced by a
	 * standalone copy. Strings decoded from JSON (the fact cache) or from a worker's message are standalone already
	 * and only shared. Default false.
	 */
	cutFromSource?: boolean;
	/**
	 * The facts came through a structured clone (a parsing thread's message). V8 gives each object such a clone
	 * makes room for more properties than it has (a call site, when each was an object, took 75 bytes instead of the
	 * 48 of the literal the extractor built). Every symbol, import and inheritance is then built again as a literal
	 * of its own shape; the call sites' columns are arrays, which a clone copies at their size. Default false.
	 */
	cloned?: boolean;
}

/**
 * Makes a file's facts cheap to keep resident, in place, and returns them. The same identifiers (callee names,
 * containers, import specifiers) repeat across thousands of files; they are shared through one bounded table, so
 * each distinct name is stored once per process. Signatures are not shared (long and nearly all distinct), only
 * copied when cut from the source (see {@link CompactOptions}).
 */
export function compactFacts(facts: FileFacts, options: CompactOptions = {}): FileFacts {
	const own = options.cutFromSource === true ? standalone : kept;
	const share = sharing(own);
	if (options.cloned === true) {
		facts.symbols = facts.symbols.map((symbol) => symbolLiteral(symbol, share, own));
		facts.imports = facts.imports.map((imported) => importLiteral(imported, share));
		facts.inherits = facts.inherits.map((inherit) => ({
			symbol: share(inherit.symbol),
			base: share(inherit.base),
			line: inherit.line,
			relation: inherit.relation === "extends" ? "extends" : "implements",
		}));
		facts.language = share(facts.language) as FileFacts["language"];
	} else {
		for (const symbol of facts.symbols) {
			symbol.name = share(symbol.name);
			symbol.signature = own(symbol.signature);
			if (symbol.container !== undefined) symbol.container = share(symbol.container);
		}
		shareImportNames(facts.imports, share);
		for (const inherit of facts.inherits) {
			inherit.symbol = share(inherit.symbol);
			inherit.base = share(inherit.base);
		}
	}
	shareCallNames(facts.calls, share);
	// The extractor grows its lists by push, which leaves up to half again and 16 slots spare in each: copies
	// hold exactly their entries (lists decoded from JSON or a clone are exact already).
	if (options.cutFromSource === true) {
		facts.symbols = facts.symbols.slice();
		facts.imports = facts.imports.slice();
		facts.inherits = facts.inherits.slice();
		const { callee, caller, line } = facts.calls;
		facts.calls = { callee: callee.slice(), caller: caller.slice(), line: line.slice() };
	}
	if (facts.literals !== undefined) facts.literals = facts.literals.map(share);
	if (facts.routes !== undefined)
		facts.routes = facts.routes.map(({ method, path, line, handler }) =>
			handler === undefined
				? { method: share(method), path: share(path), line }
				: { method: share(method), path: share(path), line, handler: share(handler) },
		);
	if (facts.package !== undefined) facts.package = share(facts.package);
	return facts;
}

/**
 * A file's imports as `compactFacts` leaves them in facts cut from the parsed source, for a caller that extracted the
 * imports alone (`withSyntaxTrees`' `imports()`): the same values, strings shared and standalone, the list exact.
 */
export function compactImports(imports: ImportFact[]): ImportFact[] {
	shareImportNames(imports, sharing(standalone));
	return imports.slice();
}

type Share = (value: string) => string;

/** Shares through the bounded table, each new string kept as `own` makes it. */
function sharing(own: Share): Share {
	return (value) => {
		const known = shared.get(value);
		if (known !== undefined) return known;
		if (shared.size >= MAX_SHARED) shared.clear();
		const copy = own(value);
		shared.set(copy, copy);
		return copy;
	};
}

function shareImportNames(imports: readonly ImportFact[], share: Share): void {
	for (const imported of imports) {
		imported.specifier = share(imported.specifier);
		if (imported.names !== undefined) imported.names = imported.names.map(share);
	}
}

function symbolLiteral(symbol: SymbolFact, share: Share, own: Share): SymbolFact {
	const container = symbol.container === undefined ? undefined : share(symbol.container);
	// Kinds cloned from a thread arrive as a copy per symbol; shared, they are one string each.
	const kind = share(symbol.kind) as SymbolFact["kind"];
	return symbolFact(
		share(symbol.name),
		kind,
		symbol.line,
		symbol.endLine,
		own(symbol.signature),
		container,
		symbol.exported,
	);
}

function importLiteral(imported: ImportFact, share: Share): ImportFact {
	const specifier = share(imported.specifier);
	return imported.names === undefined
		? { specifier, line: imported.line }
		: { specifier, line: imported.line, names: imported.names.map(share) };
}

function shareCallNames(calls: CallSites, share: Share): void {
	const { callee, caller } = calls;
	for (let i = 0; i < callee.length; i++) {
		callee[i] = share(callee[i] as string);
		const enclosing = caller[i] as string;
		if (enclosing !== "") caller[i] = share(enclosing);
	}
}

const kept = (value: string): string => value;

/**
 * V8 cuts a substring of at least this many characters as a slice: a small object pointing into its parent string
 * (V8's `SlicedString::kMinLength`); shorter substrings are copied.
 */
export const SLICE_MIN_LENGTH = 13;

/**
 * A flat copy of `value` that does not point into a larger string. A short one is cut from a fresh concatenation,
 * which copies it. A longer one would be cut as a slice of that concatenation, two strings where one will do, so it
 * goes through a JSON round trip, which builds one flat string (and quotes and unquotes every character exactly,
 * lone surrogates included): the heap holds the name once instead of its larger parent string, at no measurable
 * cost to extraction.
 */
function standalone(value: string): string {
	return value.length < SLICE_MIN_LENGTH ? ` ${value}`.slice(1) : (JSON.parse(JSON.stringify(value)) as string);
}
