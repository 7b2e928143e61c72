/**
 * A declaration's one-line signature, from its source text: decorators and annotations dropped, comments dropped,
 * whitespace collapsed, at most 200 characters. Comments go before the collapse, since a `//` comment inside a
 * multi-line header or initializer would otherwise swallow the rest of the line it is folded into
 * (`const ARGS = [ "status", // why … "--porcelain" ]`).
 *
 * Comments are found with each language family's comment and string syntax (quoted text is never taken for a
 * comment), not with the syntax tree: a signature is cut from the text between a node's start and its header's end.
 */

/**
 * How a language writes comments and strings: `c` is `//` and `/* *\/` with `'`, `"` and `` ` `` quotes (TypeScript,
 * JavaScript, Java, Go); `rust` the same comments with `"` strings and `'x'` characters (a lone `'` starts a
 * lifetime, not a quote); `hash` is `#` with `'` and `"` quotes (Python).
 */
export type CommentStyle = "c" | "rust" | "hash";

const MAX_SIGNATURE = 200;
/** Raw characters looked at for a signature; collapsing whitespace can only shrink text. */
export const MAX_RAW_SIGNATURE = 2000;

/** Drops comments, collapses whitespace runs to single spaces, trims, and caps the result at 200 characters. */
export function oneLine(text: string, comments: CommentStyle): string {
	return collapse(withoutComments(text, comments));
}

function collapse(text: string): string {
	const collapsed = text.replace(/\s+/g, " ").trim();
	return collapsed.length <= MAX_SIGNATURE ? collapsed : `${collapsed.slice(0, MAX_SIGNATURE - 1)}…`;
}

/**
 * The declaration header: `source[start, headerEnd)` without leading decorators/annotations and comments, on one
 * line, at most 200 characters, without a trailing `{`, `;` or `,`.
 */
export function signatureOf(source: string, start: number, headerEnd: number, comments: CommentStyle): string {
	const raw = source.slice(start, Math.min(headerEnd, start + MAX_RAW_SIGNATURE));
	return collapse(stripDecorators(withoutComments(raw, comments)).replace(/[\s{;,]+$/, ""));
}

/** `text` with every comment replaced by a space (a line comment's end of line is kept). */
export function withoutComments(text: string, style: CommentStyle): string {
	const lineComment = style === "hash" ? "#" : "//";
	if (!text.includes(lineComment) && (style === "hash" || !text.includes("/*"))) return text;
	let out = "";
	let kept = 0;
	for (let i = 0; i < text.length; ) {
		const ch = text.charAt(i);
		const quoteEnd = quotedEnd(text, i, style);
		if (quoteEnd > i) {
			i = quoteEnd;
			continue;
		}
		let end = -1;
		if (text.startsWith(lineComment, i)) {
			end = text.indexOf("\n", i);
			if (end < 0) end = text.length;
		} else if (style !== "hash" && ch === "/" && text.charAt(i + 1) === "*") {
			end = text.indexOf("*/", i + 2);
			end = end < 0 ? text.length : end + 2;
		}
		if (end < 0) {
			i++;
			continue;
		}
		out += `${text.slice(kept, i)} `;
		kept = end;
		i = end;
	}
	return out + text.slice(kept);
}

/** Where the quoted text starting at `i` ends (just after its closing quote), or `i` when no quote starts there. */
function quotedEnd(text: string, i: number, style: CommentStyle): number {
	const quote = text.charAt(i);
	if (quote !== '"' && quote !== "'" && (quote !== "`" || style !== "c")) return i;
	if (quote === "'" && style === "rust") {
		// A character literal closes within a few characters ('x', '\n', '\u{1F600}'); a lifetime never does.
		const close = text.indexOf("'", i + 1);
		return close > i + 1 && close <= i + 10 && (close === i + 2 || text.charAt(i + 1) === "\\") ? close + 1 : i;
	}
	for (let j = i + 1; j < text.length; j++) {
		const ch = text.charAt(j);
		if (ch === "\\") j++;
		else if (ch === quote) return j + 1;
		else if (ch === "\n" && quote !== "`" && style !== "hash") return j; // an unclosed quote ends with its line
	}
	return text.length;
}

/** Removes leading `@decorator`, `@a.b(args)` and Java annotations (not the `@interface` keyword). */
export function stripDecorators(text: string): string {
	let i = skipSpace(text, 0);
	while (text.charCodeAt(i) === 64 /* @ */) {
		let j = i + 1;
		while (j < text.length && /[\w$.]/.test(text.charAt(j))) j++;
		if (text.slice(i + 1, j) === "interface") break;
		j = skipSpace(text, j);
		if (text.charAt(j) === "(") j = skipSpace(text, skipBalanced(text, j));
		if (j === i + 1) break;
		i = j;
	}
	return i === 0 ? text : text.slice(i);
}

function skipSpace(text: string, i: number): number {
	while (i < text.length && /\s/.test(text.charAt(i))) i++;
	return i;
}

/** Index just after the bracket group opening at `i`, skipping quoted strings; the end of text if unbalanced. */
function skipBalanced(text: string, i: number): number {
	let depth = 0;
	let quote = "";
	for (; i < text.length; i++) {
		const ch = text.charAt(i);
		if (quote !== "") {
			if (ch === "\\") i++;
			else if (ch === quote) quote = "";
		} else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
		else if (ch === "(" || ch === "[" || ch === "{") depth++;
		else if (ch === ")" || ch === "]" || ch === "}") {
			depth--;
			if (depth === 0) return i + 1;
		}
	}
	return text.length;
}
