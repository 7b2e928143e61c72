/**
 * Shared machinery of the per-language extractors: compiled tree-sitter queries find every interesting node in one
 * pass inside wasm (walking the tree from JavaScript costs a wasm call per node and measured slower); the language
 * module maps each match to a raw definition, call, import or inheritance record; `nest` then resolves containers
 * (methods), callers and export visibility in one sweep over source offsets.
 *
 * Query rule: never capture inside a repeated child and then require a later sibling or a later field of an
 * ancestor (`(export_statement (export_clause (export_specifier) @x) source: (_))`, `(member_expression property:
 * (_) @x)` under deep chains): tree-sitter keeps one match state per candidate alive until that sibling shows up,
 * which is quadratic. Capture the enclosing node and read the detail from its text or with one node call instead.
 *
 * Offsets (`start`/`end`) are web-tree-sitter indices, which are UTF-16 code-unit offsets into the source string,
 * so `source.slice(start, end)` is the node's text.
 */
import type { Node } from "web-tree-sitter";
import {
	addCall,
	type CallSites,
	type ImportFact,
	type InheritFact,
	type LanguageId,
	noCalls,
	type SymbolFact,
	type SymbolKind,
	symbolFact,
} from "../../model/index.ts";

/** The language-dependent part of a `FileFacts`. */
export interface Extracted {
	symbols: SymbolFact[];
	imports: ImportFact[];
	calls: CallSites;
	inherits: InheritFact[];
	package?: string;
}

/** One match as `collect` reads it: the captured nodes by name, from a query or from a walk (`LanguageRules.topLevel`). */
export interface CaptureMatch {
	captures: readonly { name: string; node: Node }[];
}

/** What a language module receives: the matches of its queries (and top-level walk) over one file. */
export interface CollectInput {
	matches: CaptureMatch[];
	source: string;
	path: string;
	language: LanguageId;
}

/**
 * Query sources of one language. `main` runs over the whole tree. `topLevel` patterns can only start at the root's
 * children (`maxStartDepth: 1`), which lets tree-sitter skip every subtree: file-level facts (imports, package,
 * module constants) cost almost nothing there, whereas a `(program (…))`-anchored pattern in `main` keeps a match
 * state alive over the whole traversal.
 */
export interface QuerySources {
	main: string;
	topLevel?: string;
}

/** A language family: the queries to compile for each of its languages, and the mapping of matches to facts. */
export interface LanguageRules {
	querySources(language: LanguageId): QuerySources;
	/**
	 * The top-level matches found by walking the root's children, for a family that gives no `topLevel` query: the
	 * walk costs a few node calls per statement, where compiling a large top-level query costs tens of milliseconds
	 * in every process.
	 */
	topLevel?(root: Node): CaptureMatch[];
	/**
	 * True when `collect` finds every import among the top-level matches alone (the language imports only at file
	 * level): a caller that wants a file's imports and nothing else then skips the `main` query (`withSyntaxTrees`).
	 */
	importsAtTopLevel?: boolean;
	collect(input: CollectInput): Extracted;
}

/** A definition (or a container scope that is not itself a symbol) before nesting is resolved. */
export interface RawDef {
	name: string;
	kind: SymbolKind;
	/** Range of the declaration, used for nesting. */
	start: number;
	end: number;
	line: number;
	endLine: number;
	signature: string;
	/** Where the header ends (body start, or `end`), for recomputing the signature from an outer start. */
	headerEnd?: number;
	/** The language's own visibility verdict for this declaration, before its container is known. */
	exported?: boolean;
	/** Becomes a `method` of the enclosing class-like definition (Python `def`, Rust `fn`, …). */
	functionLike?: boolean;
	/** Its function-like members become methods with this name as `container`. */
	classLike?: boolean;
	/** A container only (Rust `impl` blocks): gives members a container, is not reported as a symbol. */
	scopeOnly?: boolean;
	container?: string;
	/** Set by `nest`: the innermost enclosing definition or scope. */
	parent?: RawDef;
	/** Set by `nest`: the name used as `caller` for calls inside this definition. */
	qualified?: string;
}

