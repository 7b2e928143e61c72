/**
 * The review engine's entry: the files of a change (content or cached measures for each side), optionally the
 * import graphs of both sides, other files' callables and a policy → findings, callable deltas, file deltas and
 * coverage gaps. Pure apart from loading grammars (`analyzeChange` does that; `analyzeMeasured` is synchronous and
 * expects them loaded or measures supplied).
 *
 * What becomes a finding is decided in `change-findings.ts`; everything else is a delta, not a finding.
 * Files with a gap on either side (unsupported, binary, invalid UTF-8, too large) get no callable findings: their
 * gap says what was not covered. Syntax errors do not stop measuring; they add a `parse-error` gap as a note.
 */
import {
	type CloneCoverage,
	type ComplexityOptions,
	cloneFindings,
	complexityFindings,
	type FileCallables,
	importFindings,
	needlessFindings,
} from "./change-findings.ts";
import { type CloneOptions, MAX_CLONE_COMPARISONS, MAX_CLONE_COMPARISONS_PER_CALLABLE } from "./clones.ts";
import { type CallableDelta, deltaOf, type FileSides, matchCallables } from "./deltas.ts";
import { pathGap } from "./file-class.ts";
import { type Finding, rankFindings } from "./findings.ts";
import { type ImportChanges, importChanges, renamedGraph } from "./import-changes.ts";
import { brokenImportCycles, type ImportEdges, newImportCycles } from "./import-cycles.ts";
import {
	emptyMeasure,
	ensureMeasureLanguages,
	type FileMeasure,
	type MeasureGapReason,
	measureFile,
} from "./measure.ts";
import type { ReviewPolicy } from "./policy.ts";
import { type ChangeFile, checkInput } from "./review-input.ts";
import { isTestFile } from "./test-code.ts";

export type { FileCallables } from "./change-findings.ts";
export type { ChangeFile } from "./review-input.ts";

/** Thresholds; defaults in `change-findings.ts` and `clones.ts`. */
export interface ReviewOptions extends ComplexityOptions {
	clones?: CloneOptions;
	/** Larger content is a `too-large` gap (default 1 MiB). */
	maxBytes?: number;
}

/** What to review. */
export interface ChangeInput {
	/** The changed files, each with its before and/or after side. */
	files: readonly ChangeFile[];
	/**
	 * Resolved imports of the whole project on each side (before under before paths). Without them there are no
	 * import findings (cycles, region dependencies, policy violations).
	 */
	importEdges?: { before: ImportEdges; after: ImportEdges };
	/** Forbidden import boundaries and named regions; without one every finding is advisory. */
	policy?: ReviewPolicy;
	/** Measures (or just callables) of files outside the change, searched for clones of changed code. */
	allCallables?: readonly FileCallables[];
	options?: ReviewOptions;
}

/** Part of the change that was not (fully) measured; `side` is absent when it holds for both sides. */
export interface ReviewGap {
	path: string;
	side?: "before" | "after";
	/** `clone-search`: clone search of some of the file's new or changed callables stopped at its bound. */
	reason: MeasureGapReason | "parse-error" | "clone-search";
	detail: string;
}

/** File-level before and after values. */
export interface FileDelta {
	path: string;
	previousPath?: string;
	status: "added" | "removed" | "modified";
	lines: { before?: number; after?: number };
	sourceLines: { before?: number; after?: number };
}

/** A measure computed during the review, for the caller to cache by blob. */
export interface MeasuredSide {
	path: string;
	side: "before" | "after";
	measure: FileMeasure;
}

/** The review of a change. */
export interface ChangeReview {
	/** In rank order (`rankFindings`). */
	findings: Finding[];
	/** Callables that are not `unchanged`. */
	deltas: CallableDelta[];
	files: FileDelta[];
	/** What was not (fully) measured; never silently clean. */
	gaps: ReviewGap[];
	/** Measures computed here (not supplied), for the caller's cache. */
	measured: MeasuredSide[];
	/** Findings with `policy: true`. */
	policyViolations: number;
	/** Candidate callables clone search compared with the change's new and changed ones (bounded, see `cloneFindings`). */
	cloneComparisons: number;
	/** The import edges the change added and removed (only with import graphs). */
	imports?: ImportChanges;
}

/** Loads the grammars the change needs, then reviews it (see `analyzeMeasured`). */
export async function analyzeChange(input: ChangeInput): Promise<ChangeReview> {
	const files = checkInput(input);
	const paths: string[] = [];
	for (const file of files) {
		if (file.before !== undefined && file.beforeMeasure === undefined) paths.push(file.previousPath ?? file.path);
		if (file.after !== undefined && file.afterMeasure === undefined) paths.push(file.path);
	}
	await ensureMeasureLanguages(paths);
	return analyzeMeasured(input);
}

