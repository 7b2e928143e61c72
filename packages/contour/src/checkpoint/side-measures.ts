/**
 * The measures and imports of both sides of every changed file of a snapshot, taken from the cache by blob id
 * where possible; only the sides the cache does not know are read (one `cat-file` for all object sides) and parsed,
 * once for both the measure and the imports. Content that is not text becomes a gap measure, cached too, so a
 * binary file is not read again either.
 */
import { type FileFacts, type LanguageId, languageOf, loadExtractor, TimeSlice } from "pi-fovea/engine";
import {
	type ChangedFile,
	type ContentRequest,
	type FileSide,
	type GitWork,
	type ObjectReaders,
	readSides,
	type Snapshot,
} from "../git/index.ts";
import type { ReportGap, ReviewWork } from "../report/report.ts";
import {
	emptyMeasure,
	ensureMeasureLanguages,
	type FileMeasure,
	type MeasuredWithFacts,
	measureFile,
	measureVersionsWithFacts,
	measureWithFacts,
	pathGap,
} from "../review/index.ts";
import type { ImportFacts, MeasureCache } from "./measure-cache.ts";

/** One side of a changed file, ready for the analysis. */
export interface MeasuredSide {
	path: string;
	measure: FileMeasure;
	/** Absent for content the engine does not parse. */
	imports?: ImportFacts;
}

/** A changed file with whatever sides it has. */
export interface MeasuredChange {
	change: ChangedFile;
	before?: MeasuredSide;
	after?: MeasuredSide;
}

/** The after-side paths of measured changes. */
export function afterPathsOf(measured: readonly MeasuredChange[]): string[] {
	return measured.filter((file) => file.after !== undefined).map((file) => file.change.path);
}

/** Options of `measureSides`. */
export interface SideOptions {
	maxBytes: number;
	signal?: AbortSignal;
	/** Git and filesystem work of the reads. */
	gitWork: GitWork;
	/** Parse counts of this review. */
	work: ReviewWork;
	/** The review's object readers, which its snapshot opened. */
	objects?: ObjectReaders;
	/**
	 * Given the engine's facts of each side parsed here, for the root's code map to reuse when its file holds the same
	 * bytes (`CodeIndex.offer`): the staged side of a changed file is usually what the worktree holds.
	 */
	onFacts?: (facts: FileFacts, side: "before" | "after") => void;
	/** Whether those facts count content terms (default true): as the code map they are offered to does. */
	contentTerms?: boolean;
	/**
	 * Whether `onFacts` takes the facts of a side (default: of both sides when it is given). A side whose facts it
	 * does not take is parsed for its measure and imports only, which costs less (`measureWithFacts`' `importsOnly`).
	 */
	factsWanted?: (side: "before" | "after") => boolean;
	/**
	 * Settles before the first parse here: a cold review's slice listing, whose files go to the parsing threads only
	 * while this thread yields (`slice-prefetch.ts`), and a side's parse does not yield.
	 */
	parseAfter?: Promise<unknown>;
}

interface Pending {
	file: number;
	side: "before" | "after";
	path: string;
	oid: string;
	needMeasure: boolean;
	needImports: boolean;
}

/**
 * Measures the text sides of `changes` (files with a snapshot gap must be left out by the caller). Files with a
 * side that could not be read within the review's byte budget are returned as gaps instead. `snapshot` is the one
 * this review just took (its partial-clone refusal is not repeated before the blobs are read).
 */
