/**
 * The string literals a query names: a linter's message (`unused-import`), an option (`--ignore-paths`,
 * `min-similarity-lines`), a config or header key (`x-request-id`). Such a name lives in the code as a quoted
 * string (`"unused-import"` in the checker that emits it, `"ignore-paths"` where the option is declared), which the
 * words of the query do not find: split into words (`unused`, `import`) it matches every file. Found among the
 * files' anchor literals (`parse/anchors/literals.ts`), a literal few files hold names them.
 *
 * Read from code spans (the span whole; an option as written and without its dashes and value, as projects declare
 * options either way: `--recursive=y` is `--recursive` and `recursive`), strongly; weakly from options anywhere
 * (`pytest --fixtures` in a code block) and from the title's words joined by hyphens (`unused-import false
 * positive`). Hyphenated words of the body and code blocks are left out: prose joins English words that way too
 * (`self-contained`, `conda-forge`), and a run's output lists every message it printed, most of them not what the
 * issue is about.
 */

/** A string literal the query names, and how strongly, in (0, 1]. */
export interface NamedLiteral {
	literal: string;
	weight: number;
}

/**
 * Whether a query has a body beyond its first non-blank line: an issue's title and text, not a commit subject or a
 * few words, which focus and the literals read apart.
 */
export function hasBody(text: string): boolean {
	// A second non-blank line is a line break inside the trimmed text (a pattern for it rescanned each line's rest).
	return text.trim().includes("\n");
}
/** A fenced code block. */
const FENCE = /```[^\n]*\n[\s\S]*?(?:```|$)/g;
/** An inline code span, on one line. */
const CODE_SPAN = /`([^`\n]+)`/g;
/** A span that may be a literal: an option's dashes and value aside, a name of 3 to 64 characters without spaces. */
const SPAN_LITERAL = /^-{0,2}([A-Za-z][\w.:-]{2,63})(?:=\S*)?$/;
/** Words of the prose joined by hyphens, in lower case: `unused-import`, `min-similarity-lines`. */
const KEBAB = /(?<![\w-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])/g;
/** A command-line option anywhere, as declared (`--fixtures` of `pytest --fixtures`), its value aside. */
const OPTION = /(?<![\w-])(--[a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?![\w-])/g;
/** How strongly an option outside a code span names its literal: a command run, or its output listing options. */
const OPTION_WEIGHT = 0.5;
/** How strongly a hyphenated word of the title names a literal, against a code span's 1. */
const TITLE_WEIGHT = 0.5;

/**
 * The literals `text` names; see the module comment. None for a one-line query: a commit subject's hyphenated words
 * and spans name areas and packages (`fix(runtime-core): …`, `` `v-model` ``), which the root holds as literals too
 * (read as literals, they cost vuejs/core's subjects 0.056 of MRR); an issue has a body.
 */
export function readLiterals(text: string): NamedLiteral[] {
	if (!hasBody(text)) return [];
	const found = new Map<string, number>();
	const add = (literal: string, weight: number) => found.set(literal, Math.max(found.get(literal) ?? 0, weight));
	const prose = text.replace(FENCE, " ");
	for (const m of prose.matchAll(CODE_SPAN)) {
		const span = SPAN_LITERAL.exec((m[1] as string).trim());
		if (span === null) continue;
		add(span[1] as string, 1);
		if (span[0].startsWith("--")) add(`--${span[1]}`, 1);
	}
	for (const m of text.matchAll(OPTION)) add(m[1] as string, OPTION_WEIGHT);
	const title = prose.split("\n").find((line) => line.trim() !== "") ?? "";
	for (const m of title.replace(CODE_SPAN, " ").matchAll(KEBAB)) add(m[0], TITLE_WEIGHT);
	return [...found].map(([literal, weight]) => ({ literal, weight }));
}
