/**
 * A review report: what one review of one Git root found, as immutable plain data. It identifies the snapshot it
 * analysed (root, HEAD, index and worktree digests), labels the root, and records who asked for it (the origin)
 * separately from the root, so a report can be shown, stored and compared without any engine loaded.
 *
 * This file imports types only: the extension can hold reports and their store at startup for free.
 */
import type { ChangeStatus, CoverageGapKind, SnapshotTarget } from "../git/index.ts";
import type { CallableDelta, Finding, ImportChanges, ReviewGap } from "../review/index.ts";

/** Who asked for a review: an explicit checkpoint, the background observer or the CLI; agent and session if known. */
export interface ReviewOrigin {
	kind: "checkpoint" | "background" | "cli";
	/** The agent that asked (e.g. a sub-agent's name), when one did. */
	agent?: string;
	sessionId?: string;
}

/** Something the review could not cover (fully), and why. `side` is absent when it holds for the whole file. */
export interface ReportGap {
	path: string;
	side?: "before" | "after";
	/** Snapshot and content gaps, and the review's own (`parse-error`, a partial `clone-search`). */
	reason: CoverageGapKind | ReviewGap["reason"];
	detail: string;
}

/** One changed path with its line counts on each side (absent where the side does not exist or was not measured). */
export interface ReportFile {
	path: string;
	previousPath?: string;
	status: ChangeStatus;
	lines: { before?: number; after?: number };
	sourceLines: { before?: number; after?: number };
	/** Set when the file (or a side) was not analysed as text. */
	gap?: ReportGap["reason"];
}

/**
 * The work one review did, so tests and benchmarks assert counts instead of times. A review answered from an
 * earlier one (`reusedFrom`) reads, measures and parses nothing.
 */
export interface ReviewWork {
	/** Git processes spawned (the snapshot included). */
	gitProcesses: number;
	/** Blob contents read from the object database. */
	blobsRead: number;
	/** Worktree files read (hashed for the snapshot, or decoded). */
	worktreeFilesRead: number;
	/** Sides of changed files measured now (one parse each). */
	sidesMeasured: number;
	/** Sides whose measure came from the cache (same bytes seen before, wherever they were). */
	measuresReused: number;
	/** Sides whose imports were extracted now (by the parse that measured the side, when it was measured too). */
	importsExtracted: number;
	/**
	 * Of the sides parsed now, those whose whole facts were taken (for the code map, the project slice and clone
	 * search); the others gave only their imports, which costs less where a language imports only at file level.
	 */
	sideFactsTaken: number;
	/**
	 * Files outside the change measured now for clone search: by a parse of their own, or inside the code map's parse
	 * of them when they looked likely to be chosen (`candidate-measures.ts`).
	 */
	cloneFilesMeasured: number;
	/**
	 * Every syntax parse this review ran itself: one per side measured or extracted (or both), one per clone file
	 * measured by a parse of its own. Parses for the code map are counted in `mapFilesParsed`.
	 */
	parses: number;
	/**
	 * Candidate callables clone search compared with the change's new and changed ones, at most
	 * `MAX_CLONE_COMPARISONS` (a search cut short is a `clone-search` gap).
	 */
	cloneComparisons: number;
	/** Exposure (heat) queries asked of the code map. */
	exposureQueries: number;
	/** Files the code map parsed while this review refreshed it, and graphs it built from scratch. */
	mapFilesParsed: number;
	graphsBuilt: number;
	/**
	 * Files outside the change parsed for the import graphs and clone search when the root's code map was not in
	 * memory (`checkpoint/project-slice.ts`): only the files the change reaches.
	 */
	sliceFilesParsed: number;
	/**
	 * Of `sliceFilesParsed`, files handed to Fovea's parsing threads once the slice was listed, while the review's
	 * own thread measured the change (`checkpoint/slice-prefetch.ts`; the CLI only).
	 */
	sliceFilesPrefetched: number;
}

/** The snapshot a report analysed: enough to tell whether anything moved since. */
export interface ReportSnapshot {
	/** The commit HEAD named, or null on an unborn branch (no commits yet). */
	head: string | null;
	/** The branch HEAD points to, or null when detached. */
	branch: string | null;
	indexDigest: string;
	worktreeDigest: string;
	objectFormat: "sha1" | "sha256";
}

