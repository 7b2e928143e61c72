/**
 * Java.
 *
 * - Symbols: classes and records → class, interfaces and `@interface` annotation types → interface, enums, methods
 *   and constructors (constructors are methods named after their class), and `static final` fields / interface
 *   constants → constant (with their class as container). Annotations are part of the range (so `line` is the
 *   name's line but the range may start earlier) and are stripped from signatures.
 * - `exported`: declared `public`, or a member of an interface or annotation type (implicitly public).
 * - Calls: `m()`, `a.b.m()` → `m`; `new a.B<T>()` → `B`. `super(…)`/`this(…)` are not calls.
 * - Imports: the imported name as written (`a.b.C`, `a.b.*`, static `a.b.C.m`), names = its last segment.
 * - Inheritance: `extends` (class, interface) and `implements` (class, enum, record).
 * - `package`: the package declaration.
 */
import type { ImportFact, InheritFact } from "../../model/index.ts";
import {
	byLine,
	type CollectInput,
	capturesOf,
	type Extracted,
	endLineOf,
	inheritFact,
	type LanguageRules,
	lastIdentifier,
	lineOf,
	nest,
	type RawCall,
	type RawDef,
} from "./common.ts";
import { signatureOf } from "./signature.ts";

const MAIN = `
(class_declaration name: (identifier) @name body: (_) @body) @class
(record_declaration name: (identifier) @name body: (_) @body) @class
(interface_declaration name: (identifier) @name body: (_) @body) @interface
(annotation_type_declaration name: (identifier) @name body: (_) @body) @interface
(enum_declaration name: (identifier) @name body: (_) @body) @enum
(method_declaration name: (identifier) @name body: (_)? @body) @method
(constructor_declaration name: (identifier) @name body: (_) @body) @method
(field_declaration (modifiers) @modifiers declarator: (variable_declarator name: (identifier) @name)) @constant
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @constant

(method_invocation) @invocation
(object_creation_expression type: (_) @newtype)

(class_declaration name: (identifier) @name superclass: (superclass (_) @extends))
(interface_declaration name: (identifier) @name (extends_interfaces (type_list (_) @extends)))
(class_declaration name: (identifier) @name interfaces: (super_interfaces (type_list (_) @implements)))
(enum_declaration name: (identifier) @name interfaces: (super_interfaces (type_list (_) @implements)))
(record_declaration name: (identifier) @name interfaces: (super_interfaces (type_list (_) @implements)))
`;

const TOP_LEVEL = `
(package_declaration [(scoped_identifier) (identifier)] @package)
(import_declaration) @import
`;

const KINDS = ["class", "interface", "enum", "method", "constant"] as const;

export const javaRules: LanguageRules = {
	querySources: () => ({ main: MAIN, topLevel: TOP_LEVEL }),
	// An import declaration is a compilation unit's child, which only `TOP_LEVEL` matches.
	importsAtTopLevel: true,
	collect({ matches, source }: CollectInput): Extracted {
		const defs: RawDef[] = [];
		const calls: RawCall[] = [];
		const inherits: InheritFact[] = [];
		const imports: ImportFact[] = [];
		let pkg: string | undefined;
		for (const match of matches) {
			const c = capturesOf(match);
			if (c.invocation !== undefined) {
				// The name follows the receiver chain: read it from the node rather than making the query wait for it.
				const name = c.invocation.childForFieldName("name");
				if (name !== null) calls.push({ callee: name.text, start: name.startIndex, line: lineOf(name) });
			} else if (c.newtype !== undefined) {
				const name = lastIdentifier(c.newtype.text);
				if (name !== "") calls.push({ callee: name, start: c.newtype.startIndex, line: lineOf(c.newtype) });
			} else if (c.import !== undefined) {
				const specifier = c.import.text
					.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "")
					.replace(/^\s*import\s+(?:static\s+)?|[\s;]/g, "");
				if (specifier !== "") {
					const names = [specifier.slice(specifier.lastIndexOf(".") + 1)];
					imports.push({ specifier, line: lineOf(c.import), names });
				}
			} else if (c.package !== undefined) {
				pkg = c.package.text.replace(/\s+/g, "");
			} else if (c.name !== undefined && (c.extends !== undefined || c.implements !== undefined)) {
				const fact = inheritFact(c.name, c.extends, c.implements);
				if (fact !== undefined) inherits.push(fact);
			} else if (c.name !== undefined) {
				const kind = KINDS.find((k) => c[k] !== undefined);
				const node = kind === undefined ? undefined : c[kind];
				if (kind === undefined || node === undefined) continue;
				const start = node.startIndex;
				const prefix = source.slice(start, c.name.startIndex);
				if (c.modifiers !== undefined && !(/\bstatic\b/.test(prefix) && /\bfinal\b/.test(prefix))) continue;
				const end = node.endIndex;
				const def: RawDef = {
					name: c.name.text,
					kind,
					start,
					end,
					line: lineOf(c.name),
					endLine: endLineOf(node),
					signature: signatureOf(source, start, c.body?.startIndex ?? end, "c"),
					exported: /\bpublic\b/.test(prefix),
				};
				if (kind === "method") def.functionLike = true;
				else if (kind !== "constant") def.classLike = true;
				defs.push(def);
			}
		}
		const { symbols, calls: callFacts } = nest(
			defs,
			calls,
			(def, parent) => def.exported === true || (parent?.kind === "interface" && def.container !== undefined),
		);
		const extracted: Extracted = { symbols, calls: callFacts, imports: byLine(imports), inherits };
		if (pkg !== undefined) extracted.package = pkg;
		return extracted;
	},
};
