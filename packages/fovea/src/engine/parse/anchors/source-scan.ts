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
 * A handler named by an argument, as written with `.` between its parts: a plain name or a member path (`getUser`,
 * `users.show`, `views.UserView.as_view()` → `views.UserView`, `handlers::list` → `handlers.list`, `this.show` →
 * `show`), else `undefined` (an inline function, a call building one). The last part names the handler, the first
 * (when there are more) the module or object holding it.
 */
export function handlerName(argument: string | undefined): string | undefined {
	if (argument === undefined) return undefined;
	const text = argument
		.replace(/\.as_view\(\s*\)$/, "")
		.replace(/^&/, "")
		.replace(/^(?:this|self)\./, "");
	if (!/^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*$/.test(text)) return undefined;
	return text.replace(/::/g, ".");
}

/** The first string literal of an argument's text (`"/x"`, `'/x'`, `` `/x` ``, `r"/x"`), unquoted, or `undefined`. */
export function stringLiteral(argument: string | undefined): string | undefined {
	if (argument === undefined) return undefined;
	const match = /^(?:[rRbuU]{0,2})(["'`])([^"'`]*)\1/.exec(argument.trim());
	return match?.[2];
}

/**
 * The name of the next definition after `from` that a global `pattern` (with one capture group, the name) finds
 * within `window` characters: the function a decorator or annotation stands on.
 */
export function nextDefinition(source: string, from: number, pattern: RegExp, window = 1500): string | undefined {
	if (!pattern.global) throw new Error(`nextDefinition needs a global pattern, not ${pattern}`);
	pattern.lastIndex = from;
	const match = pattern.exec(source);
	return match !== null && match.index <= from + window ? match[1] : undefined;
}

/**
 * Where `source`'s comments are (and Python's triple-quoted strings, docstrings above all), as `[start, end, start,
 * end, …]` in order: a route or literal in a doc comment's example (`// router.GET("/user/:id", …)`) is not one the
 * file declares. String literals are skipped over, so `"http://x"` is not a comment. Linear, and it copies nothing:
 * it jumps from one quote or comment marker to the next with one regular expression.
 */
export function commentRanges(source: string, python: boolean): number[] {
	const ranges: number[] = [];
	const marker = python ? /["'#]/g : /["'`/]/g;
	for (let found = marker.exec(source); found !== null; found = marker.exec(source)) {
		const i = found.index;
		const ch = found[0];
		let next = i + 1;
		if (python && (source.startsWith('"""', i) || source.startsWith("'''", i))) {
			const close = source.indexOf(source.slice(i, i + 3), i + 3);
			next = close < 0 ? source.length : close + 3;
			ranges.push(i, next);
		} else if (ch === '"' || ch === "'" || ch === "`") {
			next = stringEnd(source, i, ch) + 1;
		} else if (ch === "#" || source[i + 1] === "/") {
			const end = source.indexOf("\n", i);
			next = end < 0 ? source.length : end;
			ranges.push(i, next);
		} else if (source[i + 1] === "*") {
			const close = source.indexOf("*/", i + 2);
			next = close < 0 ? source.length : close + 2;
			ranges.push(i, next);
		}
		marker.lastIndex = next;
	}
	return ranges;
}

/** Whether `offset` lies inside one of `ranges` (as `commentRanges` gives them). */
export function insideRanges(ranges: readonly number[], offset: number): boolean {
	let low = 0;
	let high = ranges.length / 2 - 1;
	while (low <= high) {
		const mid = (low + high) >> 1;
		if (offset < (ranges[2 * mid] as number)) high = mid - 1;
		else if (offset >= (ranges[2 * mid + 1] as number)) low = mid + 1;
		else return true;
	}
	return false;
}

/** `source` with `ranges` blanked out, every line break kept, so offsets and lines stay those of the source. */
export function blankRanges(source: string, ranges: readonly number[]): string {
	if (ranges.length === 0) return source;
	const parts: string[] = [];
	let kept = 0;
	for (let i = 0; i < ranges.length; i += 2) {
		const from = ranges[i] as number;
		const to = ranges[i + 1] as number;
		parts.push(source.slice(kept, from), source.slice(from, to).replace(/[^\n]/g, " "));
		kept = to;
	}
	parts.push(source.slice(kept));
	return parts.join("");
}

/** The offset of the quote closing the string opened at `open` (backslash escapes skipped), or of its line's end. */
function stringEnd(source: string, open: number, quote: string): number {
	for (let i = open + 1; i < source.length; i++) {
		const ch = source[i];
		if (ch === "\\") i++;
		else if (ch === quote) return i;
		else if (ch === "\n" && quote !== "`") return i;
	}
	return source.length;
}
