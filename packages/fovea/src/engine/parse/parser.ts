/**
 * In-process extraction with web-tree-sitter (0.25.x), over the WebAssembly builds that the grammar projects publish in
 * their own packages (`tree-sitter-typescript` and the others; see `GRAMMAR_PACKAGES`).
 *
 * Design: the wasm runtime and each grammar are loaded at most once per process (per worker thread), lazily, and
 * shared by every `Extractor`. Loading is the only asynchronous step, so it is explicit: `loadExtractor(languages)`
 * or `extractor.ensureLanguages(languages)` loads grammars; `extract` itself is synchronous (it is the hot loop, and a
 * worker pool wants plain CPU-bound calls). Extracting a file whose grammar is not loaded yet throws an Error naming
 * the language and the call that fixes it; a caller that does not know its languages in advance can do
 * `await extractor.ensureLanguages([languageOf(path)])` before each `extract` — a resolved-promise check once loaded.
 *
 * Per grammar the engine keeps one `Parser` and its compiled queries: facts, and file-level facts for the families
 * that find them with a query rather than a walk. Every tree is deleted before `extract` returns, so wasm memory does
 * not grow with the number of files.
 *
 * `extract` never throws because of the source text: syntax errors give best-effort facts and `parseErrors > 0`. It
 * throws for an unsupported language (by extension, or an invalid `language` argument) and for a grammar not loaded.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { type Edit, Language, type Node, Parser, Query, type Tree } from "web-tree-sitter";
import {
	compactFacts,
	compactImports,
	EXTRACTOR_VERSION,
	type FileFacts,
	type ImportFact,
	isLanguageId,
	LANGUAGES,
	type LanguageId,
	languageOf,
	noCalls,
} from "../model/index.ts";
import { contentTerms } from "../terms/index.ts";
import { anchorsOf } from "./anchors/index.ts";
import { onBaselineCompiler } from "./grammar-compiler.ts";
import { type CaptureMatch, countLines, type LanguageRules } from "./languages/common.ts";
import { goRules } from "./languages/go.ts";
import { javaRules } from "./languages/java.ts";
import { pythonRules } from "./languages/python.ts";
import { rustRules } from "./languages/rust.ts";
import { typescriptRules } from "./languages/typescript.ts";
import { textEdit } from "./text-edit.ts";

/** How one file is extracted. */
export interface FileExtractOptions {
	/** Count the file's content terms (`FileFacts.contentTerms`). Default true. */
	contentTerms?: boolean | undefined;
	/**
	 * `hashOf(source)` when the caller computed it already (the index hashes every file it reads, to look it up):
	 * the facts take it instead of hashing the source a second time. The caller vouches for it.
	 */
	hash?: string | undefined;
}

export interface Extractor {
	/**
	 * Facts of one file. `path` is root-relative with `/` separators and decides the language unless `language` is
	 * given. Synchronous; throws if the language is unsupported or its grammar is not loaded (see `ensureLanguages`).
	 */
	extract(path: string, source: string, language?: LanguageId, options?: FileExtractOptions): FileFacts;
	/** Loads the grammars of `languages` not loaded yet (once per process); resolves when all can be extracted. */
	ensureLanguages(languages: Iterable<LanguageId>): Promise<void>;
	/** Languages whose grammar is loaded in this process, i.e. that `extract` accepts right now. */
	loadedLanguages(): LanguageId[];
}

interface Grammar {
	parser: Parser;
	facts: Query;
	topLevel: Query | undefined;
	rules: LanguageRules;
}

const RULES: Record<LanguageId, LanguageRules> = {
	typescript: typescriptRules,
	tsx: typescriptRules,
	javascript: typescriptRules,
	python: pythonRules,
	go: goRules,
	rust: rustRules,
	java: javaRules,
};

/**
 * How long a file's queries may run. tree-sitter's query cursor takes time growing with the square of a tree's depth
 * (300 KB of unclosed brackets: minutes), so a file nested that deeply is cut short and mapped best effort
 * (`FileFacts.cutShort`) instead of holding up its root. A 1 MB file of ordinary code takes well under 100 ms.
 */
export const QUERY_BUDGET_MS = 1000;

let runtime: Promise<void> | undefined;
const loading = new Map<LanguageId, Promise<Grammar>>();
const loaded = new Map<LanguageId, Grammar>();

