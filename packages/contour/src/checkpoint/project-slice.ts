/**
 * The part of a root's project a review reaches, without the whole code map. A review needs the whole project only
 * for a finding's exposure; import cycles, the imports a change adds and clone search need the facts of the files
 * the change reaches. So a review whose root's map is not in memory lists the root as the map would (Fovea's walk,
 * its bounded reads and its classification of minified, generated and binary content: the same files, the same
 * decoded text), reads how imports resolve, and parses only the files asked for (`factsFor`), with Fovea's
 * extractor: the facts are the ones the map would hold. Which files are reached is decided by `import-reach.ts` and
 * clone search.
 */
import { join } from "node:path";
import {
	contentGap,
	type ExtractJob,
	type FileFacts,
	hashOf,
	type LanguageId,
	loadExtractor,
	readBoundedSync,
	readResolutionSettings,
	type SharedParse,
	scanRoot,
} from "pi-fovea/engine";
import type { ProjectFacts } from "./import-edges.ts";
import { PrefetchedFacts } from "./prefetched-facts.ts";

/** A root listed and read, parsed only where asked. */
export interface ProjectSlice {
	/** The facts parsed so far (`files`) and how imports resolve among every listed file (`context`). */
	readonly project: ProjectFacts;
	/** Each listed file's decoded text, by path. */
	readonly texts: ReadonlyMap<string, string>;
	/** Each listed file's language, by path. */
	readonly languages: ReadonlyMap<string, LanguageId>;
	/**
	 * Takes facts another parse produced (a changed file's staged side) for a listed file whose text is those same
	 * bytes (the facts' content hash says so), instead of parsing it again; other facts are ignored.
	 */
	adopt(facts: FileFacts): void;
	/** Parses the listed files of `paths` not parsed yet (paths not listed are ignored). */
	factsFor(paths: Iterable<string>): Promise<void>;
	/**
	 * Hands the listed files of `paths` not parsed nor handed yet to Fovea's parsing threads, which parse them while
	 * this thread does other work (`prefetched-facts.ts`); `factsFor` takes their facts from there. Nothing is parsed
	 * on this thread for them until `factsFor` asks for one. Facts `factsFor` never asks for are dropped, so the slice
	 * holds what it would hold without this. `signal` ends the threads' share early (what they have not started is not parsed). `visit` names
	 * a tree visitor each file's parse runs too (`ExtractJob.visit`): what it saw is given to `onPrefetched`.
	 */
	prefetch(paths: Iterable<string>, signal: AbortSignal, visit?: { name: string; with(): unknown }): void;
	/** Files this slice parsed. */
	readonly parsed: number;
	/**
	 * Of `parsed`, the files whose facts came from `prefetch`: parsed by Fovea's parsing threads, or by this thread
	 * once `factsFor` wanted them before the threads were done.
	 */
	readonly prefetched: number;
}

/** Options of `projectSlice`. */
export interface ProjectSliceOptions {
	signal?: AbortSignal;
	/** The review's own parse, tried first (`candidate-measures.ts`: one tree gives facts and a clone measure). */
	sharedParse?: SharedParse;
	/** Text the slice may hold, `MAX_SLICE_TEXT_BYTES` unless given (`CodeMaps.maxSliceTextBytes` says why). */
	maxTextBytes?: number;
	/** Told of each file whose facts `factsFor` took from `prefetch`, with what its visitor saw (if anything). */
	onPrefetched?: (job: ExtractJob, facts: FileFacts, visited: unknown) => void;
}

/**
 * Text a slice holds at most. A slice keeps every listed file's text for the review's text checks; a root with more
 * is reviewed over its code map, which keeps facts, not text.
 */
export const MAX_SLICE_TEXT_BYTES = 128 * 1024 * 1024;

