/**
 * The analysis of a change no kept report answers (`review-root.ts` opens the review and loads this module only
 * then): the sides the content cache does not know are read and parsed, while the root's code map (when given, and
 * when the change touches code it parses) refreshes → import graphs of both sides → findings → exposure from the
 * map's heat → ranked, frozen, kept. The signal is checked between steps.
 */
import { randomUUID } from "node:crypto";
import { type FileFacts, type LanguageId, languageOf, type SharedParse, startExtractThreads } from "pi-fovea/engine";
import type { ChangedFile } from "../git/index.ts";
import { freezeReport, type ReportGap, type ReviewReport } from "../report/report.ts";
import { analyzeMeasured, type ChangeFile, type FileMeasure, pathGap, rankFindings } from "../review/index.ts";
import { type CandidateParse, candidateMeasures, candidateScope } from "./candidate-measures.ts";
import { cloneCandidates, cloneTargets } from "./clone-candidates.ts";
import { withExposure } from "./exposure.ts";
import { importGraphs } from "./import-edges.ts";
import { ImportResolutions } from "./import-resolutions.ts";
import { offerTo, projectFacts } from "./map-facts.ts";
import { MEASURE_VISITOR, type MeasureFilter, registerMeasureVisitor } from "./measure-visitor.ts";
import { type ProjectSlice, projectSlice } from "./project-slice.ts";
import { sliceOf } from "./reached-slice.ts";
import { settleRegionPairs } from "./region-reach.ts";
import { reportFiles, snapshotGap } from "./report-files.ts";
import { addGitWork, now, type OpenedReview, type ReviewRootOptions } from "./review-options.ts";
import { type ReviewedImports, reviewedImports } from "./reviewed-imports.ts";
import { afterPathsOf, type MeasuredChange, measureSides } from "./side-measures.ts";
import { importedPrefetch, listedPrefetch } from "./slice-prefetch.ts";

/** Analyses the change of `opened` (see the module comment) and keeps the report in `options.cache`. */
export async function reviewChange(options: ReviewRootOptions, opened: OpenedReview): Promise<ReviewReport> {
	// Ends the parsing threads' share of the slice (`slice-prefetch.ts`) that no step asked for, however the review ends.
	const done = new AbortController();
	try {
		return await analyse(options, opened, done.signal);
	} finally {
		done.abort();
	}
}

