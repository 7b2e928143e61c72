/**
 * One review of one Git root, from a fresh snapshot to a frozen report: the pipeline an explicit checkpoint, the
 * background observer and the CLI share.
 *
 * snapshot listing → (same identity and settings as a kept report? a new report on the same analysis, no object read)
 * → the analysis of the change (`review-change.ts`). This first step loads neither the parser, the engine nor the
 * analysis: the second is imported only when no kept report answers, so a review of an unchanged root (a CLI run
 * after the last one) loads only what reads the snapshot and the kept report.
 */
import { randomUUID } from "node:crypto";
import { canonicalPath } from "pi-fovea/canonical-path";
import { DEFAULT_MAX_BYTES, newGitWork, ObjectReaders } from "../git/index.ts";
import { checkOrigin, emptyWork, type ReviewReport, reissueReport } from "../report/report.ts";
import { rootPolicy } from "./policy-file.ts";
import { addGitWork, now, type OpenedReview, type ReviewRootOptions } from "./review-options.ts";
import { analysisKey, type SnapshotIdentity, snapshotOf } from "./snapshot-key.ts";

export type { ReviewRootOptions } from "./review-options.ts";

/**
 * Reviews `options.root` and returns the report, kept in `options.cache.reports` unless the root was forgotten
 * meanwhile. Throws a clear Error for a missing, non-Git or bare root, an unknown base, conflicts (ConflictError), a
 * partial clone, and a repository that keeps moving; rethrows the signal's reason when aborted.
 */
export async function reviewRoot(options: ReviewRootOptions): Promise<ReviewReport> {
	// One object reader per root serves the snapshot and the reads of its sides; it ends with them, or here at the
	// latest.
	const objects = new ObjectReaders();
	try {
		const opened = await openReview(options, objects);
		if ("report" in opened) return opened.report;
		const { reviewChange } = await import("./review-change.ts");
		return await reviewChange(options, opened);
	} finally {
		await objects.close();
	}
}

/** The kept report that answers the root's snapshot, else the snapshot and the key of the report to make. */
async function openReview(
	options: ReviewRootOptions,
	objects: ObjectReaders,
): Promise<{ report: ReviewReport } | OpenedReview> {
	const origin = checkOrigin(options.origin);
	const { signal, cache } = options;
	const target = options.target ?? "staged";
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	signal?.throwIfAborted();
	const gitWork = newGitWork();
	const work = emptyWork();
	const requested = await canonicalPath(options.root);
	const mapped = options.maps !== undefined;
	/** The kept analysis of `state`, reissued for this call, and what identifies it. */
	const lookup = async (state: SnapshotIdentity) => {
		const epoch = cache.reports.epoch(state.root);
		const requestedRoot = requested === state.root ? undefined : requested;
		const policy = options.policy ?? (options.rootPolicy === true ? await rootPolicy(state.root) : undefined);
		const key = analysisKey(state, policy, { maxBytes, mapped });
		const earlier = await cache.findReport(state.root, key);
		if (earlier === undefined) return { epoch, requestedRoot, policy, key, report: undefined };
		addGitWork(work, gitWork);
		const report = reissueReport(earlier, { id: randomUUID(), origin, createdAt: now(), work, requestedRoot });
		cache.reports.add(report, epoch);
		return { epoch, requestedRoot, policy, key, report };
	};
	// A review of an unchanged root ends at the snapshot's listing: its identity finds the kept report before any
	// object is read or file hashed (no object reader is started).
	let probed: Awaited<ReturnType<typeof lookup>> | undefined;
	let answer: ReviewReport | undefined;
	const snapshot = await snapshotOf({ ...options, target, objects }, maxBytes, gitWork, async (identity) => {
		probed = await lookup(identity);
		answer = probed.report;
		return answer !== undefined;
	});
	if (snapshot === undefined && answer !== undefined) return { report: answer };
	if (snapshot === undefined) throw new Error("a snapshot ended without a report that answers it");
	const looked =
		probed !== undefined && probed.key === analysisKey(snapshot, probed.policy, { maxBytes, mapped })
			? probed
			: await lookup(snapshot);
	const { epoch, requestedRoot, policy, key, report: kept } = looked;
	if (kept !== undefined) return { report: kept };
	return { snapshot, epoch, requestedRoot, policy, key, origin, maxBytes, gitWork, work, objects };
}
