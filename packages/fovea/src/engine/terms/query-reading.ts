/**
 * What a query names precisely, read the way an agent writes one: a few words, a symbol, or a whole issue with a
 * stack trace and code spans. A path in a traceback names a file (and its line a symbol); an identifier in backticks
 * names a symbol; an import in a code block names a module. These are strong seeds. The rest is prose, which focus
 * still ranks by its words (weakly: words alone pull toward files that repeat them).
 *
 * Pure string reading: which of the named paths and names exist is the ranker's to resolve (`rank/query-seeds.ts`).
 */
import { languageOf } from "../model/index.ts";
import { hasBody, type NamedLiteral, readLiterals } from "./query-literals.ts";
import { frameWeights } from "./reporting-frames.ts";
import { goFrames, javaFrames, rustFrames } from "./trace-frames.ts";

/** A file the query names, as written (absolute, relative, or a bare file name), with its line when given. */
export interface NamedPath {
	path: string;
	line?: number;
	/** How strongly it is named, in (0, 1]: the innermost frame of a trace 1, frames further out less. */
	weight: number;
}

/** A symbol the query names: simple (`greet`) or qualified (`Greeter.greet`, `pkg.mod.func`, `a::b`). */
export interface NamedSymbol {
	name: string;
	weight: number;
}

/** Kinds of non-production code a query may be about, by its words (`rank/file-role.ts` names the roles). */
export type AboutRole = "test" | "fixture" | "benchmark" | "example";

/** What `readQuery` finds. */
export interface QueryReading {
	paths: NamedPath[];
	names: NamedSymbol[];
	/** String literals it names: a message, an option, a key (`query-literals.ts`). */
	literals: NamedLiteral[];
	/**
	 * The areas a commit-style subject opens with: `fix(server-renderer): …`, `ignore,globset: …`, `net/http: …`
	 * (Conventional Commits' scope, or the area prefix of Go's and many projects' subjects): directories or files.
	 */
	scopes: string[];
	/**
	 * Roles the query's words are about: their files are not ranked below production code. Read from its first line
	 * (`titleOf`).
	 */
	about: Set<AboutRole>;
}

/*
 * Path parts are bounded as file systems bound them (a name is at most 255 bytes) and a path's directories to the
 * deepest 64: unbounded, a long run of name characters without the suffix sought (a pasted minified line, a base64
 * blob) made each pattern rescan the rest of the run from every position, quadratic in the text's length.
 */
/** A source file name (an extension the engine parses). */
const FILE = String.raw`[\w.@~+-]{0,254}\w\.(?:py|pyi|js|jsx|mjs|cjs|ts|tsx|mts|cts|go|rs|java)`;
/** A script file name: the files a JavaScript stack trace names. */
const SCRIPT_FILE = String.raw`[\w.@~+-]{0,254}\w\.(?:js|jsx|mjs|cjs|ts|tsx|mts|cts)`;
/** The directories of a path, each followed by its `/`. */
const DIRECTORIES = String.raw`(?:[\w.@~+-]{1,255}/){0,64}`;
/** Python: `File "/x/y.py", line 12, in f`. */
const PYTHON_FRAME = /File "([^"\n]+)", line (\d+)(?:, in ([\w.<>]+))?/g;
/** JavaScript frames: `at fn (file.js:10:5)`, `at file.js:10:5`, `at async Class.fn (file:///x/y.mjs:1:2)`. */
const SCRIPT_FRAME = new RegExp(
	String.raw`\bat (?:async )?(?:([\w$.<>]+)(?: \[as [\w$]+\])? \()?(?:file://|webpack:///?)?((?:[A-Za-z]:)?[^\s()'"\x60]*?${SCRIPT_FILE}):(\d+)(?::\d+)?\)?`,
	"g",
);
/**
 * Where a Rust program panicked: `thread 'main' panicked at src/x.rs:10:5:` (the message follows), or before Rust
 * 1.73 `panicked at 'message', src/x.rs:10:5`. The line that panics, or with `unwrap` its caller: the innermost frame.
 */