export async function measureSides(
	snapshot: Pick<Snapshot, "root" | "objectFormat">,
	changes: readonly ChangedFile[],
	cache: MeasureCache,
	options: SideOptions,
): Promise<{ measured: MeasuredChange[]; gaps: ReportGap[] }> {
	const { maxBytes, work } = options;
	const files: MeasuredChange[] = changes.map((change) => ({ change }));
	const pending: Pending[] = [];
	files.forEach((file, i) => {
		for (const side of ["before", "after"] as const) {
			const fileSide = file.change[side];
			if (fileSide === undefined) continue;
			const path = side === "before" ? (file.change.oldPath ?? file.change.path) : file.change.path;
			const oid = fileSide.oid as string;
			if (languageOf(path) === undefined) {
				// Nothing to parse: the gap needs no byte of the content.
				file[side] = { path, measure: { ...measureFile(path, ""), bytes: fileSide.bytes } };
				continue;
			}
			const byPath = pathGap(path);
			if (byPath !== undefined) {
				// Minified by name, vendored or build output: a gap as in Fovea's index, read and parsed by neither.
				file[side] = { path, measure: { ...emptyMeasure(path, fileSide.bytes), gap: byPath } };
				continue;
			}
			const measure = cache.measure(oid, path, maxBytes);
			const imports = cache.imports(oid, path);
			if (measure !== undefined && (imports !== undefined || measure.gap !== undefined)) {
				work.measuresReused++;
				file[side] = { path, measure, ...(imports === undefined ? {} : { imports }) };
				continue;
			}
			if (measure !== undefined) work.measuresReused++;
			pending.push({
				file: i,
				side,
				path,
				oid,
				needMeasure: measure === undefined,
				needImports: imports === undefined,
			});
		}
	});
	const gaps: ReportGap[] = [];
	const skipped = new Set<number>();
	if (pending.length > 0) {
		const requests: ContentRequest[] = pending.map(({ file, side }) => {
			const change = (files[file] as MeasuredChange).change;
			return {
				path: side === "before" ? (change.oldPath ?? change.path) : change.path,
				side: change[side] as FileSide,
			};
		});
		// The grammars load (WebAssembly compiled off the main thread) while Git reads the blobs.
		const grammars = loadExtractor([...new Set(pending.map((entry) => languageOf(entry.path) as LanguageId))]);
		grammars.catch(() => {}); // awaited below; a failure surfaces there, not as an unhandled rejection
		const contents = await readSides(snapshot, requests, {
			maxBytes,
			partialCloneRefused: true,
			...(options.signal === undefined ? {} : { signal: options.signal }),
			work: options.gitWork,
			...(options.objects === undefined ? {} : { objects: options.objects }),
		});
		const texts = new Map<Pending, string>();
		pending.forEach((entry, i) => {
			const content = contents[i];
			if (content === undefined) return;
			if (content.kind === "text") texts.set(entry, content.text);
			else if (content.gap === "binary" || content.gap === "invalid-utf8" || content.gap === "too-large") {
				const measure = gapMeasure(entry.path, content.gap, content.reason);
				cache.putMeasure(entry.oid, entry.path, maxBytes, measure);
				(files[entry.file] as MeasuredChange)[entry.side] = { path: entry.path, measure };
			} else {
				skipped.add(entry.file);
				gaps.push({ path: entry.path, side: entry.side, reason: content.gap, detail: content.reason });
			}
		});
		options.signal?.throwIfAborted();
		await grammars;
		await options.parseAfter?.catch(() => {});
		await parseTexts(texts, files, cache, options);
	}
	return { measured: files.filter((_, i) => !skipped.has(i)), gaps };
}

/** Parsing gives the event loop a turn this often. */
const YIELD_MS = 10;