export interface RawCall {
	callee: string;
	start: number;
	line: number;
}

/** `node` when it is a named node (what `(_)` matches in a query), else `undefined`. */
export function named(node: Node | null): Node | undefined {
	return node?.isNamed === true ? node : undefined;
}

/** The named children of `node` (none for a missing node). */
export function namedChildren(node: Node | null | undefined): Node[] {
	if (node === null || node === undefined) return [];
	return node.namedChildren.filter((child): child is Node => child !== null);
}

/** All captures of one match by name (the last capture wins when a name repeats). */
export function capturesOf(match: CaptureMatch): Record<string, Node | undefined> {
	const out: Record<string, Node | undefined> = {};
	for (const capture of match.captures) out[capture.name] = capture.node;
	return out;
}

/**
 * The call whose callee expression is `node`, named by its last identifier (`f` → `f`, `a.b.c` → `c`, `x?.y` → `y`,
 * `a::b::<T>` → `b`), or `undefined` when the expression does not end in one (`f()()`, `a[0]()`). Queries capture
 * the whole callee expression rather than its last child: a pattern like `(member_expression property: (_) @p)`
 * waits through the object subtree for the property, one match state per call of a chain, which is quadratic on
 * long method chains. The text is scanned backwards only; the line is the identifier's (the expression's end line).
 */
export function callOf(node: Node): RawCall | undefined {
	const text = node.text;
	let end = text.length;
	while (end > 0 && isSpaceCode(text.charCodeAt(end - 1))) end--;
	if (text.charCodeAt(end - 1) === 62 /* > */) {
		// Rust turbofish: `f::<T>` / `x.f::<T>`
		let depth = 0;
		let i = end - 1;
		for (; i >= 0; i--) {
			const code = text.charCodeAt(i);
			if (code === 62) depth++;
			else if (code === 60 && --depth === 0) break;
		}
		if (i <= 0) return undefined;
		end = i;
		if (text.charCodeAt(end - 1) === 58 && text.charCodeAt(end - 2) === 58) end -= 2;
	}
	let start = end;
	while (start > 0 && isIdentifierCode(text.charCodeAt(start - 1))) start--;
	if (start === end) return undefined;
	const line = start === 0 && end === text.length ? lineOf(node) : endLineOf(node);
	return { callee: text.slice(start, end), start: node.startIndex + start, line };
}

function isSpaceCode(code: number): boolean {
	return code === 32 || (code >= 9 && code <= 13);
}

function isIdentifierCode(code: number): boolean {
	return (
		(code >= 97 && code <= 122) || // a-z
		(code >= 65 && code <= 90) || // A-Z
		(code >= 48 && code <= 57) || // 0-9
		code === 95 || // _
		code === 36 || // $
		code === 35 || // # (private names, raw identifiers)
		code >= 128
	);
}

/** 1-based first line of `node`. */
export function lineOf(node: Node): number {
	return node.startPosition.row + 1;
}

/** 1-based last line of `node`. */
export function endLineOf(node: Node): number {
	return node.endPosition.row + 1;
}

/**
 * The last identifier of a type or expression as written: `a.b.C<T>` → `C`, `crate::x::Y` → `Y`, `*Server` →
 * `Server`, `mixin(Base)` → `mixin`, `Generic[T]` → `Generic`. Empty when there is none.
 */
