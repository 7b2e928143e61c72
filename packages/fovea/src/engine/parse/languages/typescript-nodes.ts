/**
 * The whole-tree matches of TypeScript, TSX and JavaScript: one query that captures the nodes of the kinds the facts
 * come from, each then read through its fields here, giving the matches (named as `typescriptRules.collect` reads
 * them) that patterns with fields and children would give.
 *
 * Why: tree-sitter analyses every pattern with children or fields against the grammar when the query is compiled,
 * and the TypeScript grammar is large: a query of such patterns costs every process (and every parsing thread) far
 * more to compile than one of bare node kinds plus the two call patterns kept (`CALL_PATTERNS`). Reading the fields
 * of the captured declarations costs less than the difference.
 *
 * Each rule below restates one pattern of the query it replaces: a field written `(identifier)` must hold a node of
 * that type, `(_)` any named node, and a child pattern (`(class_body (method_definition))`) a direct child of the
 * named parent.
 */
import type { Node } from "web-tree-sitter";
import type { LanguageId } from "../../model/index.ts";
import { type CaptureMatch, named, namedChildren } from "./common.ts";

const COMMON_KINDS = [
	"function_declaration",
	"generator_function_declaration",
	"class_declaration",
	"method_definition",
	"export_statement",
];
/**
 * Calls are the most frequent matches by far: their callee is captured by the query itself. These two patterns add
 * little to the compilation, where reading the field of every call costs more on a large file.
 */
const CALL_PATTERNS = "(call_expression function: (_) @callee) (new_expression constructor: (_) @callee)";
const TYPESCRIPT_KINDS = [
	"function_signature",
	"abstract_class_declaration",
	"interface_declaration",
	"type_alias_declaration",
	"enum_declaration",
	"internal_module",
	"module",
	"method_signature",
	"abstract_method_signature",
	"public_field_definition",
];
const JAVASCRIPT_KINDS = ["field_definition"];
const JSX_KINDS = ["jsx_opening_element", "jsx_self_closing_element"];

/** The query source for `language`: every node kind a fact may come from, captured as `node`, and the calls. */
export function nodeKindsQuery(language: LanguageId): string {
	const kinds = [...COMMON_KINDS];
	if (language === "javascript") kinds.push(...JAVASCRIPT_KINDS, ...JSX_KINDS);
	else kinds.push(...TYPESCRIPT_KINDS, ...(language === "tsx" ? JSX_KINDS : []));
	return `[${kinds.map((kind) => `(${kind})`).join(" ")}] @node\n${CALL_PATTERNS}`;
}

type Captures = Record<string, Node>;

/**
 * The matches the patterns with fields would give for the captured `node` (none, one, or one per named child of an
 * exported ambient declaration), appended to `out`.
 */
export function nodeMatches(node: Node, language: LanguageId, out: CaptureMatch[]): void {
	const add = (captures: Captures): void => {
		out.push({ captures: Object.entries(captures).map(([name, captured]) => ({ name, node: captured })) });
	};
	switch (node.type) {
		case "function_declaration":
		case "generator_function_declaration":
		case "internal_module":
		case "module": {
			const name = ofType(node.childForFieldName("name"), "identifier");
			const body = named(node.childForFieldName("body"));
			const kind = node.type === "internal_module" || node.type === "module" ? "module" : "function";
			if (name !== undefined && body !== undefined) add({ [kind]: node, name, body });
			return;
		}
		case "class_declaration":
		case "abstract_class_declaration":
		case "interface_declaration":
		case "enum_declaration": {
			const name = named(node.childForFieldName("name"));
			const body = named(node.childForFieldName("body"));
			const kind = KIND_OF_DECLARATION[node.type] as string;
			if (name !== undefined && body !== undefined) add({ [kind]: node, name, body });
			return;
		}
		case "method_definition": {
			if (node.parent?.type !== "class_body") return;
			const name = named(node.childForFieldName("name"));
			const body = named(node.childForFieldName("body"));
			if (name !== undefined && body !== undefined) add({ method: node, name, body });
			return;
		}
		case "method_signature":
		case "abstract_method_signature": {
			const parent = node.parent?.type;
			if (parent !== "class_body" && (parent !== "interface_body" || node.type !== "method_signature")) return;
			const name = named(node.childForFieldName("name"));
			if (name !== undefined) add({ method: node, name });
			return;
		}
		case "function_signature": {
			const name = ofType(node.childForFieldName("name"), "identifier");
			if (name !== undefined) add({ function: node, name });
			return;
		}
		case "type_alias_declaration": {
			const name = named(node.childForFieldName("name"));
			if (name !== undefined) add({ type: node, name });
			return;
		}
		case "public_field_definition":
		case "field_definition": {
			if (node.parent?.type !== "class_body") return;
			const name = named(node.childForFieldName(node.type === "field_definition" ? "property" : "name"));
			const value = named(node.childForFieldName("value"));
			if (name !== undefined && value !== undefined) add({ field: node, name, fieldvalue: value });
			return;
		}
		case "export_statement": {
			const declaration = named(node.childForFieldName("declaration"));
			if (declaration === undefined) return;
			add({ export: node, exported: declaration });
			if (language === "javascript" || declaration.type !== "ambient_declaration") return;
			for (const child of namedChildren(declaration)) add({ export: node, exported: child });
			return;
		}
		case "jsx_opening_element":
		case "jsx_self_closing_element": {
			const name = node.childForFieldName("name");
			if (name?.type === "identifier") add({ jsx: name });
			else if (name?.type === "member_expression") {
				const property = named(name.childForFieldName("property"));
				if (property !== undefined) add({ jsx: property });
			}
			return;
		}
	}
}

const KIND_OF_DECLARATION: Record<string, string> = {
	class_declaration: "class",
	abstract_class_declaration: "class",
	interface_declaration: "interface",
	enum_declaration: "enum",
};

function ofType(node: Node | null, type: string): Node | undefined {
	return node?.type === type ? node : undefined;
}
