/**
 * The measure of one file's content: plain JSON data, a function of (path's language, content) only, so the
 * integrator can cache it by blob id and reuse it when the same bytes are staged again (`MEASURE_VERSION` changes
 * whenever the measure would).
 *
 * Content the engine cannot measure is a visible gap in the measure, never a clean empty file: an unsupported
 * language, binary content (a NUL byte in the first 8 KiB), bytes that are not valid UTF-8, minified or generated
 * content (Fovea's classification, `file-class.ts`), or more than `maxBytes`.
 * A file with syntax errors is still measured, best effort, with `parseErrors` above zero.
 */
import { type FileFacts, type LanguageId, languageOf, loadExtractor, withSyntaxTrees } from "pi-fovea/engine";
import type { Node } from "web-tree-sitter";
import { type CallableMeasure, measureCallables, type NeedlessHit } from "./callables.ts";
import { contentClassGap } from "./file-class.ts";
import { MEASURE_VERSION } from "./measure-version.ts";
import { type SyntaxWalk, walkSyntax } from "./syntax-walk.ts";

export { MEASURE_VERSION };
/** Default size limit of a measured file (Fovea indexes files up to the same size). */
export const DEFAULT_MAX_BYTES = 1024 * 1024;
const BINARY_SNIFF_BYTES = 8192;

/** Why a file's content was not measured. */
export type MeasureGapReason =
	| "unsupported-language"
	| "binary"
	| "invalid-utf8"
	| "too-large"
	| "minified"
	| "generated"
	| "vendored";

/** The metrics of one file's content. */
export interface FileMeasure {
	version: typeof MEASURE_VERSION;
	path: string;
	/** Absent when the engine does not parse the file's language. */
	language?: LanguageId;
	bytes: number;
	/** Lines as editors count them (a trailing newline does not start a line). */
	lines: number;
	/** Non-blank lines holding something other than a comment. */
	sourceLines: number;
	/** Decisions outside every callable. */
	moduleDecisions: number;
	/** Syntax errors (ERROR and MISSING nodes); metrics are best effort when above zero. */
	parseErrors: number;
	callables: CallableMeasure[];
	needless: NeedlessHit[];
	/** Set when the content was not measured; then every count is zero and the lists are empty. */
	gap?: { reason: MeasureGapReason; detail: string };
}

/** Limits of `measureFile`. */
export interface MeasureOptions {
	/** Larger content is a `too-large` gap. Default `DEFAULT_MAX_BYTES`. */
	maxBytes?: number;
}

/**
 * Loads the grammars `measureFile` needs for `paths` (once per process). Paths in languages the engine does not
 * parse are skipped: they measure as gaps.
 */
export async function ensureMeasureLanguages(paths: Iterable<string>): Promise<void> {
	const languages = new Set<LanguageId>();
	for (const path of paths) {
		const language = languageOf(path);
		if (language !== undefined) languages.add(language);
	}
	await loadExtractor([...languages]);
}

/**
 * Measures `content` as the file at root-relative `path`, with one parse. Synchronous; throws (naming the fix) only
 * when the language's grammar is not loaded yet — see `ensureMeasureLanguages`.
 */
export function measureFile(path: string, content: string | Uint8Array, options: MeasureOptions = {}): FileMeasure {
	return measureParsed(path, content, options, "none").measure;
}

/** Options of `measureWithFacts` and `measureVersionsWithFacts`. */
export interface FactsOptions extends MeasureOptions {
	/**
	 * Count the facts' content terms (default true). Off for facts offered to a code map that counts none, as the
	 * review's map does: counting them costs a pass over the text, and the map would drop them.
	 */
	contentTerms?: boolean;
}

/**
 * A measure, and what the same parse gave of the engine's facts: all of them, or only their imports where the
 * caller wanted nothing else (then `facts` is absent). Both are absent when nothing was parsed: a gap, or content
 * that is only whitespace.
 */
export interface MeasuredWithFacts {
	measure: FileMeasure;
	facts?: FileFacts;
	/** The facts' imports (`facts.imports` when the facts were taken). */
	imports?: FileFacts["imports"];
}

