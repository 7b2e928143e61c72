/**
 * Python.
 *
 * - Symbols: `def` (a `method` with its class as container when directly in a class body), `class`, and module-level
 *   `UPPER_CASE = …` assignments as constants. `line` is the `def`/`class` line (decorators are outside the range).
 *   Signatures stop before the `:` that opens the body.
 * - `exported`: the name does not start with `_`, and the definition is module-level or a member of an exported
 *   class (functions nested in functions never are). `__all__` is not consulted.
 * - Calls: `f()`, `a.b.f()` → `f`; a class instantiation `A()` is a call to `A`.
 * - Imports: `import a.b` → `a.b` (one fact per imported module); `from .x import y, z as w` → `.x` with names
 *   `[y, z]` (leading dots kept; `*` for a wildcard).
 * - Inheritance: each positional base of a class `extends` it (keyword arguments like `metaclass=` skipped).
 * - `package`: the dotted module path derived from the file path, below the last `src/` directory if any
 *   (`src/pkg/mod.py` → `pkg.mod`, `pkg/__init__.py` → `pkg`).
 */
import type { ImportFact, InheritFact } from "../../model/index.ts";
import {
	addName,
	byLine,
	type CollectInput,
	callOf,
	capturesOf,
	type Extracted,
	endLineOf,
	isLocal,
	type LanguageRules,
	lastIdentifier,
	lineOf,
	nest,
	type RawCall,
	type RawDef,
} from "./common.ts";
import { signatureOf } from "./signature.ts";

const MAIN = `
(function_definition name: (identifier) @name ":" @colon) @function
(class_definition name: (identifier) @name ":" @colon) @class

(call function: (_) @callee)

(import_statement name: [(dotted_name) @module (aliased_import name: (dotted_name) @module)])
(import_from_statement module_name: (_) @source) @import
(import_from_statement name: [(dotted_name) @importname (aliased_import name: (dotted_name) @importname)]) @import
(import_from_statement (wildcard_import) @star) @import

(class_definition name: (identifier) @name
  superclasses: (argument_list [(identifier) (attribute) (subscript)] @extends))
`;

const TOP_LEVEL = `(expression_statement (assignment left: (identifier) @name) @constant)`;

const CONSTANT_NAME = /^_*[A-Z][A-Z0-9_]*$/;

export const pythonRules: LanguageRules = {
	querySources: () => ({ main: MAIN, topLevel: TOP_LEVEL }),
	collect({ matches, source, path }: CollectInput): Extracted {
		const defs: RawDef[] = [];
		const calls: RawCall[] = [];
		const inherits: InheritFact[] = [];
		const imports: ImportFact[] = [];
		const fromImports = new Map<number, ImportFact>();
		for (const match of matches) {
			const c = capturesOf(match);
			if (c.callee !== undefined) {
				const call = callOf(c.callee);
				if (call !== undefined) calls.push(call);
			} else if (c.module !== undefined) {
				imports.push({ specifier: c.module.text, line: lineOf(c.module) });
			} else if (c.import !== undefined) {
				let fact = fromImports.get(c.import.startIndex);
				if (fact === undefined) {
					fact = { specifier: "", line: lineOf(c.import) };
					fromImports.set(c.import.startIndex, fact);
				}
				if (c.source !== undefined) fact.specifier = c.source.text.replace(/\s+/g, "");
				const name = c.importname?.text ?? (c.star !== undefined ? "*" : undefined);
				if (name !== undefined) addName(fact, name);
			} else if (c.extends !== undefined && c.name !== undefined) {
				inherits.push({
					symbol: c.name.text,
					base: lastIdentifier(c.extends.text),
					line: lineOf(c.extends),
					relation: "extends",
				});
			} else if (c.name !== undefined) {
				const node = c.function ?? c.class ?? c.constant;
				if (node === undefined) continue;
				const name = c.name.text;
				if (c.constant !== undefined && !CONSTANT_NAME.test(name)) continue;
				const start = node.startIndex;
				const end = node.endIndex;
				const def: RawDef = {
					name,
					kind: c.function !== undefined ? "function" : c.class !== undefined ? "class" : "constant",
					start,
					end,
					line: lineOf(c.name),
					endLine: endLineOf(node),
					signature: signatureOf(source, start, c.colon?.startIndex ?? end, "hash"),
				};
				if (c.function !== undefined) def.functionLike = true;
				else if (c.class !== undefined) def.classLike = true;
				defs.push(def);
			}
		}
		const { symbols, calls: callFacts } = nest(defs, calls, (def, parent) => {
			if (def.name.startsWith("_") || isLocal(parent)) return false;
			return parent === undefined || (parent.kind === "class" && parent.exported === true);
		});
		for (const fact of fromImports.values()) if (fact.specifier !== "") imports.push(fact);
		return { symbols, calls: callFacts, imports: byLine(imports), inherits, package: pythonModule(path) };
	},
};

/** `src/pkg/mod.py` → `pkg.mod`; `pkg/__init__.py` → `pkg`; a path outside any package → its stem. */
export function pythonModule(path: string): string {
	const segments = path.replace(/\.py[iw]?$/, "").split("/");
	const src = segments.lastIndexOf("src");
	const parts = src >= 0 && src < segments.length - 1 ? segments.slice(src + 1) : segments;
	if (parts.length > 1 && parts[parts.length - 1] === "__init__") parts.pop();
	return parts.join(".");
}
