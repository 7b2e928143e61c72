/**
 * Rules for code that does nothing a shorter form would not do. Each rule looks at one candidate node the syntax
 * walk hands it (an `if`, a conditional expression, a `catch`/`except`) and never walks further than a few children.
 *
 * - `catch-rethrow` (TS/JS, Java, Python): a `catch (e) { throw e; }` / `except X as e: raise` (or bare `raise`)
 *   whose body is only that rethrow. A catch that logs, wraps or cleans up first is not needless, and neither is
 *   one followed by another `catch`/`except` of the same `try`: there the rethrow keeps the later, broader handler
 *   from seeing the error.
 * - `boolean-return` (TS/JS, Java, Python, Go, Rust): `if (c) return true; else return false;` (or without `else`,
 *   followed directly by `return false;`), the inverse, Rust `if c { true } else { false }`, and a conditional
 *   expression whose branches are opposite boolean literals (`c ? true : false`, `True if c else False`). Go `if`
 *   with an init statement and Rust `if let` are left alone: they do not reduce to one expression.
 */
import type { LanguageId } from "pi-fovea/engine";
import type { Node } from "web-tree-sitter";

/** Which rule a needless-code hit broke. */
export type NeedlessRule = "catch-rethrow" | "boolean-return";

/** A hit before it is placed in a callable: where, which rule, and the smallest text that shows it. */
export interface NeedlessMatch {
	rule: NeedlessRule;
	line: number;
	endLine: number;
	/** The matched code on one line, whitespace collapsed (used to recognize the same hit after a move). */
	text: string;
}

const CANDIDATES: Record<LanguageId, ReadonlySet<string>> = {
	typescript: new Set(["if_statement", "ternary_expression", "catch_clause"]),
	tsx: new Set(["if_statement", "ternary_expression", "catch_clause"]),
	javascript: new Set(["if_statement", "ternary_expression", "catch_clause"]),
	java: new Set(["if_statement", "ternary_expression", "catch_clause"]),
	python: new Set(["if_statement", "conditional_expression", "except_clause"]),
	go: new Set(["if_statement"]),
	rust: new Set(["if_expression"]),
};

const BLOCKS = new Set(["statement_block", "block"]);
const MAX_TEXT = 400;

/** Node types the walk should hand to `needlessAt` for `language`. */
export function needlessCandidates(language: LanguageId): ReadonlySet<string> {
	return CANDIDATES[language];
}

/** The needless-code hit at `node` (one of `needlessCandidates`), if the node breaks a rule. */
export function needlessAt(node: Node): NeedlessMatch | undefined {
	switch (node.type) {
		case "catch_clause":
			return catchRethrow(node);
		case "except_clause":
			return exceptReraise(node);
		case "ternary_expression":
		case "conditional_expression":
			return booleanConditional(node);
		default:
			return booleanIf(node);
	}
}

function hit(rule: NeedlessRule, first: Node, last: Node = first): NeedlessMatch {
	const text = first.id === last.id ? first.text : `${first.text} ${last.text}`;
	const collapsed = text.replace(/\s+/g, " ").trim();
	return {
		rule,
		line: first.startPosition.row + 1,
		endLine: last.endPosition.row + 1,
		text: collapsed.length <= MAX_TEXT ? collapsed : `${collapsed.slice(0, MAX_TEXT - 1)}…`,
	};
}

/** The named children of `node` but comments; a Go block's `statement_list` gives its statements instead. */
function statements(node: Node): Node[] {
	const found: Node[] = [];
	for (const child of node.namedChildren) {
		if (child === null || child.type.endsWith("comment")) continue;
		if (child.type === "statement_list") found.push(...statements(child));
		else found.push(child);
	}
	return found;
}

function onlyStatement(block: Node | null | undefined): Node | undefined {
	if (block === null || block === undefined) return undefined;
	const inner = statements(block);
	return inner.length === 1 ? inner[0] : undefined;
}

function catchRethrow(node: Node): NeedlessMatch | undefined {
	if (node.nextNamedSibling?.type === "catch_clause") return undefined;
	const parameter =
		node.childForFieldName("parameter") ??
		node.namedChildren.find((child) => child?.type === "catch_formal_parameter")?.childForFieldName("name");
	if (parameter === null || parameter === undefined || parameter.type !== "identifier") return undefined;
	const thrown = onlyStatement(node.childForFieldName("body"));
	if (thrown?.type !== "throw_statement") return undefined;
	const value = statements(thrown)[0];
	return value?.type === "identifier" && value.text === parameter.text ? hit("catch-rethrow", node) : undefined;
}