/** Lists and reads `root` as its code map would; parses nothing yet. `undefined` past its text bound. */
export async function projectSlice(root: string, options: ProjectSliceOptions = {}): Promise<ProjectSlice | undefined> {
	const scan = await scanRoot(root, options.signal === undefined ? {} : { signal: options.signal });
	const texts = new Map<string, string>();
	const languages = new Map<string, LanguageId>();
	// Invalid UTF-8 becomes U+FFFD and a byte-order mark is dropped, as the map decodes.
	const decoder = new TextDecoder("utf-8");
	const maxTextBytes = options.maxTextBytes ?? MAX_SLICE_TEXT_BYTES;
	let bytes = 0;
	for (const file of scan.files) {
		options.signal?.throwIfAborted();
		const outcome = readBoundedSync(join(root, file.path), DEFAULT_MAX_FILE_BYTES);
		if (outcome.kind !== "content" || contentGap(outcome.bytes) !== undefined) continue;
		bytes += outcome.bytes.byteLength;
		if (bytes > maxTextBytes) return undefined;
		texts.set(file.path, decoder.decode(outcome.bytes));
		languages.set(file.path, file.language);
	}
	const settings = await readResolutionSettings(root, new Set(texts.keys()), scan.settingsFiles);
	const files = new Map<string, FileFacts>();
	let parsed = 0;
	let prefetchedCount = 0;
	const prefetched = new PrefetchedFacts(options.sharedParse);
	const job = (path: string): ExtractJob => ({
		path,
		language: languages.get(path) as LanguageId,
		source: texts.get(path) as string,
		contentTerms: false,
	});
	/** The parsing threads once `prefetch` was called: how their work ends and the visitor it names. */
	let threads: { signal: AbortSignal; visit?: { name: string; with(): unknown } } | undefined;
	const jobsOf = (paths: Iterable<string>): ExtractJob[] => {
		const visit = threads?.visit;
		const visitWith = visit?.with();
		return [...new Set(paths)]
			.filter((path) => !files.has(path) && texts.has(path))
			.map((path) =>
				visit === undefined
					? job(path)
					: { ...job(path), visit: visit.name, ...(visitWith === undefined ? {} : { visitWith }) },
			);
	};
	return {
		project: { files, context: settings.value },
		texts,
		languages,
		get parsed() {
			return parsed;
		},
		get prefetched() {
			return prefetchedCount;
		},
		adopt(facts) {
			const text = texts.get(facts.path);
			if (text !== undefined && !files.has(facts.path) && hashOf(text) === facts.hash) files.set(facts.path, facts);
		},
		prefetch(paths, signal, visit) {
			threads = { signal, ...(visit === undefined ? {} : { visit }) };
			prefetched.hand(jobsOf(paths), signal);
		},
		async factsFor(paths) {
			const wanted = [...new Set(paths)].filter((path) => !files.has(path) && texts.has(path));
			if (wanted.length === 0) return;
			// With parsing threads, a batch not handed over yet is parsed on both threads at once (this one joins at once).
			if (threads !== undefined && wanted.length >= 2) prefetched.hand(jobsOf(wanted), threads.signal);
			await prefetched.wait(wanted);
			const extractor = await loadExtractor([...new Set(wanted.map((path) => languages.get(path) as LanguageId))]);
			for (const path of wanted) {
				options.signal?.throwIfAborted();
				const ahead = prefetched.take(path);
				if (ahead !== undefined) {
					files.set(path, ahead.facts);
					options.onPrefetched?.(job(path), ahead.facts, ahead.visited);
					parsed++;
					prefetchedCount++;
					continue;
				}
				let facts: FileFacts | undefined;
				try {
					facts =
						options.sharedParse?.(job(path)) ??
						extractor.extract(path, texts.get(path) as string, languages.get(path), { contentTerms: false });
				} catch {
					continue; // a file the engine cannot parse has no facts in the map either
				}
				files.set(path, facts);
				parsed++;
			}
		},
	};
}

/** The map's default bound on a file read (`scanRoot`'s `too-large` limit). */
const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
