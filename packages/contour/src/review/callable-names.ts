/**
 * How a callable or scope found by the syntax walk is named. Declarations carry their own name; function
 * expressions and lambdas take the name of what holds them (`const f = () => …`, `{ f: function () {} }`, a class
 * field, `exports.f = …`, Go `f := func() {}`, Rust `let f = |x| …`, Java `Runnable f = () -> …`); a function passed
 * to a call whose first argument is a string is named after that call (`it("parses flags")`, `app.get("/x")`), which
 * is how tests and route tables identify their callbacks. Only the few nodes that are callables or scopes go through
 * these functions, so they use the node API rather than the walk's cursor.
 */
import type { Node } from "web-tree-sitter";

const MAX_NAME = 80;
const STRING_TYPES = new Set([
	"string",
	"string_literal",
	"interpreted_string_literal",
	"raw_string_literal",
	"template_string",
]);
const CALLS = new Set(["call_expression", "call", "method_invocation"]);

/** The callable's own `name` field: the node and its text, if it has one. */
export function ownName(node: Node): Node | undefined {
	return node.childForFieldName("name") ?? undefined;
}

/** The name a function expression or lambda takes from the node that holds it, if any. */
export function contextName(node: Node): string | undefined {
	const parent = node.parent;
	if (parent === null) return undefined;
	switch (parent.type) {
		case "variable_declarator":
			return identifierText(parent.childForFieldName("name"));
		case "pair":
			return unquote(parent.childForFieldName("key")?.text);
		case "public_field_definition":
		case "field_definition":
			return (parent.childForFieldName("name") ?? parent.childForFieldName("property"))?.text;
		case "assignment_expression":
		case "assignment": {
			const left = parent.childForFieldName("left")?.text ?? "";
			return /[\p{L}\p{N}_$#]+$/u.exec(left)?.[0];
		}
		case "export_statement":
			return "default";
		case "let_declaration":
			return identifierText(parent.childForFieldName("pattern"));
		case "expression_list":
			return goHolderName(parent);
		default:
			return undefined;
	}
}

/** Go: `f := func() {}`, `f = func() {}`, `var f = func() {}` with a single value. */
function goHolderName(list: Node): string | undefined {
	if (list.namedChildCount !== 1) return undefined;
	const holder = list.parent;
	if (holder === null) return undefined;
	if (holder.type === "var_spec") return identifierText(holder.childForFieldName("name"));
	if (holder.type !== "short_var_declaration" && holder.type !== "assignment_statement") return undefined;
	const left = holder.childForFieldName("left");
	return left?.namedChildCount === 1 ? identifierText(left.namedChild(0)) : undefined;
}

/**
 * `callee("first string argument")` when `node` is an argument of a call whose first argument is a string literal;
 * `callee(…)` when `orAny` and the first argument is something else; otherwise `undefined`.
 */
export function callContextName(node: Node, orAny: boolean): string | undefined {
	const args = node.parent;
	const call = args?.parent;
	if (args === null || args === undefined || call === null || call === undefined || !CALLS.has(call.type)) {
		return undefined;
	}
	if (call.childForFieldName("arguments")?.id !== args.id) return undefined;
	const target = call.childForFieldName("function") ?? call.childForFieldName("name");
	const callee = oneLine(target?.text ?? "call", 40);
	const first = args.namedChild(0);
	if (first !== null && STRING_TYPES.has(first.type) && first.id !== node.id) {
		return `${callee}(${oneLine(first.text, MAX_NAME - callee.length)})`;
	}
	return orAny ? `${callee}(…)` : undefined;
}

/** The name a class-like scope gives its members: its `name`, or the implemented type of a Rust `impl`. */
export function scopeName(node: Node): string | undefined {
	if (node.type === "impl_item") return lastIdentifier(node.childForFieldName("type")?.text ?? "");
	return unquote(node.childForFieldName("name")?.text);
}

/** Go: the receiver type of a method, without `*` and type parameters. */
export function receiverType(node: Node): string | undefined {
	const receiver = node.childForFieldName("receiver");
	const declaration = receiver?.namedChildren.find((child) => child?.type === "parameter_declaration");
	return lastIdentifier(declaration?.childForFieldName("type")?.text ?? "");
}

function identifierText(node: Node | null | undefined): string | undefined {
	return node?.type.endsWith("identifier") === true ? node.text : undefined;
}

function unquote(text: string | undefined): string | undefined {
	if (text === undefined || text === "") return undefined;
	return /^(["'`]).*\1$/s.test(text) ? text.slice(1, -1) : text;
}

/** `*pkg.Server[T]` → `Server`; empty when there is no identifier. */
function lastIdentifier(text: string): string | undefined {
	const head = text.split(/[<[(]/)[0] ?? "";
	return /[\p{L}\p{N}_]+(?=[^\p{L}\p{N}_]*$)/u.exec(head)?.[0];
}

function oneLine(text: string, max: number): string {
	const collapsed = text.replace(/\s+/g, " ").trim();
	return collapsed.length <= max ? collapsed : `${collapsed.slice(0, Math.max(1, max - 1))}…`;
}