function exceptReraise(node: Node): NeedlessMatch | undefined {
	if (node.nextNamedSibling?.type === "except_clause") return undefined;
	const body = node.namedChildren.findLast((child) => child?.type === "block");
	const raised = onlyStatement(body);
	if (raised?.type !== "raise_statement") return undefined;
	const value = statements(raised);
	if (value.length === 0) return hit("catch-rethrow", node);
	const alias = exceptAlias(node);
	return value.length === 1 && value[0]?.type === "identifier" && value[0].text === alias
		? hit("catch-rethrow", node)
		: undefined;
}

/** The `e` of `except X as e`, in grammars with an `as_pattern` and in older ones with a bare `as` token. */
function exceptAlias(node: Node): string | undefined {
	const pattern = node.namedChildren.find((child) => child?.type === "as_pattern");
	if (pattern !== undefined && pattern !== null) return pattern.childForFieldName("alias")?.text;
	const children = node.children;
	const as = children.findIndex((child) => child?.type === "as");
	return as < 0 ? undefined : children.slice(as + 1).find((child) => child?.isNamed)?.text;
}

/** `true`/`false` when `node` is a boolean literal. */
function booleanValue(node: Node | null | undefined): boolean | undefined {
	if (node === null || node === undefined) return undefined;
	if (node.type !== "true" && node.type !== "false" && node.type !== "boolean_literal") return undefined;
	const text = node.text.toLowerCase();
	return text === "true" ? true : text === "false" ? false : undefined;
}

/** The boolean literal a branch returns (or, in Rust, yields as its tail), if it does nothing else. */
function returnedBoolean(branch: Node | null | undefined): boolean | undefined {
	if (branch === null || branch === undefined) return undefined;
	if (BLOCKS.has(branch.type)) {
		const only = onlyStatement(branch);
		if (only === undefined) return undefined;
		// Rust: a block whose tail is the literal itself yields it.
		return booleanValue(only) ?? returnedBoolean(only);
	}
	if (branch.type === "else_clause") {
		return returnedBoolean(branch.childForFieldName("body") ?? statements(branch)[0]);
	}
	if (branch.type === "expression_statement") return returnedBoolean(statements(branch)[0]);
	if (branch.type !== "return_statement" && branch.type !== "return_expression") return undefined;
	const values = statements(branch);
	if (values.length !== 1) return undefined;
	const value = values[0];
	if (value?.type === "expression_list")
		return value.namedChildCount === 1 ? booleanValue(value.namedChild(0)) : undefined;
	return booleanValue(value);
}

function booleanIf(node: Node): NeedlessMatch | undefined {
	if (node.childForFieldName("initializer") !== null) return undefined; // Go `if x := f(); x {`
	if (node.childForFieldName("condition")?.type === "let_condition") return undefined; // Rust `if let`
	if (node.namedChildren.some((child) => child?.type === "elif_clause")) return undefined;
	const then = returnedBoolean(node.childForFieldName("consequence"));
	if (then === undefined) return undefined;
	const alternative = node.childForFieldName("alternative");
	if (alternative !== null) {
		return returnedBoolean(alternative) === !then ? hit("boolean-return", node) : undefined;
	}
	// `if (c) return true; return false;` — in Rust the `if` sits in an expression statement.
	const statement = node.parent?.type === "expression_statement" ? node.parent : node;
	let next = statement.nextNamedSibling;
	while (next?.type.endsWith("comment") === true) next = next.nextNamedSibling;
	if (next === null || (next.type !== "return_statement" && next.type !== "expression_statement")) return undefined;
	return returnedBoolean(next) === !then ? hit("boolean-return", node, next) : undefined;
}

function booleanConditional(node: Node): NeedlessMatch | undefined {
	let whenTrue: Node | null | undefined;
	let whenFalse: Node | null | undefined;
	if (node.type === "conditional_expression") {
		// Python: `a if c else b`
		const parts = statements(node);
		if (parts.length !== 3) return undefined;
		[whenTrue, , whenFalse] = parts;
	} else {
		whenTrue = node.childForFieldName("consequence");
		whenFalse = node.childForFieldName("alternative");
	}
	const a = booleanValue(whenTrue);
	return a !== undefined && booleanValue(whenFalse) === !a ? hit("boolean-return", node) : undefined;
}
