/**
 * Go.
 *
 * - Symbols: functions, methods (container = receiver type without `*` and type parameters), `type X struct` →
 *   struct, `type X interface` → interface (its method specs are methods of it), other type definitions and aliases
 *   → type, top-level `const` names → constant. Type and const signatures are prefixed with `type `/`const ` since
 *   tree-sitter puts those keywords on the enclosing (possibly grouped) declaration.
 * - `exported`: the name starts with an upper-case letter.
 * - Calls: `f()`, `pkg.F()`, `x.m()` → `f`/`F`/`m` (conversions such as `T(x)` look like calls to `T`).
 * - Imports: the import path, unquoted, without `names` (a local alias such as `log "x/log"` is dropped).
 * - Inheritance: an embedded struct field or embedded interface `extends` the embedding type.
 * - `package`: the package clause.
 */
import type { ImportFact, InheritFact } from "../../model/index.ts";
import {
	byLine,
	type CollectInput,
	callOf,
	capturesOf,
	type Extracted,
	endLineOf,
	type LanguageRules,
	lastIdentifier,
	lineOf,
	nest,
	type RawCall,
	type RawDef,
} from "./common.ts";
import { MAX_RAW_SIGNATURE, oneLine, signatureOf } from "./signature.ts";

const MAIN = `
(function_declaration name: (identifier) @name body: (_)? @body) @function
(method_declaration receiver: (parameter_list (parameter_declaration type: (_) @receiver))
  name: (field_identifier) @name body: (_)? @body) @method
(type_spec name: (type_identifier) @name type: (_) @value) @type
(type_alias name: (type_identifier) @name) @type
(interface_type (method_elem name: (field_identifier) @name) @method)

(call_expression function: (_) @callee)

(type_spec name: (type_identifier) @name
  type: (struct_type (field_declaration_list (field_declaration !name type: (_) @extends))))
(type_spec name: (type_identifier) @name
  type: (interface_type (type_elem . [(type_identifier) (qualified_type)] @extends .)))
`;

/** Package, imports and constants are file-level in Go. */
const TOP_LEVEL = `
(package_clause (package_identifier) @package)
(import_declaration [(import_spec path: (_) @source)
                     (import_spec_list (import_spec path: (_) @source))])
(const_declaration (const_spec name: (identifier) @name) @constant)
`;

const EXPORTED = /^\p{Lu}/u;

export const goRules: LanguageRules = {
	querySources: () => ({ main: MAIN, topLevel: TOP_LEVEL }),
	// An import declaration is a source file's child, which only `TOP_LEVEL` matches.
	importsAtTopLevel: true,
	collect({ matches, source }: CollectInput): Extracted {
		const defs: RawDef[] = [];
		const calls: RawCall[] = [];
		const inherits: InheritFact[] = [];
		const imports: ImportFact[] = [];
		let pkg: string | undefined;
		for (const match of matches) {
			const c = capturesOf(match);
			if (c.callee !== undefined) {
				const call = callOf(c.callee);
				if (call !== undefined) calls.push(call);
			} else if (c.source !== undefined) {
				imports.push({ specifier: c.source.text.slice(1, -1), line: lineOf(c.source) });
			} else if (c.extends !== undefined && c.name !== undefined) {
				inherits.push({
					symbol: c.name.text,
					base: lastIdentifier(c.extends.text),
					line: lineOf(c.extends),
					relation: "extends",
				});
			} else if (c.package !== undefined) {
				pkg = c.package.text;
			} else if (c.name !== undefined) {
				const node = c.function ?? c.method ?? c.type ?? c.constant;
				if (node === undefined) continue;
				const start = node.startIndex;
				const end = node.endIndex;
				const def: RawDef = {
					name: c.name.text,
					kind: "function",
					start,
					end,
					line: lineOf(c.name),
					endLine: endLineOf(node),
					signature: "",
				};
				if (c.function !== undefined || c.method !== undefined) {
					def.signature = signatureOf(source, start, c.body?.startIndex ?? end, "c");
					def.functionLike = true;
					if (c.method !== undefined) def.kind = "method";
					if (c.receiver !== undefined) def.container = lastIdentifier(c.receiver.text);
				} else if (c.type !== undefined) {
					const valueType = c.value?.type;
					const text = source.slice(start, Math.min(end, start + MAX_RAW_SIGNATURE));
					if (valueType === "struct_type" || valueType === "interface_type") {
						def.kind = valueType === "struct_type" ? "struct" : "interface";
						def.classLike = true;
						const brace = text.indexOf("{");
						def.signature = oneLine(`type ${brace < 0 ? text : text.slice(0, brace)}`, "c");
					} else {
						def.kind = "type";
						def.signature = oneLine(`type ${text}`, "c");
					}
				} else {
					def.kind = "constant";
					def.signature = oneLine(`const ${source.slice(start, Math.min(end, start + MAX_RAW_SIGNATURE))}`, "c");
				}
				defs.push(def);
			}
		}
		const { symbols, calls: callFacts } = nest(defs, calls, (def) => EXPORTED.test(def.name));
		const extracted: Extracted = { symbols, calls: callFacts, imports: byLine(imports), inherits };
		if (pkg !== undefined) extracted.package = pkg;
		return extracted;
	},
};