/** Reviews a change synchronously; content without a supplied measure needs its grammar loaded. */
export function analyzeMeasured(input: ChangeInput): ChangeReview {
	const files = checkInput(input);
	const options = input.options ?? {};
	const measured: MeasuredSide[] = [];
	const gaps: ReviewGap[] = [];
	const usable: FileSides[] = [];
	const fileDeltas: FileDelta[] = [];
	for (const file of files) {
		const sides: FileSides = { path: file.path };
		if (file.previousPath !== undefined) sides.previousPath = file.previousPath;
		for (const side of ["before", "after"] as const) {
			const path = side === "before" ? (file.previousPath ?? file.path) : file.path;
			let measure = side === "before" ? file.beforeMeasure : file.afterMeasure;
			const content = file[side];
			// A minified, vendored or build-output path is a gap as it is to Fovea's index, whatever its measure says.
			const byPath = content === undefined && measure === undefined ? undefined : pathGap(path);
			if (byPath !== undefined) {
				const bytes =
					measure?.bytes ?? (typeof content === "string" ? Buffer.byteLength(content) : (content?.byteLength ?? 0));
				measure = { ...emptyMeasure(path, bytes), gap: byPath };
			} else if (measure === undefined && content !== undefined) {
				measure = measureFile(path, content, options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes });
				measured.push({ path, side, measure });
			}
			if (measure !== undefined) sides[side] = measure;
		}
		gaps.push(...gapsOf(sides));
		fileDeltas.push(fileDelta(sides));
		if (sides.before?.gap === undefined && sides.after?.gap === undefined) usable.push(sides);
	}
	const pairs = matchCallables(usable);
	const clones = cloneFindings(pairs, usable, input.allCallables ?? [], options.clones ?? {});
	gaps.push(...cloneSearchGaps(clones.coverage, options.clones ?? {}));
	const findings: Finding[] = [...complexityFindings(pairs, options), ...clones.findings, ...needlessFindings(usable)];
	let imports: ImportChanges | undefined;
	if (input.importEdges !== undefined) {
		const renames = new Map<string, string>();
		for (const file of files) if (file.previousPath !== undefined) renames.set(file.previousPath, file.path);
		const changed = new Set(files.map((file) => file.path));
		findings.push(...importFindings(input.importEdges, changed, renames, input.policy));
		imports = importChanges(input.importEdges.before, input.importEdges.after, renames, input.policy);
		const before = renames.size === 0 ? input.importEdges.before : renamedGraph(input.importEdges.before, renames);
		imports.cycles = {
			added: newImportCycles(before, input.importEdges.after, changed).map((cycle) => cycle.files),
			broken: brokenImportCycles(before, input.importEdges.after, changed),
		};
	}
	// Findings about test code rank after production code's and say so (clone findings mark their groups themselves).
	for (const finding of findings) if (finding.tests === undefined && isTestFile(finding.file)) finding.tests = true;
	const ranked = rankFindings(findings);
	return {
		...(imports === undefined ? {} : { imports }),
		findings: ranked,
		deltas: pairs.filter((pair) => pair.status !== "unchanged").map(deltaOf),
		files: fileDeltas,
		gaps,
		measured,
		policyViolations: ranked.filter((finding) => finding.policy === true).length,
		cloneComparisons: clones.coverage.comparisons,
	};
}

/** A coverage gap per file whose clone search stopped short: the review never claims a search it did not finish. */
function cloneSearchGaps(coverage: CloneCoverage, options: CloneOptions): ReviewGap[] {
	const perCallable = options.maxComparisonsPerCallable ?? MAX_CLONE_COMPARISONS_PER_CALLABLE;
	const total = options.maxComparisons ?? MAX_CLONE_COMPARISONS;
	return [...coverage.partial].map(([path, { stopped, searched }]) => ({
		path,
		side: "after",
		reason: "clone-search",
		detail: `clone search stopped at its bound (${perCallable} comparisons per callable, ${total} per review) for ${stopped} of ${searched} new or changed callable${searched === 1 ? "" : "s"}: their clones among the candidates left are not known`,
	}));
}

function gapsOf(sides: FileSides): ReviewGap[] {
	const out: ReviewGap[] = [];
	const before = sides.before?.gap;
	const after = sides.after?.gap;
	if (before !== undefined && after !== undefined && before.reason === after.reason) {
		out.push({ path: sides.path, reason: after.reason, detail: after.detail });
	} else {
		if (before !== undefined) out.push({ path: sides.previousPath ?? sides.path, side: "before", ...before });
		if (after !== undefined) out.push({ path: sides.path, side: "after", ...after });
	}
	for (const side of ["before", "after"] as const) {
		const errors = sides[side]?.parseErrors ?? 0;
		if (errors === 0) continue;
		const path = side === "before" ? (sides.previousPath ?? sides.path) : sides.path;
		const detail = `${errors} syntax error${errors === 1 ? "" : "s"}; metrics are best effort`;
		out.push({ path, side, reason: "parse-error", detail });
	}
	return out;
}

function fileDelta(sides: FileSides): FileDelta {
	const delta: FileDelta = {
		path: sides.path,
		status: sides.before === undefined ? "added" : sides.after === undefined ? "removed" : "modified",
		lines: {},
		sourceLines: {},
	};
	if (sides.previousPath !== undefined) delta.previousPath = sides.previousPath;
	for (const side of ["before", "after"] as const) {
		const measure = sides[side];
		if (measure === undefined || measure.gap !== undefined) continue;
		delta.lines[side] = measure.lines;
		delta.sourceLines[side] = measure.sourceLines;
	}
	return delta;
}
