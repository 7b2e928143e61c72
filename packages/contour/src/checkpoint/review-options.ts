/**
 * What a review of one Git root is asked (`ReviewRootOptions`) and what its first step hands to the rest (an
 * `OpenedReview`: the snapshot and the key its report is kept under). Apart from `review-root.ts` and
 * `review-change.ts` so that neither imports the other: the first loads the second only when no kept report answers.
 */
import type { GitWork, ObjectReaders, Snapshot, SnapshotTarget } from "../git/index.ts";
import type { ReviewOrigin, ReviewWork } from "../report/report.ts";
import type { CodeMaps } from "./map-facts.ts";
import type { PolicySource } from "./policy-file.ts";
import type { ReviewCache } from "./review-cache.ts";

/** What to review and with what. */
export interface ReviewRootOptions {
	/** The Git worktree (or a directory inside it: the review covers its top level, and the report says so). */
	root: string;
	/** Default "staged" (HEAD→index). "branch" needs `base`. */
	target?: SnapshotTarget;
	base?: string;
	/** A staged review's index file instead of the repository's own: Git's GIT_INDEX_FILE, in a pre-commit hook. */
	indexFile?: string;
	signal?: AbortSignal;
	cache: ReviewCache;
	/**
	 * The code maps of roots, for whole-project import graphs and exposure; without, neither (the report says so). A
	 * loader is called only once the review has a change to analyse: a review answered from a kept report never loads
	 * the engine behind the maps (the CLI passes one).
	 */
	maps?: CodeMaps | (() => Promise<CodeMaps>);
	/** An explicit policy; without one (and without `rootPolicy`) every finding is advisory. */
	policy?: PolicySource;
	/** When no explicit policy is given, apply the root's `.pi/contour/policy.json` if it has one (default false). */
	rootPolicy?: boolean;
	/** Who asks; recorded separately from the root. */
	origin: ReviewOrigin;
	/** Sides larger than this are a "too-large" gap (default 1 MiB). */
	maxBytes?: number;
	/**
	 * Called as the root's code map finishes files it had to read or parse (a cold or changed map): `done` of
	 * `total`, after every batch; for a progress line.
	 */
	onProgress?: (done: number, total: number) => void;
}

/** A review past its snapshot that no kept report answered: what the analysis of its change starts from. */
export interface OpenedReview {
	snapshot: Snapshot;
	/** The store's epoch of the root when the review began (a root forgotten meanwhile keeps no report). */
	epoch: number;
	/** The directory asked for, when it is not the root itself. */
	requestedRoot: string | undefined;
	policy: PolicySource | undefined;
	/** The analysis key the new report is kept under. */
	key: string;
	origin: ReviewOrigin;
	maxBytes: number;
	gitWork: GitWork;
	work: ReviewWork;
	/** The root's object reader, closed by whoever opened the review. */
	objects: ObjectReaders;
}

/** Adds a review's Git work to its work counts. */
export function addGitWork(work: ReviewWork, git: GitWork): void {
	work.gitProcesses += git.processes;
	work.blobsRead += git.blobsRead;
	work.worktreeFilesRead += git.worktreeFilesRead;
}

/** A report's creation time. */
export function now(): string {
	return new Date().toISOString();
}
