/**
 * Rust.
 *
 * - Symbols: `fn` (a `method` inside `impl`/`trait`, container = the impl's type or the trait), trait method
 *   signatures, `struct`/`union` → struct, `enum`, `trait`, `type`, inline `mod x { … }` → module, top-level
 *   `const`/`static` → constant. `impl` blocks are containers only, not symbols. Attributes are outside the range.
 * - `exported`: declared with bare `pub` (`pub(crate)`/`pub(super)` are not); methods of a trait follow the trait;
 *   methods in `impl Trait for Type` are exported (they are as visible as the trait and type).
 * - Calls: `f()`, `a::b::f()`, `x.f()`, `f::<T>()` → `f`. Macro invocations are not calls, and calls inside macro
 *   arguments are not seen (tree-sitter keeps macro arguments as token trees).
 * - Imports: every leaf of a `use` tree is one fact with the full path (`use a::{b, c::D}` → `a::b`, `a::c::D`);
 *   `self` in a list names the prefix; a glob is the prefix with names `["*"]`; `mod x;` → `mod:x`;
 *   `extern crate x;` → `x`. `names` holds the leaf as the target spells it (an `as` alias is dropped).
 * - Inheritance: `impl Trait for Type` → Type `implements` Trait; supertraits `trait A: B` → A `extends` B.
 * - `package`: the module path derived from the file path: `crate` for `src/lib.rs`/`src/main.rs` (and for crate
 *   roots under `tests/`, `examples/`, `benches/`), `crate::a::b` for `src/a/b.rs` or `src/a/b/mod.rs`.
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
import { signatureOf } from "./signature.ts";

const MAIN = `
(function_item name: (identifier) @name body: (_) @body) @function
(function_signature_item name: (identifier) @name) @function
(struct_item name: (type_identifier) @name body: (_)? @body) @struct
(union_item name: (type_identifier) @name body: (_)? @body) @struct
(enum_item name: (type_identifier) @name body: (_) @body) @enum
(trait_item name: (type_identifier) @name body: (_) @body) @trait
(type_item name: (type_identifier) @name) @type
(mod_item name: (identifier) @name body: (_) @body) @module
(impl_item trait: (_) @trait type: (_) @impltype body: (_)) @impl
(impl_item !trait type: (_) @impltype body: (_)) @impl

(call_expression function: (_) @callee)

(use_declaration argument: (_) @use)
(mod_item name: (identifier) @modname !body)
(extern_crate_declaration name: (identifier) @crate)

(trait_item name: (type_identifier) @name
  bounds: (trait_bounds [(type_identifier) (scoped_type_identifier) (generic_type)] @extends))
`;

const TOP_LEVEL = `[(const_item name: (identifier) @name) (static_item name: (identifier) @name)] @constant`;

const KINDS = ["function", "struct", "enum", "trait", "type", "module", "constant"] as const;

export const rustRules: LanguageRules = {
	querySources: () => ({ main: MAIN, topLevel: TOP_LEVEL }),
	collect({ matches, source, path }: CollectInput): Extracted {
		const defs: RawDef[] = [];
		const calls: RawCall[] = [];
		const inherits: InheritFact[] = [];
		const imports: ImportFact[] = [];
		for (const match of matches) {
			const c = capturesOf(match);
			if (c.callee !== undefined) {
				const call = callOf(c.callee);
				if (call !== undefined) calls.push(call);
			} else if (c.use !== undefined) {
				const line = lineOf(c.use);
				for (const [specifier, name] of expandUse(c.use.text)) imports.push({ specifier, line, names: [name] });
			} else if (c.modname !== undefined) {
				imports.push({ specifier: `mod:${c.modname.text}`, line: lineOf(c.modname) });
			} else if (c.crate !== undefined) {
				imports.push({ specifier: c.crate.text, line: lineOf(c.crate) });
			} else if (c.impl !== undefined && c.impltype !== undefined) {
				const type = lastIdentifier(c.impltype.text);
				defs.push({
					name: type,
					kind: "struct",
					start: c.impl.startIndex,
					end: c.impl.endIndex,
					line: lineOf(c.impl),
					endLine: lineOf(c.impl),
					signature: "",
					exported: c.trait !== undefined ? true : undefined,
					classLike: true,
					scopeOnly: true,
				});
				if (c.trait !== undefined) {
					const base = lastIdentifier(c.trait.text);
					inherits.push({ symbol: type, base, line: lineOf(c.trait), relation: "implements" });
				}
			} else if (c.extends !== undefined && c.name !== undefined) {
				inherits.push({
					symbol: c.name.text,
					base: lastIdentifier(c.extends.text),
					line: lineOf(c.extends),
					relation: "extends",
				});
			} else if (c.name !== undefined) {
				const kind = KINDS.find((k) => c[k] !== undefined);
				const node = kind === undefined ? undefined : c[kind];
				if (kind === undefined || node === undefined) continue;
				const start = node.startIndex;
				const end = node.endIndex;
				const def: RawDef = {
					name: c.name.text,
					kind,
					start,
					end,
					line: lineOf(c.name),
					endLine: endLineOf(node),
					signature: signatureOf(source, start, c.body?.startIndex ?? end, "rust"),
					exported: /^pub\s/.test(source.slice(start, start + 4)),
				};
				if (kind === "function") def.functionLike = true;
				else if (kind === "trait") def.classLike = true;
				defs.push(def);
			}
		}
		const { symbols, calls: callFacts } = nest(defs, calls, (def, parent) =>
			def.kind === "method" && parent !== undefined && (parent.kind === "trait" || parent.exported === true)
				? parent.exported
				: def.exported,
		);
		return { symbols, calls: callFacts, imports: byLine(imports), inherits, package: rustModule(path) };
	},
};

/**
 * Leaves of a `use` tree as `[path, name]`: `a::{b, c::{D as E, self}}` → `a::b`/`b`, `a::c::D`/`D`, `a::c`/`c`;
 * `a::*` → `a`/`*`. Comments and whitespace are ignored.
 */