const RUST_PANIC =
	/panicked at (?:'(?:[^'\\]|\\.)*',\s*)?((?:\/|[A-Za-z]:\/|\.\/)?(?:[\w.@~+-]{1,255}\/){0,64}[\w.@~+-]{1,252}\.rs):(\d+)/g;
/** Any `path:line` (Go and Rust frames, compiler errors): `/go/src/x/y.go:42`, `src/lib.rs:10:5`. */
const PATH_LINE = new RegExp(String.raw`((?:/|[A-Za-z]:/)?${DIRECTORIES}${FILE}):(\d+)`, "g");
/**
 * A link to a file of a repository's web view, with its line when given: GitHub's and GitLab's
 * `…/blob/<ref>/seaborn/_core/scales.py#L377-L382` (and `blame`). An issue links the code it is about: in SWE-bench
 * Verified's 203 instances of the nine fetched repositories, 22 of the 25 links to a source file at a line point at
 * a file the fix changes.
 */
const WEB_LINK = new RegExp(String.raw`/(?:blob|blame)/[^/\s]+/(${DIRECTORIES}${FILE})(?:#L(\d+))?(?![\w/])`, "g");
/** A path with at least one directory, anywhere in the text. */
const PATH = new RegExp(String.raw`(?:^|[\s\x60'"(\[<])((?:[\w.@~+-]{1,255}/){1,64}${FILE})(?![\w/]|:\d)`, "g");
/** A fenced code block's body. */
const FENCE = /```[^\n]*\n([\s\S]*?)(?:```|$)/g;
/** An inline code span, on one line. */
const CODE_SPAN = /`([^`\n]+)`/g;
/**
 * A call written in prose, outside code: `capfd.readouterr()`, `SI._collect_factor_and_dimension()`. The parentheses
 * make it code by its form, and prose names what fails, where a snippet's calls are mostly what it uses.
 */
const PROSE_CALL = /(?<![\w$.`])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(\)/g;
/**
 * A member written as documentation refers to it, in prose: `TextBuffer#getTextBuffer` (Javadoc's `{@link}` form, and
 * JavaScript's `Router#handle`). Not an issue reference (`#123`), a heading (`# Title`) or a link's anchor
 * (`README.md#usage`, `…/repo#readme`, `?highlight=x#x`): both sides are identifiers, nothing path-like comes before,
 * and links are left out (`URL`).
 */