/** Loads the wasm runtime and the grammars of `languages` (none by default), and returns an extractor. */
export async function loadExtractor(languages: readonly LanguageId[] = []): Promise<Extractor> {
	const extractor: Extractor = { extract, ensureLanguages, loadedLanguages };
	await ensureLanguages(languages);
	return extractor;
}

async function ensureLanguages(languages: Iterable<LanguageId>): Promise<void> {
	const pending: Promise<Grammar>[] = [];
	for (const language of languages) {
		if (!isLanguageId(language)) throw new Error(`Fovea cannot extract language ${JSON.stringify(language)}`);
		if (!loaded.has(language)) pending.push(loadGrammar(language));
	}
	await Promise.all(pending);
}

/**
 * Whether `extractor` extracts with this module's code rather than a wrapper or a stand-in, so a worker thread running
 * `loadExtractor()` gives the same facts and may take its jobs (see `extract/pool.ts`).
 */
export function isEngineExtractor(extractor: Extractor): boolean {
	return extractor.extract === extract;
}

function loadedLanguages(): LanguageId[] {
	return LANGUAGES.filter((language) => loaded.has(language));
}

function loadGrammar(language: LanguageId): Promise<Grammar> {
	let promise = loading.get(language);
	if (promise === undefined) {
		promise = createGrammar(language).then(
			(grammar) => {
				loaded.set(language, grammar);
				return grammar;
			},
			(error: unknown) => {
				loading.delete(language); // let a later call retry
				throw error;
			},
		);
		loading.set(language, promise);
	}
	return promise;
}

async function createGrammar(language: LanguageId): Promise<Grammar> {
	runtime ??= Parser.init().catch((error: unknown) => {
		runtime = undefined;
		throw error;
	});
	await runtime;
	const wasm = await readFile(grammarPath(language));
	const lang = await onBaselineCompiler(() => Language.load(wasm));
	const parser = new Parser();
	parser.setLanguage(lang);
	const rules = RULES[language];
	const sources = rules.querySources(language);
	return {
		parser,
		facts: new Query(lang, sources.main),
		topLevel: sources.topLevel === undefined ? undefined : new Query(lang, sources.topLevel),
		rules,
	};
}

/**
 * Each grammar comes from its own project's package, which ships it built for the web beside its sources; TSX is the
 * TypeScript package's second grammar.
 */
const GRAMMAR_PACKAGES: Readonly<Record<LanguageId, string>> = {
	typescript: "tree-sitter-typescript",
	tsx: "tree-sitter-typescript",
	javascript: "tree-sitter-javascript",
	python: "tree-sitter-python",
	go: "tree-sitter-go",
	rust: "tree-sitter-rust",
	java: "tree-sitter-java",
};

/** The WebAssembly build of `language`'s grammar in its package (what `loadExtractor` loads), for measures of the parser alone. */
export function grammarPath(language: LanguageId): string {
	const manifest = createRequire(import.meta.url).resolve(`${GRAMMAR_PACKAGES[language]}/package.json`);
	return join(dirname(manifest), `tree-sitter-${language}.wasm`);
}

function extract(path: string, source: string, language?: LanguageId, options: FileExtractOptions = {}): FileFacts {
	const id = language ?? languageOf(path);
	if (id === undefined || !isLanguageId(id)) {
		throw new Error(`Fovea cannot extract ${path}: unsupported language${id === undefined ? "" : ` ${String(id)}`}`);
	}
	const grammar = loaded.get(id);
	if (grammar === undefined) {
		throw new Error(`Fovea cannot extract ${path} yet: await extractor.ensureLanguages(["${id}"]) first`);
	}
	const withContentTerms = options.contentTerms ?? true;
	const hash = options.hash ?? hashOf(source);
	const tree = grammar.parser.parse(source);
	if (tree === null) {
		// Only a cancelled parse returns null; none is requested, but stay total.
		const base = baseFacts(path, id, source, hash, withContentTerms);
		return { ...base, symbols: [], imports: [], calls: noCalls(), inherits: [], parseErrors: 1 };
	}
	try {
		return factsOf(grammar, tree.rootNode, path, id, source, hash, withContentTerms);
	} finally {
		tree.delete();
	}
}

