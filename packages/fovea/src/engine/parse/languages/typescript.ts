/**
 * TypeScript, TSX and JavaScript (one grammar family; the JavaScript grammar lacks the type-level node kinds, so its
 * query omits them).
 *
 * - Symbols: functions (declarations, overload/ambient signatures, top-level `const f = () => …` /
 *   `function` expressions), classes, interfaces, type aliases, enums, namespaces (`module`), methods (class
 *   methods, class fields holding functions, interface and abstract method signatures), and top-level `const`
 *   constants (not those holding `require(…)`/`import(…)`).
 * - `exported`: top-level declarations wrapped in `export` (including `export declare`, `export default`), or named
 *   in `export { a, b }`, `export default a`, `exports.a = …`, `module.exports = { a }`. Methods are exported when
 *   their class/interface is and they are not `private`/`protected`/`#private`. Local definitions never are.
 * - Calls: `f()`, `a.b.f()`, `new F()`, `new a.F()` → `f`/`F`; JSX elements with a capitalised name (`<Panel/>`) are
 *   calls to `Panel` (`<UI.Panel/>` too). `require` is an import, not a call.
 * - Imports: `import … from "x"` (names: imported names as exported by `x`, `default` for a default import, `*`
 *   for a namespace import; aliases dropped), `import "x"`, `export … from "x"`, `import x = require("x")`,
 *   `require("x")` and `import("x")` with a string literal.
 */
import type { Node } from "web-tree-sitter";
import type { ImportFact, InheritFact, LanguageId } from "../../model/index.ts";
import {
	addName,
	byLine,
	type CaptureMatch,
	type CollectInput,
	callOf,
	capturesOf,
	type Extracted,
	endLineOf,
	inheritFact,
	isLocal,
	type LanguageRules,
	lineOf,
	nest,
	type QuerySources,
	type RawCall,
	type RawDef,
} from "./common.ts";
import { MAX_RAW_SIGNATURE, oneLine, signatureOf } from "./signature.ts";
import { nodeKindsQuery, nodeMatches } from "./typescript-nodes.ts";
import { fragments, typescriptTopLevel } from "./typescript-top-level.ts";

const KIND_BY_CAPTURE = {
	function: "function",
	class: "class",
	interface: "interface",
	type: "type",
	enum: "enum",
	module: "module",
	method: "method",
} as const;
type DefCapture = keyof typeof KIND_BY_CAPTURE;
const DEF_CAPTURES = Object.keys(KIND_BY_CAPTURE) as DefCapture[];

const VARIABLE_PREFIX = /(?:export\s+)?(?:declare\s+)?(const|let|var)\b\s*/y;
/** Callee names that are syntax, not calls of a symbol (`require` is recorded as an import). */
const NOT_CALLS = new Set(["require", "import", "super"]);
const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);
/** Values that make a class field a method (`handle = () => …`). */
const FIELD_FUNCTIONS = new Set(["arrow_function", "function_expression"]);

export const typescriptRules: LanguageRules = {
	querySources(language: LanguageId): QuerySources {
		return { main: nodeKindsQuery(language) };
	},
	topLevel: typescriptTopLevel,
	collect({ matches: found, source, language }: CollectInput): Extracted {
		// The whole-tree query captures bare nodes (`typescript-nodes.ts`); the top-level walk's matches pass as they are.
		const matches: CaptureMatch[] = [];
		for (const match of found) {
			const only = match.captures.length === 1 ? match.captures[0] : undefined;
			if (only?.name === "node") nodeMatches(only.node, language, matches);
			else matches.push(match);
		}
		const into: Gathered = {
			source,
			defs: [],
			calls: [],
			inherits: [],
			imports: new Map(),
			exportStarts: new Map(),
			exportNames: new Set(),
		};
		for (let i = 0; i < matches.length; i++) {
			const c = capturesOf(matches[i] as CaptureMatch);
			gathererOf(c)(c, into);
		}
		const { defs, calls, inherits, imports, exportStarts, exportNames } = into;
		inherits.sort((a, b) => a.start - b.start);
		for (const def of defs) {
			const exportStart = exportStarts.get(def.start);
			if (exportStart === undefined) continue;
			def.exported = true;
			def.signature = signatureOf(source, exportStart, def.headerEnd ?? def.end, "c");
		}
		const { symbols, calls: callFacts } = nest(defs, calls, (def, parent) => {
			if (def.kind === "method") {
				return parent?.exported === true && def.exported !== false;
			}
			if (isLocal(parent)) return false;
			return def.exported === true || (parent === undefined && exportNames.has(def.name));
		});
		const importFacts = [...imports.values()].filter((fact) => fact.specifier !== "");
		return { symbols, calls: callFacts, imports: byLine(importFacts), inherits: inherits.map(withoutStart) };
	},
};

