/**
 * Reading a few tokens of source text around a match, for the route extractors: which line an offset is on, the
 * arguments of a call, the name defined after a decorator or annotation. Text-level on purpose: a route is a call or
 * an annotation with a string literal, found by one regular expression pass per framework family over the file,
 * where walking the syntax tree from JavaScript costs a wasm call per node. Pure.
 */

/** Longest argument list read after a route's path: a handler written inline can be long, its name is not needed. */
const MAX_ARGUMENTS_CHARS = 4000;

/** 1-based line of offsets in one text, by binary search over its line starts (computed once per text). */
export class LineMap {
	readonly #starts: number[] = [0];

	constructor(text: string) {
		for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.#starts.push(i + 1);
	}

	/** The 1-based line `offset` is on. */
	lineAt(offset: number): number {
		let low = 0;
		let high = this.#starts.length - 1;
		while (low < high) {
			const mid = (low + high + 1) >> 1;
			if ((this.#starts[mid] as number) <= offset) low = mid;
			else high = mid - 1;
		}
		return low + 1;
	}
}

/**
 * The top-level arguments of the call whose `(` is at `open`, trimmed, as text, and the offset after its closing
 * bracket; stops there, or after `MAX_ARGUMENTS_CHARS` (the arguments read so far). Strings and nested brackets are
 * skipped over, so a comma inside them does not split.
 */
export function callArguments(source: string, open: number): { args: string[]; end: number } {
	const args: string[] = [];
	let depth = 0;
	let start = open + 1;
	const end = Math.min(source.length, open + MAX_ARGUMENTS_CHARS);
	for (let i = open + 1; i < end; i++) {
		const ch = source[i] as string;
		if (ch === '"' || ch === "'" || ch === "`") {
			const close = source.indexOf(ch, i + 1);
			if (close < 0 || close >= end) break;
			i = close;
		} else if (ch === "(" || ch === "[" || ch === "{") depth++;
		else if (ch === ")" || ch === "]" || ch === "}") {
			if (depth === 0) {
				args.push(source.slice(start, i).trim());
				return { args: args.filter((arg) => arg !== ""), end: i + 1 };
			}
			depth--;
		} else if (ch === "," && depth === 0) {
			args.push(source.slice(start, i).trim());
			start = i + 1;
		}
	}
	return { args: args.filter((arg) => arg !== ""), end };
}

/**
 * A handler named by an argument: its last identifier when the argument is a plain name or member path
 * (`getUser`, `users.show`, `views.UserView.as_view()` → `UserView`, `handlers::list` → `list`), else `undefined`
 * (an inline function, a call building one).
 */
export function handlerName(argument: string | undefined): string | undefined {
	if (argument === undefined) return undefined;
	const text = argument.replace(/\.as_view\(\s*\)$/, "").replace(/^&/, "");
	if (!/^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*$/.test(text)) return undefined;
	const parts = text.split(/\.|::/);
	return parts[parts.length - 1];
}

/** The first string literal of an argument's text (`"/x"`, `'/x'`, `` `/x` ``, `r"/x"`), unquoted, or `undefined`. */
export function stringLiteral(argument: string | undefined): string | undefined {
	if (argument === undefined) return undefined;
	const match = /^(?:[rRbuU]{0,2})(["'`])([^"'`]*)\1/.exec(argument.trim());
	return match?.[2];
}

/**
 * The name of the next definition after `from` that a `pattern` (with one capture group, the name) finds within
 * `window` characters: the function a decorator or annotation stands on.
 */
export function nextDefinition(source: string, from: number, pattern: RegExp, window = 1500): string | undefined {
	const flags = pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`;
	const search = new RegExp(pattern.source, flags);
	search.lastIndex = from;
	const match = search.exec(source.slice(0, from + window));
	return match?.[1];
}