export function lastIdentifier(text: string): string {
	const cut = text.search(/[<([{]/);
	const head = cut < 0 ? text : text.slice(0, cut);
	const match = /[\p{L}\p{N}_$#]+(?=[^\p{L}\p{N}_$#]*$)/u.exec(head);
	return match === null ? "" : match[0];
}

/** Counts lines the way editors do: an empty file has 0 lines, a trailing newline does not start a new line. */
export function countLines(source: string): number {
	if (source.length === 0) return 0;
	let lines = 1;
	let i = source.indexOf("\n");
	while (i !== -1) {
		lines++;
		i = source.indexOf("\n", i + 1);
	}
	return source.endsWith("\n") ? lines - 1 : lines;
}

/** Decides a definition's final `exported`, once its enclosing definition (already final) is known. */
export type ExportRule = (def: RawDef, parent: RawDef | undefined) => boolean | undefined;

/**
 * Resolves nesting in one sweep over offsets: a function-like definition directly inside a class-like one becomes a
 * `method` with that `container` (unless the language already set one, as Go receivers do); each call's `caller` is
 * the innermost enclosing symbol, named `Container.method` when it has a container, else its bare name. Returns
 * symbols (scopes dropped) and calls in source order.
 */
export function nest(
	defs: RawDef[],
	rawCalls: RawCall[],
	exportRule: ExportRule,
): { symbols: SymbolFact[]; calls: CallSites } {
	defs.sort((a, b) => a.start - b.start || b.end - a.end);
	rawCalls.sort((a, b) => a.start - b.start);
	const symbols: SymbolFact[] = [];
	const calls = noCalls();
	const stack: RawDef[] = [];
	let c = 0;
	const emitCallsBefore = (offset: number): void => {
		for (; c < rawCalls.length; c++) {
			const call = rawCalls[c] as RawCall;
			if (call.start >= offset) return;
			while (stack.length > 0 && (stack[stack.length - 1] as RawDef).end <= call.start) stack.pop();
			addCall(calls, call.callee, call.line, innermostSymbol(stack)?.qualified);
		}
	};
	for (const def of defs) {
		emitCallsBefore(def.start);
		while (stack.length > 0 && (stack[stack.length - 1] as RawDef).end <= def.start) stack.pop();
		const parent = stack[stack.length - 1];
		def.parent = parent;
		if (parent?.classLike === true && def.container === undefined) {
			if (def.functionLike === true) {
				def.kind = "method";
				def.container = parent.name;
			} else if (def.kind === "constant") def.container = parent.name;
		}
		def.exported = exportRule(def, parent);
		def.qualified = def.container === undefined ? def.name : `${def.container}.${def.name}`;
		stack.push(def);
		if (def.scopeOnly === true) continue;
		symbols.push(symbolFact(def.name, def.kind, def.line, def.endLine, def.signature, def.container, def.exported));
	}
	emitCallsBefore(Number.POSITIVE_INFINITY);
	return { symbols, calls };
}

function innermostSymbol(stack: RawDef[]): RawDef | undefined {
	for (let i = stack.length - 1; i >= 0; i--) {
		const def = stack[i] as RawDef;
		if (def.scopeOnly !== true) return def;
	}
	return undefined;
}

/** Whether `def` sits inside a function or method (a local definition, never visible outside). */
export function isLocal(parent: RawDef | undefined): boolean {
	for (let p = parent; p !== undefined; p = p.parent) {
		if (p.kind === "function" || p.kind === "method") return true;
	}
	return false;
}

/** Appends an imported name. */
export function addName(fact: ImportFact, name: string): void {
	if (fact.names === undefined) fact.names = [name];
	else fact.names.push(name);
}

/** Sorts facts that carry a `line` (stable, so same-line facts keep source order). */
export function byLine<T extends { line: number }>(items: T[]): T[] {
	return items.sort((a, b) => a.line - b.line);
}

/**
 * `name` extends (or implements) the base written at one of two captures, as an inheritance fact; `undefined` when
 * neither capture is present. Shared by the languages whose grammars separate `extends` from `implements`.
 */
export function inheritFact(
	name: Node,
	extendsNode: Node | undefined,
	implementsNode: Node | undefined,
): InheritFact | undefined {
	const base = extendsNode ?? implementsNode;
	if (base === undefined) return undefined;
	return {
		symbol: name.text,
		base: lastIdentifier(base.text),
		line: lineOf(base),
		relation: extendsNode !== undefined ? "extends" : "implements",
	};
}
