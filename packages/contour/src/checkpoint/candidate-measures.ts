/**
 * Likely clone candidates measured inside the code map's own parse of them. Clone search (`clone-candidates.ts`)
 * measures the files around a change and files elsewhere that look alike, chosen from the map's facts once the map
 * is up to date; on a cold map every one of them is a file the map has just parsed. So the review lends the map a
 * parse of its own (`RefreshOptions.sharedParse`): for a file clone search is likely to choose, one syntax tree
 * gives the engine its facts and clone search its measure, cached under the map's content hash where clone search
 * looks first, instead of a second parse of the same bytes after the map.
 *
 * Likely means what clone search asks, judged from the facts of the file's own tree and the change as measured: a
 * neighbour (a sibling of a changed file, or a file that imports one or that one imports, by relative specifier)
 * holding a callable of a span a clone could have, or a file that resembles a new or changed callable
 * (`resemblance`). Only in a changed file's language, outside the change, as small as clone search reads, when the
 * change has a callable large enough to have clones, and at most as many as clone search measures. A wrong guess
 * costs one measure; a file not guessed is parsed by clone search as before. Every file taken is parsed here for the
 * map, likely or not (its facts need the tree anyway); a cold map large enough for parsing threads parses without
 * this (the engine does not ask then).
 */
import { posix } from "node:path";
import {
	type ExtractJob,
	type FileFacts,
	type LanguageId,
	languageOf,
	type ResolutionContext,
	resolveImport,
	type SharedParse,
	withSyntaxTree,
} from "pi-fovea/engine";
import type { ReviewWork } from "../report/report.ts";
import { type FileMeasure, measureSyntaxTree } from "../review/index.ts";
import { cloneTargets, MAX_CLONE_FILE_BYTES, MAX_CLONE_FILES } from "./clone-candidates.ts";
import type { ImportFacts, MeasureCache } from "./measure-cache.ts";
import type { MeasureFilter } from "./measure-visitor.ts";
import type { MeasuredChange } from "./side-measures.ts";
import {
	type CloneTarget,
	holdsSimilarSpan,
	MAX_DISTANT_CLONE_FILES,
	resemblance,
	searchedTargets,
	targetShapes,
} from "./similar-callables.ts";