const PROSE_MEMBER = /(?<![\w$#/.-])([A-Za-z_$][\w$]*)#([A-Za-z_$][\w$]*)(?![\w$#])/g;
/**
 * A type named in an issue's title by its CamelCase name, outside code: `Possible NPE from
 * DockerConfigCredentialRetriever`. Two capitalized words or more joined, standing alone (not the container of a
 * member, `TextBuffer#get`, `Gson.toJson`, which the forms above read). The title says what an issue is about, and a
 * name of that form is code by its form, as a call in prose is; a body's CamelCase words are mostly what it uses (its
 * environment, the exceptions a log prints). An error's type (`TypeError`, `JsonParseException`) says what went
 * wrong, not where: the class that defines it is rarely what a fix changes.
 */
const TITLE_TYPE = /(?<![\w$#.])([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)(?!\.?[\w$#(])/g;
/**
 * A snake_case name in an issue's title, outside code: `to_unstacked_dataset broken for single-dim variables`,
 * `try_join_next for JoinSet`. English joins no words with underscores, so the form is code, as a CamelCase type's
 * is. Not a part of a qualified name (`tracing_subscriber::Layer`, which the body's forms read) or a `[TAG_LIKE]`.
 */
const TITLE_SNAKE = /(?<![\w$#./:[-])([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)(?![\w$#(/:\]-]|\.\w)/g;
/** The name of an error, exception or warning type. */
const ERROR_TYPE = /(?:Error|Exception|Warning)$/;
/** A web link, to its first space (a scheme is a short word: bounded, a long dotted run is not rescanned). */
const URL = /\b[a-z][a-z+.-]{0,31}:\/\/\S+/gi;
/** A name, possibly qualified by `.` or `::`. */
const QUALIFIED = /[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*/g;
/** Python imports: `from a.b import c, d` and `import a.b`. */
const PYTHON_IMPORT = /^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+\(?([\w \t,]+)\)?|^[ \t]*import[ \t]+([\w.]+)/gm;
/** Words that make a query about tests, fixtures, benchmarks, or examples and documentation. */
const ABOUT: readonly (readonly [AboutRole, RegExp])[] = [
	["test", /\b(?:tests?|testing|unittests?|spec|specs|e2e|test_\w+|\w+_test|\w+\.(?:test|spec)\.\w+)\b/i],
	["fixture", /\b(?:fixtures?|mocks?|testdata)\b/i],
	["benchmark", /\bbench(?:mark)?(?:s|ing)?\b/i],
	["example", /\b(?:examples?|demos?|samples?|tutorials?|docs?|documentation)\b/i],
];
/** A subject's opening `type(scope):`, `type(scope)!:` or `area, area:` (areas may be paths). */
const SUBJECT_SCOPE = /^\s*(?:[a-z]+\(([\w./, -]+)\)!?|([\w./-]+(?:, ?[\w./-]+)*)):\s/i;
/** The types of Conventional Commits and their kin, which open a subject but name no area. */
const COMMIT_TYPES = new Set(
	"fix feat feature chore docs doc test tests refactor perf build ci style revert dx deps release wip types typo bump merge security".split(
		" ",
	),
);

/** Reads `text` for the paths and names it gives precisely and the roles it is about; see the module comment. */
export function readQuery(text: string): QueryReading {
	const paths = new Map<string, NamedPath>();
	const names = new Map<string, number>();
	const addPath = (path: string, weight: number, line?: number) => {
		const key = `${path}:${line ?? ""}`;
		const known = paths.get(key);
		if (known === undefined || known.weight < weight) {
			paths.set(key, { path, weight, ...(line === undefined ? {} : { line }) });
		}
	};
	const addName = (name: string, weight: number) => names.set(name, Math.max(names.get(name) ?? 0, weight));

	// Python prints the innermost frame last, the others first: each trace is weighed from its innermost frame out.
	const python = [...text.matchAll(PYTHON_FRAME)].reverse();
	const pythonWeights = frameWeights(python.map((m) => m[3]));
	python.forEach((m, k) => {
		const weight = pythonWeights[k] as number;
		addPath(m[1] as string, weight, Number(m[2]));
		if (m[3] !== undefined && !m[3].startsWith("<")) addName(m[3], weight / 2);
	});
	for (const frame of javaFrames(text)) {
		addPath(frame.path, frame.weight, frame.line);
		addName(frame.name, frame.weight);
	}
	const script = [...text.matchAll(SCRIPT_FRAME)];
	const scriptWeights = frameWeights(script.map((m) => m[1]));
	script.forEach((m, k) => {
		const weight = scriptWeights[k] as number;
		addPath(m[2] as string, weight, Number(m[3]));
		const fn = m[1]?.replace(/^(?:new |Object\.|Function\.)/, "");
		if (fn !== undefined && !fn.startsWith("<")) addName(fn, weight / 2);
	});
	for (const m of text.matchAll(RUST_PANIC)) addPath(m[1] as string, 1, Number(m[2]));
	for (const frame of [...goFrames(text), ...rustFrames(text)]) {
		if (frame.path !== undefined) addPath(frame.path, frame.weight, frame.line);
		if (frame.name !== undefined) addName(frame.name, frame.weight / 2);
	}
	// A linked file and line, a path and line outside a frame, or a path alone; a path a frame gave already keeps the
	// frame's weight.
	const framed = new Set([...paths.values()].map((named) => named.path));
	for (const m of text.matchAll(WEB_LINK)) {
		// A link to a line says "here" as plainly as a trace's innermost frame.
		if (!framed.has(m[1] as string)) addPath(m[1] as string, m[2] === undefined ? 0.8 : 1, Number(m[2]) || undefined);
	}
	for (const m of text.matchAll(PATH_LINE)) if (!framed.has(m[1] as string)) addPath(m[1] as string, 0.8, Number(m[2]));
	for (const m of text.matchAll(PATH)) if (!framed.has(m[1] as string)) addPath(m[1] as string, 0.6);

	const fences = [...text.matchAll(FENCE)].map((m) => m[1] as string);
	for (const body of fences) {
		for (const m of body.matchAll(PYTHON_IMPORT)) {
			if (m[3] !== undefined) addName(m[3], 0.5);
			else for (const member of (m[2] as string).split(/[\s,]+/)) if (member !== "") addName(`${m[1]}.${member}`, 0.5);
		}
	}
	const prose = text.replace(FENCE, " ");
	for (const m of prose.matchAll(CODE_SPAN)) readSpan((m[1] as string).trim(), addPath, addName);
	const plainProse = prose.replace(CODE_SPAN, " ");
	for (const m of plainProse.matchAll(PROSE_CALL)) addName(m[1] as string, 0.5);
	for (const m of plainProse.replace(URL, " ").matchAll(PROSE_MEMBER)) addName(`${m[1]}.${m[2]}`, 0.5);
	const title = titleOf(text);
	if (hasBody(text)) {
		const plainTitle = title.replace(CODE_SPAN, " ").replace(URL, " ");
		for (const m of plainTitle.matchAll(TITLE_TYPE)) {
			if (!ERROR_TYPE.test(m[1] as string)) addName(m[1] as string, 0.5);
		}
		for (const m of plainTitle.matchAll(TITLE_SNAKE)) addName(m[1] as string, 0.5);
	}

	const opening = SUBJECT_SCOPE.exec(text);
	const scopes = (opening?.[1] ?? opening?.[2] ?? "")
		.split(/,\s*/)
		.map((scope) => scope.trim())
		.filter((scope) => scope.length >= 2 && !COMMIT_TYPES.has(scope.toLowerCase()));
	const about = new Set<AboutRole>();
	for (const [role, words] of ABOUT) if (words.test(title)) about.add(role);
	return {
		paths: [...paths.values()].filter((named) => languageOf(named.path) !== undefined),
		names: [...names].map(([name, weight]) => ({ name, weight })),
		literals: readLiterals(text),
		scopes,
		about,
	};
}

/**
 * The first non-blank line of `text`: a one-line query whole, an issue's title. An issue's title says what it is
 * about; its body says how the fault shows, and a report of a failing run names tests whatever it is about ("my test
 * fails", the test written to reproduce it, the test suite run). On pytest's issues every body names tests, and read
 * whole they ranked tests as high as the code they exercise.
 */
function titleOf(text: string): string {
	for (const line of text.split("\n")) if (line.trim() !== "") return line;
	return "";
}

/**
 * An inline code span: a path (`lib/request.js`, `request.js:12`), a name (`Quantity.__array_ufunc__()`,
 * `Router#handle`), or a snippet whose qualified names count half.
 */
function readSpan(
	span: string,
	addPath: (path: string, weight: number, line?: number) => void,
	addName: (name: string, weight: number) => void,
): void {
	const path = /^([^\s:]+?)(?::(\d+))?(?::\d+)?$/.exec(span);
	if (path !== null && languageOf(path[1] as string) !== undefined) {
		addPath(path[1] as string, 0.8, path[2] === undefined ? undefined : Number(path[2]));
		return;
	}
	const name = /^(?:new\s+)?([A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*)(?:\(.*\))?$/.exec(span);
	if (name !== null) {
		addName((name[1] as string).replace("#", "."), 1);
		return;
	}
	for (const m of span.matchAll(QUALIFIED)) if (looksLikeCode(m[0] as string)) addName(m[0] as string, 0.5);
}

/**
 * Whether a name inside a snippet reads as code rather than a word: snake or camel case (`to_netcdf`, `getUser`,
 * `PROGRAM_NAME`), or qualified by parts of two letters or more (`np.array`, but not the path `.pylint.d`). The words
 * of an option (`min-similarity-lines`) or a sentence in backticks name no symbol.
 */
function looksLikeCode(name: string): boolean {
	const parts = name.split(/\.|::/);
	if (parts.some((part) => part.length < 2)) return false;
	return parts.length > 1 || /\w_\w|[a-z][A-Z]|\$/.test(name);
}