/**
 * `measureFile` and the engine's facts of the same content from the same parse (the import graph needs them too);
 * with `importsOnly`, only the facts' imports, which in a language that imports only at file level cost none of the
 * rest (`withSyntaxTrees`' `imports()`).
 */
export function measureWithFacts(
	path: string,
	content: string | Uint8Array,
	options: FactsOptions & { importsOnly?: boolean } = {},
): MeasuredWithFacts {
	return measureParsed(path, content, options, options.importsOnly === true ? "imports" : "facts");
}

/**
 * `measureWithFacts` of successive versions of one file (a change's before and after sides), in order, with the
 * same results: the versions in one language that are text to parse share the parser's work (`withSyntaxTrees`:
 * each is parsed from the previous one's tree, so unchanged code is not parsed twice). Versions in different
 * languages (a rename across extensions) are measured one by one.
 */
export function measureVersionsWithFacts(
	versions: readonly { path: string; content: string | Uint8Array; importsOnly?: boolean }[],
	options: FactsOptions = {},
): MeasuredWithFacts[] {
	const wanted = (version: { importsOnly?: boolean }) => (version.importsOnly === true ? "imports" : "facts");
	const language = languageOf(versions[0]?.path ?? "");
	if (language === undefined || versions.some((version) => languageOf(version.path) !== language))
		return versions.map((version) => measureParsed(version.path, version.content, options, wanted(version)));
	const out: MeasuredWithFacts[] = [];
	const parsed: { at: number; path: string; text: MeasurableText }[] = [];
	// A version parsed from the previous one's tree is walked from the previous one's walk too (`walk-reuse.ts`).
	let previous: { walk: SyntaxWalk; measure: FileMeasure } | undefined;
	versions.forEach((version, at) => {
		const text = textToMeasure(version.path, version.content, options);
		if ("measure" in text) out[at] = { measure: text.measure };
		else parsed.push({ at, path: version.path, text });
	});
	withSyntaxTrees(
		parsed.map(({ path, text }) => ({ path, source: text.decoded })),
		(root, facts, index, edit, imports) => {
			const { at, text } = parsed[index] as (typeof parsed)[number];
			const earlier = previous === undefined || edit === undefined ? undefined : previous;
			const walk = walkSyntax(
				root,
				language,
				text.lines,
				text.decoded,
				earlier === undefined || edit === undefined ? undefined : { walk: earlier.walk, edit },
			);
			const measure = measureWalk(walk, text, earlier?.measure.callables);
			previous = { walk, measure };
			out[at] = taken(measure, wanted(versions[at] as (typeof versions)[number]), facts, imports);
		},
		language,
		{ contentTerms: options.contentTerms ?? true },
	);
	return out;
}

/** A measure with the facts (or only the imports) `want` asks for, from the parse's lazy getters. */
function taken(
	measure: FileMeasure,
	want: "facts" | "imports",
	facts: () => FileFacts,
	imports: () => FileFacts["imports"],
): MeasuredWithFacts {
	if (want === "imports") return { measure, imports: imports() };
	const all = facts();
	return { measure, facts: all, imports: all.imports };
}

function measureParsed(
	path: string,
	content: string | Uint8Array,
	options: FactsOptions,
	want: "none" | "facts" | "imports",
): MeasuredWithFacts {
	const language = languageOf(path);
	if (language === undefined) {
		const bytes = typeof content === "string" ? Buffer.byteLength(content, "utf8") : content.byteLength;
		const detail = `no parser for ${path}`;
		return { measure: { ...emptyMeasure(path, bytes), gap: { reason: "unsupported-language", detail } } };
	}
	const text = textToMeasure(path, content, options);
	if ("measure" in text) return { measure: text.measure };
	const [measured] = withSyntaxTrees(
		[{ path, source: text.decoded }],
		(root, facts, _index, _edit, imports) => {
			const measure = measureRoot(root, language, text);
			return want === "none" ? { measure } : taken(measure, want, facts, imports);
		},
		language,
		{ contentTerms: options.contentTerms ?? true },
	);
	return measured as MeasuredWithFacts;
}

/** Source text and the root of the syntax tree a caller parsed it into. */
export interface ParsedSource {
	path: string;
	language: LanguageId;
	source: string;
	root: Node;
}