/** A byte-order mark the map's decoding dropped still counts toward clone search's size limit. */
const BOM_BYTES = 3;
/** What a relative specifier may leave out or spell as JavaScript (`./a.js` for `a.ts`). */
const SCRIPT_SUFFIXES = [".ts", ".tsx", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs"];

/** The change as the review measured it: what choosing likely candidates needs. */
export interface CandidateScope {
	/** Every path the change touches (either side). */
	changedPaths: ReadonlySet<string>;
	/** The after sides of changed text files: path and what it imports. */
	after: readonly { path: string; imports: ImportFacts }[];
	/** The facts of the after sides parsed now, by path (for the names their callables call). */
	afterFacts: ReadonlyMap<string, FileFacts>;
	/** The change's new and changed callables (`cloneTargets`). */
	targets: readonly CloneTarget[];
	maxBytes: number;
}

/**
 * The scope of the change as the review measured it: every after side's path and what it imports, with the facts
 * of the sides parsed now (`afterFacts`, by path).
 */
export function candidateScope(
	measured: readonly MeasuredChange[],
	afterFacts: ReadonlyMap<string, FileFacts>,
	changedPaths: ReadonlySet<string>,
	maxBytes: number,
): CandidateScope {
	const after = measured.flatMap(({ after }) =>
		after === undefined ? [] : [{ path: after.path, imports: after.imports ?? [] }],
	);
	return { changedPaths, after, afterFacts, targets: cloneTargets(measured), maxBytes };
}

/** The shared parse of `candidateMeasures`, and what clone search tells it of its neighbours. */
export interface CandidateParse {
	/** Given each file the map or the slice must parse; measures it on the way when clone search is likely to. */
	parse: SharedParse;
	/**
	 * Takes the measure a parsing thread made of a file in the parse that gave its facts (`slice-prefetch.ts`) when
	 * `parse` would have measured that file; `measure` is `undefined` when the thread made none.
	 */
	measured(file: ExtractJob, facts: FileFacts, measure: FileMeasure | undefined): void;
	/** What a parsing thread needs to measure only the files `parse` could measure (`MeasureFilter`). */
	readonly filter: MeasureFilter;
	/**
	 * The files clone search orders as neighbours of the change (`CloneScope.onNeighbours`). A file parsed after this
	 * is judged as the neighbour it is.
	 */
	neighbours(paths: Iterable<string>): void;
	/**
	 * How the project resolves imports (a slice's, once listed): from then on a file that a changed file imports or
	 * that imports one is a neighbour whatever the specifier's form (a Go package, a Python module), as the import
	 * graph that orders clone search's neighbours resolves it; before, only relative specifiers are understood.
	 */
	resolveWith(context: ResolutionContext): void;
}

/**
 * A shared parse that measures the likely clone candidates of the change; `undefined` when the change gives clone
 * search nothing to look for. A measured file counts in `work.cloneFilesMeasured`, not in `work.parses`: the parse
 * is the map's.
 */
export function candidateMeasures(
	scope: CandidateScope,
	cache: MeasureCache,
	work: ReviewWork,
): CandidateParse | undefined {
	const targets = searchedTargets(scope.targets);
	if (targets.length === 0) return undefined;
	const afterPaths = new Set(scope.after.map((file) => file.path));
	const shapes = targetShapes(targets, (path) => scope.afterFacts.get(path));
	const languages = new Set([...afterPaths].map((path) => languageOf(path)));
	const dirs = new Set([...afterPaths].map((path) => posix.dirname(path)));
	const imported = new Set(
		scope.after.flatMap((file) => file.imports.flatMap((fact) => relativeTargets(file.path, fact.specifier))),
	);
	let targetsOf = (from: { path: string; language: LanguageId }, fact: ImportFacts[number]) =>
		relativeTargets(from.path, fact.specifier);
	const importsChanged = (facts: FileFacts) =>
		facts.imports.some((fact) => targetsOf(facts, fact).some((target) => afterPaths.has(target)));
	const ordered = new Set<string>();
	let left = MAX_CLONE_FILES + MAX_DISTANT_CLONE_FILES;
	/** Whether `parse` looks at a file at all: not changed, in a changed file's language, read as clone search reads. */
	const eligible = ({ path, source }: ExtractJob): boolean => {
		if (left === 0) return false;
		if (scope.changedPaths.has(path) || !languages.has(languageOf(path))) return false;
		// Clone search reads bytes, not this decoded text: content it would find too large, or not valid UTF-8
		// (U+FFFD after the map's decoding), is left for its own read to judge.
		if (Buffer.byteLength(source, "utf8") + BOM_BYTES > MAX_CLONE_FILE_BYTES) return false;
		return !source.includes("\uFFFD");
	};
	const likely = (path: string, facts: FileFacts): boolean => {
		const neighbour = ordered.has(path) || dirs.has(posix.dirname(path)) || imported.has(path) || importsChanged(facts);
		return (
			(neighbour && holdsSimilarSpan(facts, targets)) || (shapes.length > 0 && resemblance(facts, shapes) !== undefined)
		);
	};
	const keep = (path: string, facts: FileFacts, measure: FileMeasure): void => {
		cache.putMeasure(`fovea-${facts.hash}`, path, scope.maxBytes, measure);
		work.cloneFilesMeasured++;
		left--;
	};
	const parse: SharedParse = (file) => {
		if (!eligible(file)) return undefined;
		const { path, language, source, contentTerms } = file;
		return withSyntaxTree(
			path,
			source,
			(root, factsOf) => {
				const facts = factsOf();
				if (likely(path, facts))
					keep(path, facts, measureSyntaxTree({ path, language, source, root }, { maxBytes: scope.maxBytes }));
				return facts;
			},
			language,
			{ contentTerms },
		);
	};
	return {
		parse,
		filter: { targets, shapes },
		measured(file, facts, measure) {
			// The thread measured under the default size limit: the same measure as here for content within this one.
			if (measure === undefined || Buffer.byteLength(file.source, "utf8") > scope.maxBytes) return;
			if (eligible(file) && likely(file.path, facts)) keep(file.path, facts, measure);
		},
		neighbours(paths) {
			for (const path of paths) ordered.add(path);
		},
		resolveWith(context) {
			targetsOf = (from, fact) => resolveImport(from, fact, context);
			for (const file of scope.after) {
				const language = languageOf(file.path);
				if (language === undefined) continue;
				for (const fact of file.imports)
					for (const target of targetsOf({ path: file.path, language }, fact)) imported.add(target);
			}
		},
	};
}

/** The root-relative paths a relative `specifier` written in `from` may name; none for any other specifier. */
function relativeTargets(from: string, specifier: string): string[] {
	if (!specifier.startsWith("./") && !specifier.startsWith("../")) return [];
	const base = posix.normalize(posix.join(posix.dirname(from), specifier));
	if (base.startsWith("../")) return [];
	const out = [base];
	for (const suffix of SCRIPT_SUFFIXES) out.push(`${base}${suffix}`, `${base}/index${suffix}`);
	const script = /\.(m|c)?jsx?$/.exec(base);
	if (script !== null) {
		const stem = base.slice(0, script.index);
		out.push(`${stem}.${script[1] ?? ""}ts`, `${stem}.tsx`);
	}
	return out;
}
