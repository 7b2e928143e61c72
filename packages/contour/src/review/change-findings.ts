/**
 * Which measured differences of a change become findings (the analysis thresholds live here):
 * - complexity: a changed callable whose cyclomatic complexity rose to `complexityThreshold` (10) or more from
 *   below it, by 2 or more when it was over it already (one more branch there is a delta of the story, not a
 *   question), or by `complexityJump` (5) or more; a new callable at the threshold or above;
 * - clones: a new or changed callable that is an exact or near clone of another callable of the change or of the
 *   files outside it, unless the two were already alike before;
 * - needless code: a hit that the before side of the change does not have (compared change-wide by rule and text,
 *   so code moved within or between files is not new);
 * - imports: new cycles that touch a changed file, new region dependencies, policy violations.
 */
import type { CallableMeasure } from "./callables.ts";
import { CloneGroups } from "./clone-groups.ts";
import {
	type CloneCandidate,
	type CloneOptions,
	ClonePool,
	MAX_CLONE_COMPARISONS,
	MAX_CLONE_COMPARISONS_PER_CALLABLE,
	MIN_CLONE_TOKENS,
	NEAR_CLONE_SIMILARITY,
	similarity,
} from "./clones.ts";
import type { CallablePair, FileSides, Located } from "./deltas.ts";
import {
	cloneGroupFinding,
	complexityFinding,
	crossingFinding,
	cycleFinding,
	type Finding,
	needlessFinding,
	violationFinding,
} from "./findings.ts";
import { renamedGraph } from "./import-changes.ts";
import { type ImportEdges, newImportCycles } from "./import-cycles.ts";
import type { ReviewPolicy } from "./policy.ts";
import { regionChanges } from "./regions.ts";
import { isTestCallable } from "./test-code.ts";

/**
 * A pair below the clone threshold on the base side is new only when the change made it at least this much more
 * alike: two methods at 68% that a one-token edit brings to 71% were as alike before.
 */
export const ALIKE_MARGIN = 0.1;
/** A callable at or above this cyclomatic complexity is worth a question. */
export const DEFAULT_COMPLEXITY_THRESHOLD = 10;
/** A rise of this much is worth a question even below the threshold. */
export const DEFAULT_COMPLEXITY_JUMP = 5;

/** Complexity thresholds (defaults above). */
export interface ComplexityOptions {
	complexityThreshold?: number;
	complexityJump?: number;
}

/** Callables of a file outside the change, for clone search (a `FileMeasure` qualifies). */
export interface FileCallables {
	path: string;
	callables: readonly CallableMeasure[];
}

/** Complexity findings of the matched callables. */
export function complexityFindings(pairs: readonly CallablePair[], options: ComplexityOptions): Finding[] {
	const threshold = options.complexityThreshold ?? DEFAULT_COMPLEXITY_THRESHOLD;
	const jump = options.complexityJump ?? DEFAULT_COMPLEXITY_JUMP;
	const out: Finding[] = [];
	for (const pair of pairs) {
		if (pair.after === undefined) continue;
		const value = pair.after.callable.cyclomatic;
		if (pair.status === "added" && value >= threshold) {
			const found = complexityFinding({ ...pair, after: pair.after });
			if (isTestCallable(pair.after.file, pair.after.callable)) found.tests = true;
			out.push(found);
		}
		if (pair.status !== "changed" || pair.before === undefined) continue;
		const old = pair.before.callable.cyclomatic;
		// Already over the threshold, one more branch is the story's delta (`parse 21 → 22`), not a question.
		const grew = old >= threshold ? value - old >= 2 : value >= threshold;
		if (value > old && (grew || value - old >= jump)) {
			const found = complexityFinding({ ...pair, after: pair.after });
			if (isTestCallable(pair.after.file, pair.after.callable)) found.tests = true;
			out.push(found);
		}
	}
	return out;
}

/** How far clone search went, for the report's work counts and its coverage gaps. */
export interface CloneCoverage {
	/** New and changed callables large enough to have clones. */
	targets: number;
	/** Candidates compared with them. */
	comparisons: number;
	/**
	 * Per after-side file with a search that stopped at a bound: how many of its callables' searches stopped before
	 * every candidate was compared, of how many it had searched.
	 */
	partial: Map<string, { stopped: number; searched: number }>;
}

/**
 * Clone findings of the new and changed callables, against the change and `others`, and how far the search went.
 * The work is bounded: each callable is compared with at most `maxComparisonsPerCallable` candidates and the review
 * with at most `maxComparisons`, shared evenly among the callables still to search (what one leaves goes to the
 * rest), so a change of thousands of look-alike callables is searched in part rather than for minutes; where a
 * search stopped short, `partial` says so and the report shows it as a coverage gap.
 */