async function analyse(options: ReviewRootOptions, opened: OpenedReview, done: AbortSignal): Promise<ReviewReport> {
	const { signal, cache } = options;
	const { snapshot, epoch, requestedRoot, policy, key, origin, maxBytes, gitWork, work, objects } = opened;
	const withMap = options.maps !== undefined;
	await cache.warm(snapshot.root);
	signal?.throwIfAborted();
	const gaps: ReportGap[] = [];
	const text: ChangedFile[] = [];
	for (const change of snapshot.changes) {
		if (change.gap === undefined) text.push(change);
		else gaps.push(snapshotGap(change, maxBytes));
	}
	// The code map refreshes (walk, reads, fact cache) while the changed sides are read and parsed. What the sides'
	// parses find is offered to the map, and the map parses only after them: a side whose bytes the worktree holds
	// (the staged side, usually) is then parsed once, not twice. The map's own parses then measure the likely clone
	// candidates on the way (`candidate-measures.ts`).
	// A change whose every side is text the engine does not parse (documentation, settings, a minified bundle) has no
	// import, callable or finding the whole project's map could relate to anything: it is not built.
	const codeChanged = text.some(parsedSide);
	const maps =
		!codeChanged || options.maps === undefined
			? undefined
			: typeof options.maps === "function"
				? await options.maps()
				: options.maps;
	// When the root's map would be built from nothing, the review reads only the slice of the project the change
	// reaches (`project-slice.ts`); the whole map is built only for a finding's exposure.
	const sliced = maps?.cold?.(snapshot.root) === true;
	const offer = maps === undefined || sliced ? undefined : offerTo(maps, snapshot.root);
	const afterFacts = new Map<string, FileFacts>();
	const onFacts =
		maps === undefined
			? undefined
			: (facts: FileFacts, side: "before" | "after") => {
					offer?.offer(facts);
					if (side !== "after") return;
					afterFacts.set(facts.path, facts);
					prefetch?.((slice) => importedPrefetch(slice, facts, changedPaths));
				};
	const changedPaths = new Set(
		snapshot.changes.flatMap((c) => (c.oldPath === undefined ? [c.path] : [c.path, c.oldPath])),
	);
	let candidates: CandidateParse | undefined;
	let sidesMeasured = false;
	const sharedParse: SharedParse = (file) => candidates?.parse(file);
	// The slice is listed while the changed sides are read and parsed; where the maps allow parsing threads, the files
	// it will parse whatever the change holds go to them as soon as it is listed (`slice-prefetch.ts`).
	const listing = !sliced
		? undefined
		: projectSlice(snapshot.root, {
				...(signal === undefined ? {} : { signal }),
				sharedParse,
				onPrefetched: (job, facts, visited) => candidates?.measured(job, facts, visited as FileMeasure | undefined),
				...(maps?.maxSliceTextBytes === undefined ? {} : { maxTextBytes: maps.maxSliceTextBytes }),
			});
	listing?.catch(() => {}); // awaited by `sliceOf`, which turns a failure into a note
	/** Hands files of the slice to the parsing threads (`slice-prefetch.ts`), once the listing shows they pay. */
	let prefetch: ((paths: (slice: ProjectSlice) => string[]) => void) | undefined;
	if (listing !== undefined && maps?.threads === true) {
		const stop = signal === undefined ? done : AbortSignal.any([signal, done]);
		// Once the change is measured, the threads measure only what clone search could take (nothing, for a change
		// without a callable that could have clones).
		const visit = {
			name: MEASURE_VISITOR,
			with: () => (sidesMeasured ? (candidates?.filter ?? NO_CANDIDATES) : undefined),
		};
		const afterPaths = text.flatMap((change) => (change.after === undefined ? [] : [change.path]));
		listing
			.then((slice) => {
				// A thread pays for its start and its speculative share only on a root as large as the one that starts
				// the code map's threads (`startExtractThreads` with the listed files as the expected jobs).
				if (slice === undefined || !startExtractThreads(languagesOf(text), slice.texts.size)) return;
				// The measure of a file a thread parses comes with its facts (this thread measures its share the same way).
				registerMeasureVisitor();
				prefetch = (paths) => slice.prefetch(paths(slice), stop, visit);
				prefetch((listed) => listedPrefetch(listed, changedPaths, afterPaths));
			})
			.catch(() => {});
	}
	const measuring = measureSides(snapshot, text, cache.measures, {
		maxBytes,
		signal,
		gitWork,
		work,
		objects,
		// A before side's facts go only to a map that could take them; without one its imports are all it gives.
		...(onFacts === undefined
			? {}
			: {
					onFacts,
					contentTerms: offer?.contentTerms ?? false,
					factsWanted: (side) => side === "after" || offer !== undefined,
				}),
		...(listing === undefined || maps?.threads !== true ? {} : { parseAfter: listing }),
	}).then(async (sides) => {
		if (maps === undefined) return { ...sides, reviewed: new Map<string, ReviewedImports>() };
		const scope = candidateScope(sides.measured, afterFacts, changedPaths, maxBytes);
		candidates = candidateMeasures(scope, cache.measures, work);
		sidesMeasured = true;
		// Files outside the change whose working copy is not the reviewed state count in the import graphs as that
		// state holds them (read with the same Git process, before it closes).
		const outside = (snapshot.reviewedBlobs ?? []).filter((blob) => !changedPaths.has(blob.path));
		const reviewed = await reviewedImports(snapshot, outside, cache.measures, {
			maxBytes,
			gitWork,
			work,
			objects,
			...(signal === undefined ? {} : { signal }),
		});
		return { ...sides, reviewed };
	});
	const mapping =
		maps === undefined || sliced
			? undefined
			: projectFacts(maps, snapshot.root, signal, {
					offers: measuring,
					sharedParse,
					...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
				});
	mapping?.catch(() => {}); // awaited below; an early failure of the sides must not leave it unhandled
	const sides = await measuring
		.finally(() => objects.close())
		.catch(async (error: unknown) => {
			await mapping?.catch(() => {});
			signal?.throwIfAborted(); // an abort during the reads is the cause, whatever Git made of it
			throw error;
		});
	gaps.push(...sides.gaps);
	signal?.throwIfAborted();
	const notes: string[] = [];
	const leftOut = new Set((snapshot.workingCopyDiffers ?? []).filter((path) => !changedPaths.has(path)));
	let mapped = await mapping;
	let slice: ProjectSlice | undefined;
	// The import reach and every import graph below resolve the same imports against the same file lists.
	const resolutions = new ImportResolutions();
	if (maps !== undefined && sliced) {
		const reached = await sliceOf(listing as Promise<ProjectSlice | undefined>, text, sides, changedPaths, leftOut, {
			...(signal === undefined ? {} : { signal }),
			afterFacts: afterFacts.values(),
			onContext: (context) => candidates?.resolveWith(context),
			resolutions,
		});
		if (reached === undefined)
			mapped = await projectFacts(maps, snapshot.root, signal, {
				...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
			});
		else if ("error" in reached) mapped = reached;
		else slice = reached;
	}
	// Without code in the change, no map was wanted: nothing is missing for want of one.
	const unmapped = withMap && !codeChanged ? undefined : "exposure not modelled: no code map for this root";
	let exposureNote = mapped === undefined && slice === undefined ? unmapped : undefined;
	if (mapped !== undefined && "error" in mapped) exposureNote = `exposure not modelled: ${mapped.error}`;
	let map = mapped !== undefined && "map" in mapped ? mapped : undefined;
	const project = slice?.project ?? map?.project;
	if (project === undefined && unmapped !== undefined)
		notes.push(
			policy === undefined
				? "imports resolved among the changed files only (no code map): cycles through unchanged files are not seen"
				: "policy checked on imports among the changed files only (no code map): imports of unchanged files are not seen",
		);
	// Held by the reviewed state, mapped as another working copy, and not read as that state holds it.
	const unseen =
		project === undefined
			? 0
			: (snapshot.reviewedBlobs ?? []).filter(
					(blob) => leftOut.has(blob.path) && project.context.files.has(blob.path) && !sides.reviewed.has(blob.path),
				).length;
	if (unseen > 0)
		notes.push(
			`import graph: ${unseen} file${unseen === 1 ? "" : "s"} outside the change ${unseen === 1 ? "differs" : "differ"} in the working copy from the reviewed state and could not be read as that state holds ${unseen === 1 ? "it" : "them"}; left out (imports through ${unseen === 1 ? "it" : "them"} are not seen)`,
		);
	const graphs = () => importGraphs(text, sides.measured, project, leftOut, sides.reviewed, resolutions);
	if (slice !== undefined) await settleRegionPairs(slice, graphs, changedPaths, policy?.policy, signal);
	const edges = graphs();
	signal?.throwIfAborted();
	const clones = await cloneCandidates(
		{
			root: snapshot.root,
			objectFormat: snapshot.objectFormat,
			changedPaths,
			afterPaths: afterPathsOf(sides.measured),
			afterEdges: edges.after,
			targets: cloneTargets(sides.measured),
			project,
			...(slice === undefined ? {} : { slice }),
			maxBytes,
			...(signal === undefined ? {} : { signal }),
			onNeighbours: (paths) => candidates?.neighbours(paths),
		},
		cache.measures,
		work,
	);
	if (clones.notSearched > 0) {
		const elsewhere =
			clones.distant > 0 ? ` and ${clones.distant} elsewhere calling the same names over a similar span` : "";
		const ruledOut = clones.ruledOut > 0 ? ` (${clones.ruledOut} more ruled out by their callables' spans)` : "";
		notes.push(
			`clone search compared ${clones.nearby} nearby files${ruledOut}${elsewhere}; ${clones.notSearched} more were not searched`,
		);
	}
	signal?.throwIfAborted();
	const review = analyzeMeasured({
		files: sides.measured.map(changeFile),
		importEdges: edges,
		...(policy === undefined ? {} : { policy: policy.policy }),
		allCallables: clones.files,
		options: { maxBytes },
	});
	work.cloneComparisons += review.cloneComparisons;
	let findings = review.findings;
	if (slice !== undefined && findings.length > 0 && maps !== undefined) {
		// A finding's exposure is the whole project's: only now is the root's map built, taking the facts the slice
		// and the changed sides parsed instead of parsing those files again.
		const sink = offerTo(maps, snapshot.root);
		if (sink !== undefined)
			for (const facts of [...slice.project.files.values(), ...afterFacts.values()]) sink.offer(facts);
		const whole = await projectFacts(maps, snapshot.root, signal, {});
		if ("error" in whole) exposureNote = `exposure not modelled: ${whole.error}`;
		else map = whole;
	}
	if (slice !== undefined) {
		work.sliceFilesParsed += slice.parsed;
		work.sliceFilesPrefetched += slice.prefetched;
	}
	if (map !== undefined && findings.length > 0) {
		const exposed = await withExposure(map.map, findings, signal);
		findings = rankFindings(exposed.findings);
		work.exposureQueries += exposed.queries;
		if (exposed.note !== undefined) exposureNote = exposed.note;
	}
	signal?.throwIfAborted();
	addGitWork(work, gitWork);
	if (map !== undefined) map.finish(work);
	const report = freezeReport({
		id: randomUUID(),
		key,
		root: snapshot.root,
		...(requestedRoot === undefined ? {} : { requestedRoot }),
		target: snapshot.target,
		...(snapshot.base === undefined ? {} : { base: snapshot.base }),
		snapshot: {
			head: snapshot.head,
			branch: snapshot.branch,
			indexDigest: snapshot.indexDigest,
			worktreeDigest: snapshot.worktreeDigest,
			objectFormat: snapshot.objectFormat,
		},
		origin,
		createdAt: now(),
		files: reportFiles(snapshot.changes, review.files, gaps, review.gaps),
		deltas: review.deltas,
		...(review.imports === undefined ? {} : { imports: review.imports }),
		findings,
		gaps: [...gaps, ...review.gaps].sort(
			(a, b) => a.path.localeCompare(b.path) || (a.side ?? "").localeCompare(b.side ?? ""),
		),
		policy: policy === undefined ? null : { source: policy.source, rules: policy.policy.forbid.length },
		policyViolations: review.policyViolations,
		...(exposureNote === undefined ? {} : { exposureNote }),
		notes,
		work,
	});
	if (cache.reports.add(report, epoch)) await cache.persist(report);
	return report;
}

