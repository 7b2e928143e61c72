/**
 * The facts Fovea extracts from one source file: plain data, content-addressed, safe to cache on disk and to hand
 * to the graph. Line numbers are 1-based. Paths are relative to the project root, with `/` separators.
 */

/** Bump when extraction output changes, so cached facts from an older extractor are not reused. */
export const EXTRACTOR_VERSION = 11;

/** Languages the engine parses; any other file is a visible coverage gap. */
export type LanguageId = "typescript" | "tsx" | "javascript" | "python" | "go" | "rust" | "java";

export type SymbolKind =
	| "function"
	| "method"
	| "class"
	| "interface"
	| "type"
	| "enum"
	| "struct"
	| "trait"
	| "module"
	| "constant";

/** Every symbol kind, in the order they are named to a caller. */
export const SYMBOL_KINDS: readonly SymbolKind[] = [
	"function",
	"method",
	"class",
	"interface",
	"type",
	"enum",
	"struct",
	"trait",
	"module",
	"constant",
];

/** `kind` as a symbol kind; an Error naming the kinds otherwise (a misspelt kind would silently rank nothing). */
export function symbolKind(kind: string): SymbolKind {
	const found = SYMBOL_KINDS.find((known) => known === kind);
	if (found === undefined)
		throw new Error(`unknown symbol kind ${JSON.stringify(kind)}: use ${SYMBOL_KINDS.join(", ")}`);
	return found;
}

/** A named definition. `container` is the enclosing class/struct/trait/impl/module name, for methods. */
export interface SymbolFact {
	name: string;
	kind: SymbolKind;
	line: number;
	endLine: number;
	/** The declaration's first line (or header up to the body), trimmed, at most 200 characters. */
	signature: string;
	container?: string;
	exported?: boolean;
}

/**
 * A symbol fact as one literal per combination of its optional properties. A property added to a literal afterwards
 * is kept outside the object, in an array of its own: ~40 bytes more for each of the tens of thousands of symbols
 * a large root holds.
 */
export function symbolFact(
	name: string,
	kind: SymbolKind,
	line: number,
	endLine: number,
	signature: string,
	container: string | undefined,
	exported: boolean | undefined,
): SymbolFact {
	if (container === undefined) {
		return exported === undefined
			? { name, kind, line, endLine, signature }
			: { name, kind, line, endLine, signature, exported };
	}
	return exported === undefined
		? { name, kind, line, endLine, signature, container }
		: { name, kind, line, endLine, signature, container, exported };
}

/** An import as written (`specifier`), before resolution to a file. `names` are the imported identifiers. */
export interface ImportFact {
	specifier: string;
	line: number;
	names?: string[];
}

/** A call site: the called name (last identifier of the callee expression) and the enclosing symbol, if any. */
export interface CallFact {
	callee: string;
	line: number;
	caller?: string;
}

/**
 * A file's call sites in columns, in source order: site `i` calls `callee[i]` at `line[i]` from `caller[i]`, the
 * enclosing symbol (`name` or `Container.name`), or `""` at file level. Columns rather than a `CallFact` per site:
 * call sites are the most numerous facts (tens a file), and an object each costs 48 bytes plus its slot. Every
 * column has one entry per site.
 */
export interface CallSites {
	callee: string[];
	caller: string[];
	line: number[];
}

/** Call sites with none recorded. */
export function noCalls(): CallSites {
	return { callee: [], caller: [], line: [] };
}

/** The call sites of `calls`, in their order, as columns. */
export function callSitesOf(calls: readonly CallFact[]): CallSites {
	const sites = noCalls();
	for (const call of calls) addCall(sites, call.callee, call.line, call.caller);
	return sites;
}

/** Appends one call site (`caller` undefined or `""` at file level). */
export function addCall(sites: CallSites, callee: string, line: number, caller: string | undefined): void {
	sites.callee.push(callee);
	sites.caller.push(caller ?? "");
	sites.line.push(line);
}

/** The call sites as one `CallFact` each (no `caller` at file level), for reading and printing. */
export function callList(sites: CallSites): CallFact[] {
	return sites.callee.map((callee, i) => {
		const caller = sites.caller[i] as string;
		const line = sites.line[i] as number;
		return caller === "" ? { callee, line } : { callee, line, caller };
	});
}