type Captures = Record<string, Node | undefined>;

/** What `collect` gathers from a file's matches before nesting its definitions. */
interface Gathered {
	readonly source: string;
	readonly defs: RawDef[];
	readonly calls: RawCall[];
	readonly inherits: (InheritFact & { start: number })[];
	readonly imports: Map<number, ImportFact>;
	/** Start of an exported declaration → start of its `export` statement. */
	readonly exportStarts: Map<number, number>;
	readonly exportNames: Set<string>;
}

type Gatherer = (c: Captures, into: Gathered) => void;

/**
 * The gatherer of one match, by the first of its captures that decides its kind. One function per kind rather than
 * one branch each inside `collect`: `collect` runs a loop over every match of a file, so V8 optimized it with every
 * branch inlined, a large compile repeated whenever a file brought a kind it had not seen, in each parsing thread;
 * called through this table, each kind is compiled alone and only once it is hot itself (calls, in practice).
 */
function gathererOf(c: Captures): Gatherer {
	if (c.callee !== undefined) return gatherCall;
	if (c.jsx !== undefined) return gatherJsx;
	if (c.import !== undefined) return gatherImport;
	if (c.export !== undefined && c.exported !== undefined) return gatherExport;
	if (c.exportname !== undefined) return gatherExportName;
	if (c.field !== undefined && c.name !== undefined) return gatherField;
	if (c.variable !== undefined && c.declarator !== undefined && c.name !== undefined) return gatherVariable;
	if (c.name !== undefined) return gatherDeclaration;
	return gatherNothing;
}

function gatherCall(c: Captures, into: Gathered): void {
	const callee = c.callee as Node;
	const call = callOf(callee);
	if (call !== undefined && !NOT_CALLS.has(call.callee)) into.calls.push(call);
	else if (call !== undefined) callImport(callee, into.imports);
}

function gatherJsx(c: Captures, into: Gathered): void {
	const jsx = c.jsx as Node;
	const callee = jsx.text;
	if (/^[A-Z]/.test(callee)) into.calls.push({ callee, start: jsx.startIndex, line: lineOf(jsx) });
}

function gatherImport(c: Captures, into: Gathered): void {
	const fact = importAt(into.imports, c.import as Node);
	if (c.source !== undefined) fact.specifier = c.source.text;
	const name = c.importname?.text ?? (c.default !== undefined ? "default" : c.star !== undefined ? "*" : undefined);
	if (name !== undefined) addName(fact, name);
	if (c.reexports !== undefined) for (const exported of clauseNames(c.reexports.text)) addName(fact, exported);
}

function gatherExport(c: Captures, into: Gathered): void {
	into.exportStarts.set((c.exported as Node).startIndex, (c.export as Node).startIndex);
}

function gatherExportName(c: Captures, into: Gathered): void {
	into.exportNames.add((c.exportname as Node).text);
}

function gatherField(c: Captures, into: Gathered): void {
	const body = FIELD_FUNCTIONS.has(c.fieldvalue?.type ?? "") ? c.fieldvalue?.childForFieldName("body") : null;
	if (body === null || body === undefined) return;
	const def = declarationDef(into.source, { method: c.field, body }, c.name as Node);
	if (def !== undefined) into.defs.push(def);
}

function gatherVariable(c: Captures, into: Gathered): void {
	const def = variableDef(into.source, c.variable as Node, c.declarator as Node, c.name as Node, c.value);
	if (def !== undefined) into.defs.push(def);
}

function gatherDeclaration(c: Captures, into: Gathered): void {
	const name = c.name as Node;
	const def = declarationDef(into.source, c, name);
	if (def !== undefined) into.defs.push(def);
	const declaration = c.class ?? c.interface;
	if (declaration !== undefined) heritage(declaration, name, into.inherits);
}

function gatherNothing(): void {}

/**
 * Names of an `export { a, type B, c as d } from "x"` clause as `x` spells them. Read from the text: a query
 * capturing each specifier before the later `source` field keeps one match state per specifier alive until the
 * source is reached, which is quadratic on barrel files with hundreds of re-exports.
 */
export function clauseNames(clause: string): string[] {
	const names: string[] = [];
	const inner = clause.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "").replace(/^\s*\{|\}\s*$/g, "");
	for (const item of inner.split(",")) {
		const name = item
			.trim()
			.replace(/^type\s+/, "")
			.split(/\s+as\s+/)[0]
			?.trim();
		if (name !== undefined && name !== "") names.push(name);
	}
	return names;
}

/**
 * `require("x")` and `import("x")` with a string literal first, from the call's callee: an import of `x` at the call.
 * Read through the callee rather than matched by their own query patterns, which cost more to compile in every
 * process than these rare calls cost to inspect.
 */
