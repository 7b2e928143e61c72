/**
 * Policy globs, matched in time bounded by the lengths of the glob and the path. A policy is the repository's own
 * file, so its globs are untrusted input: Node's `path.matchesGlob` (minimatch, a regular expression per segment)
 * backtracks exponentially on `*a*a*a…b`, and one such region hung a review for minutes. The libraries at hand do
 * not fit: minimatch and picomatch compile globs to backtracking regular expressions too, and brace-expansion
 * expands braces in full before anything could count them.
 *
 * Semantics (those of `path.matchesGlob` on POSIX, for the features a policy documents):
 * - `*` matches any run of characters within one segment, `?` one character (not `/`), `[abc]`, `[a-z]`, `[!a]` or
 *   `[^a]` one character of a class; an unclosed `[` is itself. `**` as a whole segment matches any number of
 *   segments (at least one at the end of the glob: `src/**` is what lies under `src`); elsewhere it is `*`.
 * - A segment that starts with `.` is matched only by a glob segment starting with a literal `.` (`*`, `?`, classes
 *   and `**` never match a dotfile or enter a dot directory).
 * - `{a,b}` alternatives (nested, empty ones allowed, and crossing `/`) expand first; braces without a comma are
 *   literal. A glob and its expansion are bounded (`MAX_GLOB_CHARS`, `MAX_GLOB_ALTERNATIVES`,
 *   `MAX_GLOB_EXPANDED_CHARS`): a glob beyond them is an error, never a slow match.
 * - Empty and `.` segments are ignored (`a//b`, `./a/b`, a trailing `/`; Node matches no path with the last two);
 *   matching is case-sensitive on every platform, so a policy gives the same verdict on every machine.
 * - Not supported, and an error rather than silently literal: extended globs (`@(a|b)`, `!(a)`, `+(a)`, `?(a)`,
 *   `*(a)`), brace ranges (`{1..3}`) and POSIX classes (`[[:alpha:]]`).
 *
 * Time: the alternatives together are at most `MAX_GLOB_EXPANDED_CHARS` long, and each is matched by a table over
 * (glob segment, path segment) whose cells compare one segment pair greedily, in O(their lengths' product); so a
 * match costs O(MAX_GLOB_EXPANDED_CHARS × path length) at worst, with no backtracking beyond one star per segment.
 */

/** A glob is at most this many characters long. */
export const MAX_GLOB_CHARS = 1024;
/** A glob denotes at most this many alternatives once its braces are expanded. */
export const MAX_GLOB_ALTERNATIVES = 64;
/** Its expanded alternatives are at most this many characters together. */
export const MAX_GLOB_EXPANDED_CHARS = 2048;

/** A glob that cannot be compiled; the message says why, without naming the glob (the caller knows where it is). */
export class GlobError extends Error {}

/** A compiled glob over root-relative paths. */
export interface Glob {
	readonly source: string;
	/** Whether root-relative `path` (segments joined by `/`) matches. */
	matches(path: string): boolean;
}

/** Whether `pattern` is a glob at all; a pattern without these characters names a file or directory as written. */
export function isGlobPattern(pattern: string): boolean {
	return /[*?[\]{}!]/.test(pattern);
}

