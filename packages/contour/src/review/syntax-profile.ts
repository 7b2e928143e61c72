/**
 * What Contour's one syntax walk needs to know about each language's tree-sitter grammar: which nodes are callables,
 * which give methods a container, which count as decision points, and which leaves are comments or literals.
 *
 * Decision points (cyclomatic complexity = decisions + 1 per callable):
 *
 * | language | counted |
 * | --- | --- |
 * | TS/TSX/JS | `if`, `for`, `for…in`/`for…of`, `while`, `do`, `case` (not `default`), `catch`, `?:`, `&&`, `\|\|`, `??`, and the logical assignments `&&=` `\|\|=` `??=` (they branch like their operators) |
 * | Python | `if`, `elif`, `for`, `while`, `except`, `x if c else y`, each `and`/`or`, comprehension `if` (not its `for`), every `case` of a `match` after the first (as Rust's arms) |
 * | Go | `if`, `for`, each `case` of expression, type and `select` switches (not `default`), `&&`, `\|\|` |
 * | Rust | `if` (and `if let`), `while` (and `while let`), `for`, every `match` arm after the first, a match-arm guard `if`, `&&`, `\|\|`, `?` |
 * | Java | `if`, `for`, enhanced `for`, `while`, `do`, each `case` label (not `default`), `catch`, `?:`, `&&`, `\|\|` |
 *
 * Rust `loop` is not a decision: it has no condition, and the `break` that ends it sits in a branch already counted.
 * `else` is never counted: it is the other side of a decision already counted.
 */
import type { LanguageId } from "pi-fovea/engine";

/** Grammar knowledge of one language family, as node-type sets. */
export interface SyntaxProfile {
	/** Callables with their own name in a `name` field (declarations, methods). */
	namedFunctions: ReadonlySet<string>;
	/** Function expressions, lambdas and closures: named from context (`const f = () => …`) or anonymous. */
	anonymousFunctions: ReadonlySet<string>;
	/** Scopes whose name becomes the `container` of callables inside them. */
	classLikes: ReadonlySet<string>;
	/** Node types that are one decision each. */
	decisions: ReadonlySet<string>;
	/** Leaf tokens that are one decision each when their parent has the given type. */
	leafDecisions: ReadonlyMap<string, ReadonlySet<string>>;
	/** Node types that are a decision when a named sibling of the same type precedes them (Rust `match` arms). */
	repeatedDecisions: ReadonlySet<string>;
	comments: ReadonlySet<string>;
	/** Named leaf-like nodes that are literals (besides every type ending in `_literal`): one `LIT` token each. */
	literals: ReadonlySet<string>;
	/** String literals with interpolations: one `LIT` token, but the interpolated code is walked. */
	interpolatedStrings: ReadonlySet<string>;
	/** Children of an interpolated string that hold code. */
	interpolations: ReadonlySet<string>;
}

const set = (...items: string[]): ReadonlySet<string> => new Set(items);

const COMMENTS = set("comment", "line_comment", "block_comment", "html_comment");
const NONE = set();

const SCRIPT: SyntaxProfile = {
	namedFunctions: set("function_declaration", "generator_function_declaration", "method_definition"),
	anonymousFunctions: set("arrow_function", "function_expression", "function", "generator_function"),
	classLikes: set("class_declaration", "abstract_class_declaration", "class", "internal_module", "module"),
	decisions: set(
		"if_statement",
		"for_statement",
		"for_in_statement",
		"while_statement",
		"do_statement",
		"switch_case",
		"catch_clause",
		"ternary_expression",
	),
	leafDecisions: new Map([
		["binary_expression", set("&&", "||", "??")],
		["augmented_assignment_expression", set("&&=", "||=", "??=")],
	]),
	repeatedDecisions: NONE,
	comments: COMMENTS,
	literals: set("string", "number", "regex", "true", "false", "null", "undefined"),
	interpolatedStrings: set("template_string"),
	interpolations: set("template_substitution"),
};

const PYTHON: SyntaxProfile = {
	namedFunctions: set("function_definition"),
	anonymousFunctions: set("lambda"),
	classLikes: set("class_definition"),
	decisions: set(
		"if_statement",
		"elif_clause",
		"for_statement",
		"while_statement",
		"except_clause",
		"conditional_expression",
		"boolean_operator",
		"if_clause",
	),
	leafDecisions: new Map(),
	repeatedDecisions: set("case_clause"),
	comments: COMMENTS,
	literals: set("integer", "float", "true", "false", "none", "ellipsis"),
	interpolatedStrings: set("string", "concatenated_string"),
	interpolations: set("interpolation"),
};

const GO: SyntaxProfile = {
	namedFunctions: set("function_declaration", "method_declaration"),
	anonymousFunctions: set("func_literal"),
	classLikes: NONE,
	decisions: set("if_statement", "for_statement", "expression_case", "type_case", "communication_case"),
	leafDecisions: new Map([["binary_expression", set("&&", "||")]]),
	repeatedDecisions: NONE,
	comments: COMMENTS,
	literals: set("true", "false", "nil", "iota"),
	interpolatedStrings: NONE,
	interpolations: NONE,
};

const RUST: SyntaxProfile = {
	namedFunctions: set("function_item"),
	anonymousFunctions: set("closure_expression"),
	classLikes: set("impl_item", "trait_item", "mod_item"),
	decisions: set("if_expression", "while_expression", "for_expression", "try_expression"),
	leafDecisions: new Map([
		["binary_expression", set("&&", "||")],
		["match_pattern", set("if")],
	]),
	repeatedDecisions: set("match_arm"),
	comments: COMMENTS,
	literals: NONE,
	interpolatedStrings: NONE,
	interpolations: NONE,
};

const JAVA: SyntaxProfile = {
	namedFunctions: set("method_declaration", "constructor_declaration", "compact_constructor_declaration"),
	anonymousFunctions: set("lambda_expression"),
	classLikes: set(
		"class_declaration",
		"interface_declaration",
		"enum_declaration",
		"record_declaration",
		"annotation_type_declaration",
	),
	decisions: set(
		"if_statement",
		"for_statement",
		"enhanced_for_statement",
		"while_statement",
		"do_statement",
		"catch_clause",
		"ternary_expression",
	),
	leafDecisions: new Map([
		["binary_expression", set("&&", "||")],
		["switch_label", set("case")],
	]),
	repeatedDecisions: NONE,
	comments: COMMENTS,
	literals: set("true", "false", "text_block"),
	interpolatedStrings: NONE,
	interpolations: NONE,
};

const PROFILES: Record<LanguageId, SyntaxProfile> = {
	typescript: SCRIPT,
	tsx: SCRIPT,
	javascript: SCRIPT,
	python: PYTHON,
	go: GO,
	rust: RUST,
	java: JAVA,
};

/** The grammar knowledge for `language`. */
export function profileOf(language: LanguageId): SyntaxProfile {
	return PROFILES[language];
}

/** Whether a named node of `type` is a literal under `profile` (one `LIT` token, not walked into). */
export function isLiteral(profile: SyntaxProfile, type: string): boolean {
	return type.endsWith("_literal") || profile.literals.has(type);
}