export function cloneFindings(
	pairs: readonly CallablePair[],
	usable: readonly FileSides[],
	others: readonly FileCallables[],
	options: CloneOptions,
): { findings: Finding[]; coverage: CloneCoverage } {
	const threshold = options.nearSimilarity ?? NEAR_CLONE_SIMILARITY;
	const minTokens = options.minTokens ?? MIN_CLONE_TOKENS;
	const inChange = new Set(usable.flatMap((file) => [file.path, file.previousPath ?? file.path]));
	const candidates: CloneCandidate<CallableMeasure>[] = [];
	// Keyed by the candidate itself (the pool hands back the same objects): no key string per match.
	const previous = new Map<CloneCandidate<CallableMeasure>, Located | undefined>();
	for (const pair of pairs) {
		if (pair.after === undefined) continue;
		candidates.push(pair.after);
		previous.set(pair.after, pair.before);
	}
	for (const file of others) {
		if (inChange.has(file.path)) continue;
		for (const callable of file.callables) candidates.push({ file: file.path, callable });
	}
	/** The partner as it was before the change: itself when its file is not part of the change. */
	const before = (other: CloneCandidate<CallableMeasure>): Located | undefined =>
		previous.has(other) ? previous.get(other) : other;
	const targets = pairs.filter(
		(pair): pair is CallablePair & { after: Located } =>
			(pair.status === "added" || pair.status === "changed") &&
			pair.after !== undefined &&
			pair.after.callable.tokens >= minTokens,
	);
	const coverage: CloneCoverage = { targets: targets.length, comparisons: 0, partial: new Map() };
	if (targets.length === 0) return { findings: [], coverage };
	const pool = new ClonePool(candidates, options);
	const perCallable = options.maxComparisonsPerCallable ?? MAX_CLONE_COMPARISONS_PER_CALLABLE;
	let left = options.maxComparisons ?? MAX_CLONE_COMPARISONS;
	const searched = new Map<string, number>();
	const groups = new CloneGroups();
	for (const [i, pair] of targets.entries()) {
		const target = pair.after;
		const old = pair.before;
		const search = pool.search(target, Math.min(perCallable, Math.floor(left / (targets.length - i))));
		left -= search.comparisons;
		coverage.comparisons += search.comparisons;
		searched.set(target.file, (searched.get(target.file) ?? 0) + 1);
		if (!search.complete) {
			const partial = coverage.partial.get(target.file) ?? { stopped: 0, searched: 0 };
			partial.stopped++;
			coverage.partial.set(target.file, partial);
		}
		for (const match of search.matches) {
			const partner = before(match.other);
			// The same two callables as alike on the base side: not new, however the change nudged the number.
			const was =
				old === undefined || partner === undefined ? undefined : similarity(old.callable, partner.callable, options);
			if (was !== undefined && (was >= threshold || match.similarity - was < ALIKE_MARGIN)) continue;
			groups.link(target, match, old, was);
		}
	}
	const out = groups.list().map((group) => cloneGroupFinding({ ...group, tests: group.members.every(inTests) }));
	for (const [file, partial] of coverage.partial) partial.searched = searched.get(file) ?? partial.stopped;
	return { findings: out, coverage };
}

/** Whether a callable is test code (`test-code.ts`). */
function inTests(located: Located): boolean {
	return isTestCallable(located.file, located.callable);
}

/** Needless-code hits of the after side that the before side lacks. */
export function needlessFindings(usable: readonly FileSides[]): Finding[] {
	const seen = new Map<string, number>();
	for (const file of usable) {
		for (const hit of file.before?.needless ?? []) {
			const key = `${hit.rule}\0${hit.text}`;
			seen.set(key, (seen.get(key) ?? 0) + 1);
		}
	}
	const out: Finding[] = [];
	for (const file of usable) {
		const after = file.after;
		if (after === undefined) continue;
		for (const hit of after.needless) {
			const key = `${hit.rule}\0${hit.text}`;
			const left = seen.get(key) ?? 0;
			if (left > 0) {
				seen.set(key, left - 1);
				continue;
			}
			const afterCount = after.needless.filter((other) => other.rule === hit.rule).length;
			const counts: Parameters<typeof needlessFinding>[2] = { after: afterCount };
			if (file.before !== undefined) {
				const old = file.before.needless.filter((other) => other.rule === hit.rule);
				const first = old[0];
				counts.before = {
					file: file.previousPath ?? file.path,
					...(first === undefined ? {} : { line: first.line }),
					value: old.length,
				};
			}
			out.push(needlessFinding(file.path, hit, counts));
		}
	}
	return out;
}

/**
 * Import findings from the resolved graphs of both sides. `renames` maps a renamed file's before path to its after
 * path, so a rename adds no import; `changed` are the after paths of the change.
 */
export function importFindings(
	edges: { before: ImportEdges; after: ImportEdges },
	changed: ReadonlySet<string>,
	renames: ReadonlyMap<string, string>,
	policy: ReviewPolicy | undefined,
): Finding[] {
	const before = renames.size === 0 ? edges.before : renamedGraph(edges.before, renames);
	const out = newImportCycles(before, edges.after, changed).map(cycleFinding);
	const { crossings, violations } = regionChanges(before, edges.after, policy);
	out.push(...violations.map(violationFinding), ...crossings.map(crossingFinding));
	return out;
}
