/**
 * The facts Fovea extracts from one source file: plain data, content-addressed, safe to cache on disk and to hand
 * to the graph. Line numbers are 1-based. Paths are relative to the project root, with `/` separators.
 */

/** Bump when extraction output changes, so cached facts from an older extractor are not reused. */
export const EXTRACTOR_VERSION = 3;

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

/** `symbol` extends or implements `base` (a name as written, last identifier only). */
export interface InheritFact {
	symbol: string;
	base: string;
	line: number;
	relation: "extends" | "implements";
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
	calls: CallFact[];
	inherits: InheritFact[];
	/** Declared package or module: Go `package x`, Java `package a.b`, Rust/Python derived from the path. */
	package?: string;
	/** Number of ERROR/MISSING nodes the parser reported; facts are still best-effort. */
	parseErrors: number;
	/**
	 * Every term of the file's text with its count, as `contentTerms` encodes them (`content-terms.ts`): what a focus
	 * query's lexical ranking reads. Absent from facts extracted with counting turned off (`useContentTerms(false)`,
	 * cached under keys of their own).
	 */
	contentTerms?: string;
}

/** A file Fovea saw but could not map, and why: never silently treated as clean. */
export interface CoverageGap {
	path: string;
	reason: "unsupported-language" | "generated" | "minified" | "too-large" | "binary" | "unreadable" | "parse-error";
}
