/**
 * What a review analyses, as a key: the snapshot's identity (root, target, base, HEAD, branch, index and worktree
 * digests) with the policy and settings. Equal keys mean an earlier report answers the review, so the key is what
 * makes a no-change pass read and parse nothing.
 */
import { createHash } from "node:crypto";
import {
	type GitWork,
	type ObjectReaders,
	RepositoryMovedError,
	type Snapshot,
	type SnapshotTarget,
	takeSnapshot,
} from "../git/index.ts";
import { MEASURE_VERSION } from "../review/index.ts";
import type { PolicySource } from "./policy-file.ts";

/** Bump when the same inputs would give a different report, so kept reports of the old form are not reused. */
const PIPELINE_VERSION = 7;
/** A repository that moves while being snapshotted is snapshotted again, this many times in all. */
const SNAPSHOT_ATTEMPTS = 3;

/** The parts of a snapshot that identify it (a staged snapshot of the same moment has the same digests). */
export type SnapshotIdentity = Pick<
	Snapshot,
	"root" | "target" | "base" | "head" | "branch" | "indexDigest" | "worktreeDigest"
>;

/** Everything the analysis depends on, hashed. */
export function analysisKey(
	snapshot: SnapshotIdentity,
	policy: PolicySource | undefined,
	settings: { maxBytes: number; mapped: boolean },
): string {
	const identity = {
		version: PIPELINE_VERSION,
		measure: MEASURE_VERSION,
		root: snapshot.root,
		target: snapshot.target,
		base: snapshot.base ?? null,
		head: snapshot.head,
		branch: snapshot.branch,
		index: snapshot.indexDigest,
		worktree: snapshot.worktreeDigest,
		policy: policy === undefined ? null : { source: policy.source, policy: policy.policy },
		maxBytes: settings.maxBytes,
		mapped: settings.mapped,
	};
	return createHash("sha256").update(JSON.stringify(identity)).digest("hex");
}

/** A snapshot, taken again when the repository moved while it was being taken. */
export async function snapshotOf(
	options: { root: string; target: SnapshotTarget; base?: string; signal?: AbortSignal; objects?: ObjectReaders },
	maxBytes: number,
	work: GitWork,
): Promise<Snapshot> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await takeSnapshot({
				root: options.root,
				target: options.target,
				...(options.base === undefined ? {} : { base: options.base }),
				...(options.signal === undefined ? {} : { signal: options.signal }),
				maxBytes,
				work,
				...(options.objects === undefined ? {} : { objects: options.objects }),
			});
		} catch (error) {
			if (!(error instanceof RepositoryMovedError) || attempt >= SNAPSHOT_ATTEMPTS) throw error;
		}
	}
}