/**
 * `measureFile` of text its caller has parsed already (the code map's parse, see `candidate-measures.ts`), as
 * `measureFile` of the same text would give it, without a second parse.
 */
export function measureSyntaxTree(parsed: ParsedSource, options: MeasureOptions = {}): FileMeasure {
	const text = textToMeasure(parsed.path, parsed.source, options);
	return "measure" in text ? text.measure : measureRoot(parsed.root, parsed.language, text);
}

/** Text ready to be measured: decoded, non-blank, within the size limit. */
interface MeasurableText {
	decoded: string;
	lines: number;
	/** The measure with every count zero, which the walk's counts fill in. */
	empty: FileMeasure;
}

/**
 * The checks before a parse, shared by both ways to measure: `content` as text to measure, or the measure that
 * stands for it without a parse (too large, binary, invalid UTF-8: a gap; blank: its lines only).
 */
function textToMeasure(
	path: string,
	content: string | Uint8Array,
	options: MeasureOptions,
): MeasurableText | { measure: FileMeasure } {
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	const bytes = typeof content === "string" ? Buffer.byteLength(content, "utf8") : content.byteLength;
	const empty = emptyMeasure(path, bytes);
	if (bytes > maxBytes) {
		const detail = `${bytes} bytes is over the ${maxBytes}-byte limit`;
		return { measure: { ...empty, gap: { reason: "too-large", detail } } };
	}
	const decoded = decode(content);
	if (typeof decoded !== "string") return { measure: { ...empty, gap: decoded } };
	// Minified or generated content is a gap here as in Fovea's index (`file-class.ts`), whatever the file's name.
	const classified = contentClassGap(typeof content === "string" ? Buffer.from(decoded, "utf8") : content);
	if (classified !== undefined) return { measure: { ...empty, gap: classified } };
	const lines = countLines(decoded);
	if (decoded.trim() === "") return { measure: { ...empty, lines } };
	return { decoded, lines, empty };
}

/** The measure of parsed, non-blank text. */
function measureRoot(root: Node, language: LanguageId, text: MeasurableText): FileMeasure {
	return measureWalk(walkSyntax(root, language, text.lines, text.decoded), text);
}

/** The measure of parsed, non-blank text from its syntax walk. */
function measureWalk(
	walk: SyntaxWalk,
	{ lines, empty }: MeasurableText,
	earlier?: readonly CallableMeasure[],
): FileMeasure {
	const { callables, needless } = measureCallables(walk, earlier);
	let sourceLines = 0;
	for (const row of walk.codeRows) sourceLines += row;
	return {
		...empty,
		lines,
		sourceLines,
		moduleDecisions: walk.moduleDecisions,
		parseErrors: walk.parseErrors,
		callables,
		needless,
	};
}

/** The text of `content`, or the gap that keeps it from being measured. */
function decode(content: string | Uint8Array): string | NonNullable<FileMeasure["gap"]> {
	if (typeof content === "string") {
		const nul = content.indexOf("\0");
		if (nul >= 0 && nul < BINARY_SNIFF_BYTES) return { reason: "binary", detail: "NUL byte in the content" };
		return content;
	}
	if (content.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
		return { reason: "binary", detail: "NUL byte in the first 8 KiB" };
	}
	try {
		return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(content);
	} catch {
		return { reason: "invalid-utf8", detail: "the bytes are not valid UTF-8" };
	}
}

/** Lines as editors count them: 0 for empty content, and a trailing newline does not start a line. */
function countLines(text: string): number {
	if (text.length === 0) return 0;
	let lines = 1;
	for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lines++;
	return text.endsWith("\n") ? lines - 1 : lines;
}

/** The measure of `path` with every count zero (its language when the engine knows it), for content not measured. */
export function emptyMeasure(path: string, bytes: number): FileMeasure {
	const language = languageOf(path);
	return {
		version: MEASURE_VERSION,
		path,
		...(language === undefined ? {} : { language }),
		bytes,
		lines: 0,
		sourceLines: 0,
		moduleDecisions: 0,
		parseErrors: 0,
		callables: [],
		needless: [],
	};
}