/** Whether a side of `change` is content the engine parses (a language it knows, not left out by its path). */
function parsedSide(change: ChangedFile): boolean {
	const paths = [
		change.after === undefined ? undefined : change.path,
		change.before === undefined ? undefined : (change.oldPath ?? change.path),
	];
	return paths.some((path) => path !== undefined && languageOf(path) !== undefined && pathGap(path) === undefined);
}

/** The measure filter of a change without clone targets: no file is measured. */
const NO_CANDIDATES: MeasureFilter = { targets: [], shapes: [] };

/** The languages the engine parses among the sides of `changes`. */
function languagesOf(changes: readonly ChangedFile[]): Set<LanguageId> {
	const out = new Set<LanguageId>();
	for (const change of changes)
		for (const path of [change.path, change.oldPath]) {
			const language = path === undefined ? undefined : languageOf(path);
			if (language !== undefined) out.add(language);
		}
	return out;
}

/** The analysis input of one measured change. */
function changeFile(file: MeasuredChange): ChangeFile {
	return {
		path: file.change.path,
		...(file.change.oldPath === undefined ? {} : { previousPath: file.change.oldPath }),
		...(file.before === undefined ? {} : { beforeMeasure: file.before.measure }),
		...(file.after === undefined ? {} : { afterMeasure: file.after.measure }),
	};
}