/** Whether `value` has the shape of `CallSites`: three arrays of one length, of strings, strings and integers. */
export function isCallSites(value: unknown): value is CallSites {
	if (typeof value !== "object" || value === null) return false;
	const { callee, caller, line } = value as Record<string, unknown>;
	if (!Array.isArray(callee) || !Array.isArray(caller) || !Array.isArray(line)) return false;
	const n = callee.length;
	if (caller.length !== n || line.length !== n) return false;
	for (let i = 0; i < n; i++) {
		if (typeof callee[i] !== "string" || typeof caller[i] !== "string" || !Number.isInteger(line[i])) return false;
	}
	return true;
}

/** `symbol` extends or implements `base` (a name as written, last identifier only). */
export interface InheritFact {
	symbol: string;
	base: string;
	line: number;
	relation: "extends" | "implements";
}

/**
 * A route a web framework serves from this file: `method` upper case (`ANY` when the framework does not say), `path`
 * normalised (`route-path.ts`: a leading `/`, no trailing one, every parameter written `:name`), the line it is
 * declared on, and the handler's name as written, parts joined by `.` (`getUser`, `users.show`, `handlers.List`), when
 * the handler is named rather than inline or the file itself (a file-convention router). A mount (`MOUNT`) names the
 * module it serves under `path`.
 */
export interface RouteFact {
	method: string;
	path: string;
	line: number;
	handler?: string;
}

/** Everything extracted from one file. */
export interface FileFacts {
	path: string;
	language: LanguageId;
	/** sha256 of the content bytes and the extractor version, hex. */
	hash: string;
	bytes: number;
	lines: number;
	symbols: SymbolFact[];
	imports: ImportFact[];
	calls: CallSites;
	inherits: InheritFact[];
	/** Routes the file declares (absent when none): route anchors link them to their handlers. */
	routes?: RouteFact[];
	/**
	 * Distinct string literals that may name something another file names too (header and event names, config keys,
	 * URL paths), in source order, absent when none (`anchors/literals.ts` says which): what shared-literal and
	 * route-reference edges are derived from.
	 */
	literals?: string[];
	/** Declared package or module: Go `package x`, Java `package a.b`, Rust/Python derived from the path. */
	package?: string;
	/** Number of ERROR/MISSING nodes the parser reported; facts are still best-effort. */
	parseErrors: number;
	/**
	 * U+FFFD characters in the text, when there are any: where the file's bytes were not valid UTF-8, the reader put
	 * this replacement character (a file can also hold it as written). Facts are then best effort too.
	 */
	replacementCharacters?: number;
	/**
	 * The file's queries ran out of their time (`QUERY_BUDGET_MS` in `parse/parser.ts`): a tree nested so deeply that
	 * tree-sitter's query cursor would take minutes. Facts are then best effort, and may be empty.
	 */
	cutShort?: true;
	/**
	 * Set on a summary whose symbols' signatures are paged out (`refresh/fact-budget.ts`): their digest
	 * (`signature-digest.ts`), which the file's semantic fingerprint reads in their place.
	 */
	signatureDigest?: string;
	/**
	 * Every term of the file's text with its count, as `contentTerms` encodes them (`terms/content.ts`): what a focus
	 * query's lexical ranking reads. Absent from facts of an index that counts none (`CodeIndexOptions.contentTerms`,
	 * cached under keys of their own).
	 */
	contentTerms?: string;
}

/**
 * A file Fovea saw but could not map, and why: never silently treated as clean. A directory the walk did not enter
 * is a gap too, its path ending in `/`: one with a build-output name (`build`, `dist`, `target`…) that no ignore file
 * leaves out (`generated-dir`), a nested repository (closed until access enrolls it) or one it could not list
 * (`unreadable`, as is a name whose bytes are not UTF-8). A symbolic link is never followed; one named like source,
 * one leading to a directory (`lib/`) or one leading nowhere (a loop) is a gap (`symlink`).
 */
export interface CoverageGap {
	path: string;
	reason:
		| "unsupported-language"
		| "generated"
		| "minified"
		| "too-large"
		| "binary"
		| "unreadable"
		| "parse-error"
		| "generated-dir"
		| "nested-repository"
		| "symlink";
}