/** Compiles `pattern`; throws a GlobError for one outside the supported syntax or the expansion bounds. */
export function compileGlob(pattern: string): Glob {
	if (pattern.length > MAX_GLOB_CHARS)
		throw new GlobError(
			`is ${pattern.length} characters long, over the bound of ${MAX_GLOB_CHARS} (split it into several globs)`,
		);
	const extended = /[@!?+*]\(/.exec(pattern);
	if (extended !== null)
		throw new GlobError(`uses the extended glob "${extended[0]}…)", which is not supported (use {a,b} alternatives)`);
	if (/\{(?:-?\d+\.\.-?\d+|[a-zA-Z]\.\.[a-zA-Z])(?:\.\.-?\d+)?\}/.test(pattern))
		throw new GlobError("uses a brace range {x..y}, which is not supported (list the alternatives: {1,2,3})");
	const tree = parseBraces(pattern);
	const { count, chars } = measure(tree);
	if (count > MAX_GLOB_ALTERNATIVES || chars > MAX_GLOB_EXPANDED_CHARS) {
		const size =
			count > 1e9
				? "over a billion alternatives"
				: count > MAX_GLOB_ALTERNATIVES
					? `${count} alternatives`
					: `${chars} characters`;
		throw new GlobError(
			`expands to ${size}, over the bound of ${MAX_GLOB_ALTERNATIVES} alternatives and ${MAX_GLOB_EXPANDED_CHARS} characters in all (split it into several globs)`,
		);
	}
	const alternatives = expand(tree).map(compileAlternative);
	return {
		source: pattern,
		matches(path) {
			const segments = path.split("/").filter((segment) => segment !== "" && segment !== ".");
			return alternatives.some((glob) => matchSegments(glob, segments));
		},
	};
}

// Braces: a sequence of literal text and groups, a group being alternatives (each a sequence).

type Sequence = (string | Sequence[])[];

/**
 * Parses braces like brace-expansion: a balanced `{…}` with a top-level comma is a group; without one its braces
 * are literal (what is inside still expands), and an unbalanced brace is literal. Braces are paired in one pass
 * first, so an unclosed `{` is never parsed twice.
 */
function parseBraces(pattern: string): Sequence {
	const closing = new Map<number, number>();
	const open: number[] = [];
	for (let i = 0; i < pattern.length; i++) {
		if (pattern[i] === "{") open.push(i);
		else if (pattern[i] === "}" && open.length > 0) closing.set(open.pop() as number, i);
	}
	/** The sequence of `pattern[from, to)`, cut at its top-level commas when `split`. */
	const parse = (from: number, to: number, split: boolean): Sequence[] => {
		const alternatives: Sequence[] = [];
		let out: Sequence = [];
		let text = "";
		for (let at = from; at < to; at++) {
			const c = pattern[at] as string;
			const close = c === "{" ? closing.get(at) : undefined;
			if (split && c === ",") {
				if (text !== "") out.push(text);
				alternatives.push(out);
				out = [];
				text = "";
			} else if (close === undefined) text += c;
			else {
				if (text !== "") out.push(text);
				text = "";
				const inner = parse(at + 1, close, true);
				if (inner.length > 1) out.push(inner);
				else out.push("{", ...(inner[0] ?? []), "}");
				at = close;
			}
		}
		if (text !== "") out.push(text);
		alternatives.push(out);
		return alternatives;
	};
	return parse(0, pattern.length, false)[0] ?? [];
}

/** How many alternatives a sequence expands to and their length together; Infinity once beyond any bound. */
function measure(sequence: Sequence): { count: number; chars: number } {
	let count = 1;
	let chars = 0;
	for (const part of sequence) {
		let partCount = 1;
		let partChars = part.length;
		if (typeof part !== "string") {
			partCount = 0;
			partChars = 0;
			for (const alternative of part) {
				const inner = measure(alternative);
				partCount += inner.count;
				partChars += inner.chars;
			}
		}
		// Every alternative so far is followed by every one of this part's (floats saturate at Infinity).
		chars = chars * partCount + partChars * count;
		count *= partCount;
	}
	return { count, chars };
}

function expand(sequence: Sequence): string[] {
	let out = [""];
	for (const part of sequence) {
		const tails = typeof part === "string" ? [part] : part.flatMap(expand);
		out = out.flatMap((head) => tails.map((tail) => head + tail));
	}
	return out;
}

// One alternative: segments, each either `**` or a list of tokens.

type Token =
	| { kind: "char"; char: string }
	| { kind: "any" }
	| { kind: "star" }
	| { kind: "class"; negated: boolean; ranges: [number, number][] };
type Segment = { globstar: true } | { globstar: false; tokens: Token[] };

function compileAlternative(alternative: string): Segment[] {
	return alternative
		.split("/")
		.filter((segment) => segment !== "" && segment !== ".")
		.map(
			(segment): Segment => (segment === "**" ? { globstar: true } : { globstar: false, tokens: tokensOf(segment) }),
		);
}

function tokensOf(segment: string): Token[] {
	const chars = Array.from(segment);
	const tokens: Token[] = [];
	for (let i = 0; i < chars.length; i++) {
		const c = chars[i] as string;
		if (c === "*") {
			// Consecutive stars are one star (`**` inside a segment is `*`).
			if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
		} else if (c === "?") tokens.push({ kind: "any" });
		else if (c === "[") {
			const parsed = classAt(chars, i);
			if (parsed === undefined) tokens.push({ kind: "char", char: c });
			else {
				tokens.push(parsed.token);
				i = parsed.end;
			}
		} else tokens.push({ kind: "char", char: c });
	}
	return tokens;
}

/** The class opening at `chars[open]` and the index of its `]`, or undefined when it is not closed. */
function classAt(chars: readonly string[], open: number): { token: Token; end: number } | undefined {
	let i = open + 1;
	const negated = chars[i] === "!" || chars[i] === "^";
	if (negated) i++;
	const members: string[] = [];
	// A `]` right after the opening is a member, not the end.
	for (let first = true; i < chars.length && (first || chars[i] !== "]"); i++, first = false) {
		members.push(chars[i] as string);
	}
	if (i >= chars.length) return undefined;
	if (members.join("").includes("[:"))
		throw new GlobError("uses a POSIX character class [:…:], which is not supported");
	const ranges: [number, number][] = [];
	for (let m = 0; m < members.length; m++) {
		const low = (members[m] as string).codePointAt(0) as number;
		if (members[m + 1] === "-" && m + 2 < members.length) {
			ranges.push([low, (members[m + 2] as string).codePointAt(0) as number]);
			m += 2;
		} else ranges.push([low, low]);
	}
	// A class of one character is that character, as in minimatch: `[.]` names a dotfile like a literal `.`.
	const only = ranges[0];
	if (!negated && ranges.length === 1 && only !== undefined && only[0] === only[1]) {
		return { token: { kind: "char", char: String.fromCodePoint(only[0]) }, end: i };
	}
	return { token: { kind: "class", negated, ranges }, end: i };
}

/**
 * Whether the glob's segments match the path's: a table row per glob segment of which path prefixes the glob so far
 * matches, so every (glob segment, path segment) pair is compared at most once.
 */
function matchSegments(glob: readonly Segment[], path: readonly string[]): boolean {
	let row: boolean[] = path.map(() => false);
	row.push(false);
	row[0] = true;
	for (let g = 0; g < glob.length; g++) {
		const segment = glob[g] as Segment;
		const next: boolean[] = new Array<boolean>(path.length + 1).fill(false);
		if (segment.globstar) {
			// Any number of non-dot segments; at least one when it ends the glob.
			const last = g === glob.length - 1;
			next[0] = !last && (row[0] as boolean);
			for (let p = 1; p <= path.length; p++) {
				const enters = !(path[p - 1] as string).startsWith(".");
				next[p] = (!last && (row[p] as boolean)) || (enters && ((row[p - 1] as boolean) || (next[p - 1] as boolean)));
			}
		} else {
			for (let p = 1; p <= path.length; p++) {
				next[p] = (row[p - 1] as boolean) && matchSegment(segment.tokens, path[p - 1] as string);
			}
		}
		row = next;
		if (!row.includes(true)) return false;
	}
	return row[path.length] as boolean;
}

/**
 * Whether one path segment matches a glob segment's tokens: the greedy match with one star to return to (a later
 * star can absorb anything an earlier one could), so at most O(tokens × characters) steps.
 */
function matchSegment(tokens: readonly Token[], segment: string): boolean {
	const chars = Array.from(segment);
	if (chars[0] === "." && !(tokens[0]?.kind === "char" && tokens[0].char === ".")) return false;
	let t = 0;
	let c = 0;
	let star = -1;
	let resume = 0;
	while (c < chars.length) {
		const token = tokens[t];
		if (token?.kind === "star") {
			star = t++;
			resume = c;
		} else if (token !== undefined && single(token, chars[c] as string)) {
			t++;
			c++;
		} else if (star >= 0) {
			t = star + 1;
			c = ++resume;
		} else return false;
	}
	while (tokens[t]?.kind === "star") t++;
	return t === tokens.length;
}

function single(token: Token, char: string): boolean {
	if (token.kind === "any") return true;
	if (token.kind === "char") return token.char === char;
	if (token.kind === "star") return false;
	const code = char.codePointAt(0) as number;
	return token.ranges.some(([low, high]) => code >= low && code <= high) !== token.negated;
}
