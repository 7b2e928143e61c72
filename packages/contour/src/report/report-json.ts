/**
 * A report as JSON for machines: the same data as the report, findings in rank order each naming its `file`
 * (relative to the root) and `line` first, with counts of everything and of what was left out. Within `maxTokens`
 * (when given) details go first — the story's lists (test code's, then production's), removed and added imports,
 * deltas, then files, gaps and findings from the end — and the counts say so.
 */
import { estimateTokens } from "pi-fovea/text-budget";
import type { CallableDelta, Finding, ImportChanges } from "../review/index.ts";
import type { ReportFile, ReportGap, ReviewReport } from "./report.ts";
import { type StructuralStory, structuralStory } from "./structural-story.ts";

/** Limits of the JSON form. */
export interface ReportJsonOptions {
	/** Findings included at most (default all). */
	maxFindings?: number;
	/** Keep `JSON.stringify(json, null, 2)` within this many tokens (by `estimateTokens`; default no limit). */
	maxTokens?: number;
}

/** A finding with its rank (1 = first) and its place first. */
export type RankedFinding = { file: string; line: number; rank: number } & Omit<Finding, "file" | "line">;

/** The JSON form of a report. */
export interface ReportJson {
	version: 1;
	id: string;
	root: string;
	requestedRoot?: string;
	target: ReviewReport["target"];
	base?: ReviewReport["base"];
	snapshot: ReviewReport["snapshot"];
	origin: ReviewReport["origin"];
	createdAt: string;
	reusedFrom?: string;
	summary: { files: number; findings: number; deltas: number; gaps: number; policyViolations: number };
	policy: ReviewReport["policy"];
	/**
	 * What changed, as the text report opens with it: production code's complexity up and down, callables added,
	 * removed and renamed, and import cycles made and broken; then test code's changes apart.
	 */
	story: StructuralStory;
	findings: RankedFinding[];
	files: ReportFile[];
	deltas: CallableDelta[];
	/** Import edges the change added and removed; the counts are full even when the lists are cut. */
	imports?: ImportChanges;
	gaps: ReportGap[];
	exposureNote?: string;
	notes: string[];
	work: ReviewReport["work"];
	/** How many of each list were left out to respect the limits. */
	omitted: { findings: number; files: number; deltas: number; gaps: number; imports: number };
}

/** The JSON form of `report` (a plain, mutable copy). */
export function reportJson(report: ReviewReport, options: ReportJsonOptions = {}): ReportJson {
	const ranked = report.findings.map(
		({ file, line, ...rest }, i): RankedFinding => ({ file, line, rank: i + 1, ...structuredClone(rest) }),
	);
	const json: ReportJson = {
		version: 1,
		id: report.id,
		root: report.root,
		...(report.requestedRoot === undefined ? {} : { requestedRoot: report.requestedRoot }),
		target: report.target,
		...(report.base === undefined ? {} : { base: { ...report.base } }),
		snapshot: { ...report.snapshot },
		origin: { ...report.origin },
		createdAt: report.createdAt,
		...(report.reusedFrom === undefined ? {} : { reusedFrom: report.reusedFrom }),
		summary: {
			files: report.files.length,
			findings: report.findings.length,
			deltas: report.deltas.length,
			gaps: report.gaps.length,
			policyViolations: report.policyViolations,
		},
		policy: report.policy === null ? null : { ...report.policy },
		story: structuralStory(report),
		findings: ranked.slice(0, Math.max(0, options.maxFindings ?? ranked.length)),
		files: structuredClone(report.files) as ReportFile[],
		deltas: structuredClone(report.deltas) as CallableDelta[],
		...(report.imports === undefined ? {} : { imports: structuredClone(report.imports) as ImportChanges }),
		gaps: structuredClone(report.gaps) as ReportGap[],
		...(report.exposureNote === undefined ? {} : { exposureNote: report.exposureNote }),
		notes: [...report.notes],
		work: { ...report.work },
		omitted: { findings: 0, files: 0, deltas: 0, gaps: 0, imports: 0 },
	};
	if (options.maxTokens !== undefined) fit(json, options.maxTokens);
	json.omitted = {
		findings: report.findings.length - json.findings.length,
		files: report.files.length - json.files.length,
		deltas: report.deltas.length - json.deltas.length,
		gaps: report.gaps.length - json.gaps.length,
		imports:
			(report.imports?.added.length ?? 0) +
			(report.imports?.removed.length ?? 0) -
			(json.imports?.added.length ?? 0) -
			(json.imports?.removed.length ?? 0),
	};
	return json;
}

/**
 * Shortens the least important lists first, each to the longest prefix that fits (binary search), until the JSON
 * fits; omitted counts are sized in with room for four digits.
 */
function fit(json: ReportJson, maxTokens: number): void {
	const room = { findings: 9999, files: 9999, deltas: 9999, gaps: 9999, imports: 9999 };
	const fits = () => estimateTokens(JSON.stringify({ ...json, omitted: room }, null, 2)) <= maxTokens;
	const imports = json.imports;
	const steps: (() => void)[] = [];
	// The story's lists repeat deltas in another form; their counts stay whole.
	for (const part of [json.story.tests, json.story.production]) {
		steps.push(
			() => shorten(part.renamed, (items) => (part.renamed = items), fits),
			() => shorten(part.removed, (items) => (part.removed = items), fits),
			() => shorten(part.added, (items) => (part.added = items), fits),
			() => shorten(part.complexity, (items) => (part.complexity = items), fits),
		);
	}
	if (imports !== undefined) {
		steps.push(() => shorten(imports.removed, (items) => (imports.removed = items), fits));
		steps.push(() => shorten(imports.added, (items) => (imports.added = items), fits));
	}
	steps.push(
		() => shorten(json.deltas, (items) => (json.deltas = items), fits),
		() => shorten(json.files, (items) => (json.files = items), fits),
		() => shorten(json.gaps, (items) => (json.gaps = items), fits),
		() => shorten(json.findings, (items) => (json.findings = items), fits),
	);
	for (const step of steps) {
		if (fits()) return;
		step();
	}
	while (!fits() && json.notes.length > 0) json.notes.pop();
}

/** Sets the longest prefix of `full` with which `fits()` holds (possibly none). */
function shorten<T>(full: readonly T[], set: (items: T[]) => void, fits: () => boolean): void {
	let lo = 0;
	let hi = full.length;
	while (lo < hi) {
		const mid = Math.ceil((lo + hi) / 2);
		set(full.slice(0, mid));
		if (fits()) lo = mid;
		else hi = mid - 1;
	}
	set(full.slice(0, lo));
}