function callImport(callee: Node, imports: Map<number, ImportFact>): void {
	const isRequire = callee.type === "identifier" && callee.text === "require";
	if (!isRequire && callee.type !== "import") return;
	const call = callee.parent;
	if (call?.type !== "call_expression") return;
	const first = call.childForFieldName("arguments")?.firstNamedChild;
	if (first === null || first === undefined) return;
	for (const fragment of fragments(first)) importAt(imports, call).specifier = fragment.text;
}

/**
 * What the class or interface `declaration` (named by `name`) extends and implements, each with its offset: read from
 * its heritage clauses rather than matched by query patterns of their own (see `callImport`). JavaScript's grammar
 * has the extended expression right under `class_heritage`; TypeScript's wraps it in an `extends_clause`.
 */
function heritage(declaration: Node, name: Node, into: (InheritFact & { start: number })[]): void {
	const add = (base: Node | null, relation: "extends" | "implements"): void => {
		if (base === null || !base.isNamed) return;
		const fact = relation === "extends" ? inheritFact(name, base, undefined) : inheritFact(name, undefined, base);
		if (fact !== undefined) into.push({ ...fact, start: base.startIndex });
	};
	for (const child of declaration.namedChildren) {
		if (child?.type === "extends_type_clause")
			for (const base of child.childrenForFieldName("type")) add(base, "extends");
		if (child?.type !== "class_heritage") continue;
		for (const clause of child.namedChildren) {
			if (clause === null) continue;
			if (clause.type === "extends_clause")
				for (const base of clause.childrenForFieldName("value")) add(base, "extends");
			else if (clause.type === "implements_clause") for (const base of clause.namedChildren) add(base, "implements");
			else add(clause, "extends");
		}
	}
}

function withoutStart({ start: _, ...fact }: InheritFact & { start: number }): InheritFact {
	return fact;
}

function importAt(imports: Map<number, ImportFact>, statement: Node): ImportFact {
	let fact = imports.get(statement.startIndex);
	if (fact === undefined) {
		fact = { specifier: "", line: lineOf(statement) };
		imports.set(statement.startIndex, fact);
	}
	return fact;
}

function declarationDef(source: string, c: Captures, name: Node): RawDef | undefined {
	let kind: DefCapture | undefined;
	let node: Node | undefined;
	for (const capture of DEF_CAPTURES) {
		node = c[capture];
		if (node !== undefined) {
			kind = capture;
			break;
		}
	}
	if (kind === undefined || node === undefined) return undefined;
	const start = node.startIndex;
	const end = node.endIndex;
	const headerEnd = c.body === undefined ? end : c.body.startIndex;
	const def: RawDef = {
		name: name.text,
		kind: KIND_BY_CAPTURE[kind],
		start,
		end,
		line: lineOf(name),
		endLine: endLineOf(node),
		signature: signatureOf(source, start, headerEnd, "c"),
		headerEnd,
	};
	if (kind === "method") {
		def.functionLike = true;
		const prefix = source.slice(start, name.startIndex);
		def.exported = !name.text.startsWith("#") && !/\b(?:private|protected)\s/.test(prefix);
	} else if (kind === "class" || kind === "interface" || kind === "enum") def.classLike = true;
	else if (kind === "function") def.functionLike = true;
	return def;
}

function variableDef(
	source: string,
	statement: Node,
	declarator: Node,
	name: Node,
	value: Node | undefined,
): RawDef | undefined {
	VARIABLE_PREFIX.lastIndex = statement.startIndex;
	const prefix = VARIABLE_PREFIX.exec(source);
	if (prefix === null) return undefined;
	const start = declarator.startIndex;
	const end = declarator.endIndex;
	const valueType = value?.type;
	let body: Node | null = null;
	if (value !== undefined && valueType !== undefined && FUNCTION_VALUES.has(valueType)) {
		body = value.childForFieldName("body");
	} else if (prefix[1] !== "const" || valueType === "class") return undefined;
	else if (
		value !== undefined &&
		/^(?:await\s+)?(?:require|import)\s*\(/.test(source.slice(value.startIndex, value.startIndex + 40))
	)
		return undefined;
	// Bounded: a constant may hold a huge literal.
	const header = source.slice(start, Math.min(body === null ? end : body.startIndex, start + MAX_RAW_SIGNATURE));
	const def: RawDef = {
		name: name.text,
		kind: body === null ? "constant" : "function",
		start,
		end,
		line: lineOf(name),
		endLine: endLineOf(declarator),
		signature: oneLine(`${prefix[0]}${header}`.replace(/[\s;,]+$/, ""), "c"),
		exported: prefix[0].startsWith("export"),
	};
	if (body !== null) def.functionLike = true;
	return def;
}