/** The content-derived fields of a file's facts (`hash` is `hashOf(source)`); its content terms when `withContentTerms`. */
function baseFacts(path: string, language: LanguageId, source: string, hash: string, withContentTerms: boolean) {
	return {
		path,
		language,
		hash,
		bytes: Buffer.byteLength(source, "utf8"),
		lines: countLines(source),
		...(withContentTerms ? { contentTerms: contentTerms(source) } : {}),
		...replacementCharactersOf(source),
	};
}

const REPLACEMENT_CHARACTER = "\uFFFD";

/** `{ replacementCharacters }` when `source` holds U+FFFD, else nothing (the search is all most files cost). */
function replacementCharactersOf(source: string): { replacementCharacters?: number } {
	let at = source.indexOf(REPLACEMENT_CHARACTER);
	if (at < 0) return {};
	let count = 0;
	for (; at >= 0; at = source.indexOf(REPLACEMENT_CHARACTER, at + 1)) count++;
	return { replacementCharacters: count };
}

/** The facts of `source`, whose syntax tree `root` is. */
function factsOf(
	grammar: Grammar,
	root: Node,
	path: string,
	language: LanguageId,
	source: string,
	hash: string,
	withContentTerms: boolean,
): FileFacts {
	const deadline = performance.now() + QUERY_BUDGET_MS;
	let cutShort = false;
	const progressCallback = () => {
		cutShort ||= performance.now() > deadline;
		return cutShort;
	};
	const matches: CaptureMatch[] = grammar.facts.matches(root, { progressCallback });
	// None from a top-level query once time ran out.
	if (!cutShort || grammar.topLevel === undefined)
		for (const match of topLevelMatches(grammar, root, progressCallback)) matches.push(match);
	const extracted = grammar.rules.collect({ matches, source, path, language });
	const parseErrors = root.hasError ? syntaxErrors(root) : 0;
	const facts: FileFacts = {
		...baseFacts(path, language, source, hash, withContentTerms),
		symbols: extracted.symbols,
		imports: extracted.imports,
		calls: extracted.calls,
		inherits: extracted.inherits,
		parseErrors,
	};
	if (extracted.package !== undefined) facts.package = extracted.package;
	const { routes, literals } = anchorsOf(path, language, source);
	if (routes.length > 0) facts.routes = routes;
	if (literals.length > 0) facts.literals = literals;
	if (cutShort) facts.cutShort = true;
	return compactFacts(facts, { cutFromSource: true });
}

/** The matches of `grammar`'s top-level patterns (query or walk) over `root`. */
function topLevelMatches(grammar: Grammar, root: Node, progressCallback?: () => boolean): CaptureMatch[] {
	// Top-level patterns start at the root's children only; deeper subtrees are skipped.
	if (grammar.topLevel !== undefined)
		return grammar.topLevel.matches(
			root,
			progressCallback === undefined ? { maxStartDepth: 1 } : { maxStartDepth: 1, progressCallback },
		);
	return grammar.rules.topLevel?.(root) ?? [];
}

/**
 * The imports of the file whose syntax tree `root` is, as its facts hold them, without the facts: for a language
 * that imports only at file level (`LanguageRules.importsAtTopLevel`) from the top-level matches alone, skipping
 * the `main` query over the whole tree (and the anchors and the rest of the facts). Unlike the facts, not bounded
 * by `QUERY_BUDGET_MS`: the top-level patterns visit the root's children only.
 */
function importsOf(grammar: Grammar, root: Node, path: string, language: LanguageId, source: string): ImportFact[] {
	const matches = topLevelMatches(grammar, root);
	return compactImports(grammar.rules.collect({ matches, source, path, language }).imports);
}

/**
 * ERROR and MISSING nodes under `root`, found by walking only the subtrees that hold one. A query over the whole tree
 * took time growing with the square of the nesting depth of a broken file (300 KB of unclosed brackets: over a
 * minute); the walk visits each node on an error's path once.
 */
function syntaxErrors(root: Node): number {
	let count = 0;
	const cursor = root.walk();
	try {
		for (;;) {
			const node = cursor.currentNode;
			if (node.isError || node.isMissing) count++;
			if (node.hasError && cursor.gotoFirstChild()) continue;
			while (!cursor.gotoNextSibling()) {
				if (!cursor.gotoParent()) return count;
			}
		}
	} finally {
		cursor.delete();
	}
}