/** Measures and extracts the imports of the read texts, filling `files` and the cache. */
async function parseTexts(
	texts: ReadonlyMap<Pending, string>,
	files: MeasuredChange[],
	cache: MeasureCache,
	options: SideOptions,
): Promise<void> {
	const { maxBytes, work } = options;
	const entries = [...texts.keys()];
	await ensureMeasureLanguages(entries.filter((entry) => entry.needMeasure).map((entry) => entry.path));
	const languages = new Set<LanguageId>();
	for (const entry of entries) if (entry.needImports) languages.add(languageOf(entry.path) as LanguageId);
	const extractor = await loadExtractor([...languages]);
	const slice = new TimeSlice(YIELD_MS);
	const factsWanted = (side: "before" | "after") =>
		options.onFacts !== undefined && (options.factsWanted?.(side) ?? true);
	const paired = pairedMeasures(texts, cache, {
		maxBytes,
		contentTerms: options.contentTerms ?? true,
		factsWanted,
	});
	for (const [entry, text] of texts) {
		options.signal?.throwIfAborted();
		// Other work of the review (the code map's refresh, its parsing threads' start) gets the event loop between
		// parses, not only after the last one; what the last parse's facts started (`onFacts`: files handed to the
		// parsing threads) goes on before the next parse in any case.
		if (slice.due) await slice.turn();
		else await Promise.resolve();
		// Looked up again: a side read earlier in this loop may have had the same bytes (a rename, a copy).
		let measure = cache.measure(entry.oid, entry.path, maxBytes);
		let imports = cache.imports(entry.oid, entry.path);
		if (measure === undefined) {
			// One parse for both when both are needed: the tree gives the measure and the engine's facts.
			const measured =
				paired(entry) ??
				measureWithFacts(entry.path, text, {
					maxBytes,
					contentTerms: options.contentTerms ?? true,
					importsOnly: !factsWanted(entry.side),
				});
			measure = measured.measure;
			cache.putMeasure(entry.oid, entry.path, maxBytes, measure);
			work.sidesMeasured++;
			work.parses++;
			if (measured.facts !== undefined) {
				work.sideFactsTaken++;
				options.onFacts?.(measured.facts, entry.side);
			}
			if (imports === undefined && measure.gap === undefined) {
				imports = measured.imports ?? [];
				cache.putImports(entry.oid, entry.path, imports);
				work.importsExtracted++;
			}
		}
		if (imports === undefined) {
			const facts = extractor.extract(entry.path, text);
			work.sideFactsTaken++;
			options.onFacts?.(facts, entry.side);
			imports = facts.imports;
			cache.putImports(entry.oid, entry.path, imports);
			work.importsExtracted++;
			work.parses++;
		}
		(files[entry.file] as MeasuredChange)[entry.side] = { path: entry.path, measure, imports };
	}
}

/**
 * The measures and facts of both sides of each changed file whose two sides are read here and measured by neither
 * the cache nor an earlier entry, taken together as the before side comes (`measureVersionsWithFacts`: the after
 * side is parsed from the before side's tree); `undefined` for any other entry, which is measured alone.
 */
function pairedMeasures(
	texts: ReadonlyMap<Pending, string>,
	cache: MeasureCache,
	options: { maxBytes: number; contentTerms: boolean; factsWanted: (side: "before" | "after") => boolean },
): (entry: Pending) => MeasuredWithFacts | undefined {
	const afterOf = new Map<number, Pending>();
	for (const entry of texts.keys()) if (entry.side === "after" && entry.needMeasure) afterOf.set(entry.file, entry);
	const taken = new Map<Pending, MeasuredWithFacts>();
	return (entry) => {
		const known = taken.get(entry);
		if (known !== undefined) {
			taken.delete(entry);
			return known;
		}
		const after = entry.side === "before" ? afterOf.get(entry.file) : undefined;
		if (after === undefined || cache.measure(after.oid, after.path, options.maxBytes) !== undefined) return undefined;
		const [before, measured] = measureVersionsWithFacts(
			[
				{ path: entry.path, content: texts.get(entry) as string, importsOnly: !options.factsWanted("before") },
				{ path: after.path, content: texts.get(after) as string, importsOnly: !options.factsWanted("after") },
			],
			{ maxBytes: options.maxBytes, contentTerms: options.contentTerms },
		);
		if (measured !== undefined) taken.set(after, measured);
		return before;
	};
}

/** A measure that says why content was not measured (every count zero), like `measureFile` gives. */
function gapMeasure(path: string, reason: "binary" | "invalid-utf8" | "too-large", detail: string): FileMeasure {
	return { ...emptyMeasure(path, 0), gap: { reason, detail } };
}