export function expandUse(text: string): Array<[string, string]> {
	const clean = text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "").replace(/\s+/g, " ");
	const out: Array<[string, string]> = [];
	walkUse(clean.trim(), "", out);
	return out;
}

function walkUse(tree: string, prefix: string, out: Array<[string, string]>): void {
	const brace = tree.indexOf("{");
	if (brace >= 0) {
		const head = tree.slice(0, brace).replace(/\s*::\s*$/, "");
		const inner = tree.slice(brace + 1, tree.lastIndexOf("}"));
		const base = join(prefix, head.trim());
		for (const item of splitTopLevel(inner)) walkUse(item, base, out);
		return;
	}
	const path = tree.split(/\s+as\s+/)[0] ?? "";
	const full = path.trim().replace(/\s*::\s*/g, "::");
	if (full === "") return;
	if (full === "self") {
		if (prefix !== "") out.push([prefix, lastSegment(prefix)]);
	} else if (full === "*" || full.endsWith("::*")) {
		out.push([join(prefix, full.slice(0, -1).replace(/::$/, "")), "*"]);
	} else {
		const joined = join(prefix, full);
		out.push([joined, lastSegment(joined)]);
	}
}

function join(prefix: string, path: string): string {
	if (prefix === "") return path;
	return path === "" ? prefix : `${prefix}::${path}`;
}

function lastSegment(path: string): string {
	const i = path.lastIndexOf("::");
	return i < 0 ? path : path.slice(i + 2);
}

function splitTopLevel(list: string): string[] {
	const items: string[] = [];
	let depth = 0;
	let from = 0;
	for (let i = 0; i < list.length; i++) {
		const ch = list.charAt(i);
		if (ch === "{") depth++;
		else if (ch === "}") depth--;
		else if (ch === "," && depth === 0) {
			items.push(list.slice(from, i));
			from = i + 1;
		}
	}
	items.push(list.slice(from));
	return items.map((item) => item.trim()).filter((item) => item !== "");
}

/** `src/lib.rs` → `crate`; `src/a/b.rs` and `src/a/b/mod.rs` → `crate::a::b`; `tests/x.rs` → `crate`. */
export function rustModule(path: string): string {
	const segments = path.replace(/\.rs$/, "").split("/");
	let root = -1;
	for (let i = segments.length - 2; i >= 0; i--) {
		const segment = segments[i];
		if (segment === "src" || segment === "tests" || segment === "examples" || segment === "benches") {
			root = i;
			break;
		}
	}
	const inSrc = root >= 0 && segments[root] === "src";
	const parts = segments.slice(root + 1);
	const last = parts[parts.length - 1];
	if (last === "mod") parts.pop();
	else if (parts.length === 1 && (!inSrc || last === "lib" || last === "main")) parts.pop();
	else if (inSrc && parts[0] === "bin" && parts.length <= 2) parts.length = 0; // src/bin/x.rs is a crate root
	return ["crate", ...parts].join("::");
}