/** One review of one Git root. Deeply frozen: every object in it throws (strict mode) when written. */
export interface ReviewReport {
	/** Unique per report. */
	readonly id: string;
	/**
	 * What was analysed and how: root, target, base, HEAD, index and worktree digests, policy and settings. Two
	 * reports with equal keys carry the same analysis.
	 */
	readonly key: string;
	/** The canonical top-level directory of the reviewed worktree: the report's label. */
	readonly root: string;
	/** The directory the caller named, when it was not the top level itself (a subdirectory of the worktree). */
	readonly requestedRoot?: string;
	readonly target: SnapshotTarget;
	/** For a branch review: the base as given, the commit it named, and the merge base the change starts from. */
	readonly base?: { readonly ref: string; readonly oid: string; readonly mergeBase: string };
	readonly snapshot: Readonly<ReportSnapshot>;
	/** Who asked; separate from the root label. */
	readonly origin: Readonly<ReviewOrigin>;
	/** ISO 8601 time the report was made. */
	readonly createdAt: string;
	/** The report whose analysis this one repeats, when nothing changed since it. */
	readonly reusedFrom?: string;
	readonly files: readonly ReportFile[];
	/** Callables that changed, were added, removed, moved or renamed. */
	readonly deltas: readonly CallableDelta[];
	/**
	 * Import edges the change added and removed (structural deltas, not findings), bounded with full counts. Absent
	 * in reports made before it existed.
	 */
	readonly imports?: Readonly<ImportChanges>;
	/** In rank order. `exposure`, where set, is modelled reach through the code graph, not severity. */
	readonly findings: readonly Finding[];
	/** What was not covered: snapshot gaps (submodules, symlinks, sizes, names), content and measure gaps. */
	readonly gaps: readonly ReportGap[];
	/** The explicit policy the review applied (and where it came from), or null: every finding is advisory. */
	readonly policy: { readonly source: string; readonly rules: number } | null;
	/** Findings that violate the policy. */
	readonly policyViolations: number;
	/** Why findings carry no exposure, when they do not. */
	readonly exposureNote?: string;
	/** Other limits of this review (import graph without a code map, clone search bounds, …). */
	readonly notes: readonly string[];
	readonly work: Readonly<ReviewWork>;
}

/** A report's content before it is frozen. */
export type ReportDraft = { -readonly [K in keyof ReviewReport]: ReviewReport[K] };

/** Work counters at zero. */
export function emptyWork(): ReviewWork {
	return {
		gitProcesses: 0,
		blobsRead: 0,
		worktreeFilesRead: 0,
		sidesMeasured: 0,
		measuresReused: 0,
		importsExtracted: 0,
		sideFactsTaken: 0,
		cloneFilesMeasured: 0,
		parses: 0,
		cloneComparisons: 0,
		exposureQueries: 0,
		mapFilesParsed: 0,
		sliceFilesParsed: 0,
		sliceFilesPrefetched: 0,
		graphsBuilt: 0,
	};
}

/**
 * Freezes a copy of `draft`, all the way down. The copy keeps the report from sharing objects with caches (a
 * cached measure must stay writable for its cache, and a report must not change when the cache does).
 */
export function freezeReport(draft: ReportDraft): ReviewReport {
	return deepFreeze(structuredClone(draft));
}

function deepFreeze<T>(value: T): T {
	if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
	for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
	return Object.freeze(value);
}

/**
 * A new report for a review whose analysis equals `earlier`'s (nothing changed since): a fresh id, origin, time
 * and work, sharing the earlier report's frozen findings, deltas and gaps.
 */
export function reissueReport(
	earlier: ReviewReport,
	fresh: { id: string; origin: ReviewOrigin; createdAt: string; work: ReviewWork; requestedRoot?: string },
): ReviewReport {
	const { requestedRoot: _ignored, ...rest } = earlier;
	return Object.freeze({
		...rest,
		id: fresh.id,
		...(fresh.requestedRoot === undefined ? {} : { requestedRoot: fresh.requestedRoot }),
		origin: Object.freeze({ ...fresh.origin }),
		createdAt: fresh.createdAt,
		reusedFrom: earlier.reusedFrom ?? earlier.id,
		work: Object.freeze({ ...fresh.work }),
	});
}

/** Checks an origin that crosses a boundary (tool input, observer); throws an Error naming what is wrong. */
export function checkOrigin(origin: unknown): ReviewOrigin {
	if (typeof origin !== "object" || origin === null) throw new Error("a review origin must be an object {kind, …}");
	const { kind, agent, sessionId } = origin as Record<string, unknown>;
	if (kind !== "checkpoint" && kind !== "background" && kind !== "cli")
		throw new Error(`review origin kind must be checkpoint, background or cli, got ${JSON.stringify(kind)}`);
	const out: ReviewOrigin = { kind };
	for (const [name, value] of [
		["agent", agent],
		["sessionId", sessionId],
	] as const) {
		if (value === undefined) continue;
		if (typeof value !== "string" || value.length === 0 || value.length > 200)
			throw new Error(`review origin ${name} must be a non-empty string of at most 200 characters`);
		out[name] = value;
	}
	return out;
}