/**
 * Parses `source` with the loaded grammar of `language` and hands the syntax tree's root to `visit`, for callers that
 * measure syntax the facts do not carry (Contour's complexity and clones). `facts()` gives what `extract` would from
 * the same tree (with content terms unless `options.contentTerms` is false), so a caller that needs both parses
 * once. The tree is deleted when `visit` returns, so `visit` must
 * not keep nodes. Throws like `extract` for an unsupported language or a grammar not loaded yet.
 */
export function withSyntaxTree<T>(
	path: string,
	source: string,
	visit: (root: Node, facts: () => FileFacts) => T,
	language?: LanguageId,
	options: Pick<FileExtractOptions, "contentTerms"> = {},
): T {
	const id = language ?? languageOf(path);
	if (id === undefined || !isLanguageId(id)) throw new Error(`Fovea cannot parse ${path}: unsupported language`);
	return withSyntaxTrees([{ path, source }], (root, facts) => visit(root, facts), id, options)[0] as T;
}

/**
 * `withSyntaxTree` over successive versions of one file in one language (a change's before and after sides): a
 * version is parsed from the previous version's tree, edited where the two texts differ (`textEdit`), so a large
 * file changed in a few lines is read by the parser about once, not twice. The trees are the ones fresh parses give:
 * a tree with a syntax error is not reused, and a reused parse that finds one is done again afresh (error recovery
 * is where an incremental parse may settle differently). `visit` gets each version's root, facts and index, in
 * order, and for a version parsed from the previous one's tree, the edit between the two texts (a caller that
 * derives more from a tree can reuse what it derived from the previous one outside the edit), and `imports()`, the
 * facts' imports, which a version that needs nothing else of its facts takes without them where its language allows
 * (`LanguageRules.importsAtTopLevel`); every tree is deleted before this returns.
 */
export function withSyntaxTrees<T>(
	versions: readonly { path: string; source: string }[],
	visit: (root: Node, facts: () => FileFacts, index: number, edit: Edit | undefined, imports: () => ImportFact[]) => T,
	language: LanguageId,
	options: Pick<FileExtractOptions, "contentTerms"> = {},
): T[] {
	const grammar = loaded.get(language);
	if (grammar === undefined) {
		const named = versions[0]?.path ?? language;
		throw new Error(`Fovea cannot parse ${named} yet: await extractor.ensureLanguages(["${language}"]) first`);
	}
	const out: T[] = [];
	let previous: { tree: Tree; source: string } | undefined;
	try {
		for (const [index, { path, source }] of versions.entries()) {
			let tree: Tree | null = null;
			let edit: Edit | undefined;
			if (previous !== undefined && !previous.tree.rootNode.hasError) {
				edit = textEdit(previous.source, source);
				previous.tree.edit(edit);
				tree = grammar.parser.parse(source, previous.tree);
				if (tree?.rootNode.hasError === true) {
					tree.delete();
					tree = null;
				}
				if (tree === null) edit = undefined;
			}
			tree ??= grammar.parser.parse(source);
			if (tree === null) throw new Error(`Fovea could not parse ${path}`);
			previous?.tree.delete();
			previous = { tree, source };
			const root = tree.rootNode;
			let facts: FileFacts | undefined;
			const factsOfRoot = () => {
				facts ??= factsOf(grammar, root, path, language, source, hashOf(source), options.contentTerms ?? true);
				return facts;
			};
			// The facts' imports once they are taken; before, what the language's top level gives.
			const importsOfRoot = () =>
				facts !== undefined || grammar.rules.importsAtTopLevel !== true
					? factsOfRoot().imports
					: importsOf(grammar, root, path, language, source);
			out.push(visit(root, factsOfRoot, index, edit, importsOfRoot));
		}
		return out;
	} finally {
		previous?.tree.delete();
	}
}

/** sha256 hex of `EXTRACTOR_VERSION`, a NUL byte and the UTF-8 content. */
export function hashOf(source: string): string {
	return createHash("sha256").update(`${EXTRACTOR_VERSION}\0`).update(source, "utf8").digest("hex");
}
