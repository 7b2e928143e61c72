/**
 * What a review analyses, as a key: the snapshot's identity (root, target, base, HEAD, branch, index and worktree
 * digests) with the policy and settings. Equal keys mean an earlier report answers the review, so the key is what
 * makes a no-change pass read and parse nothing.
 */
import { createHash } from "node:crypto";
import {
	type GitWork,
	listSnapshot,
	type ObjectReaders,
	RepositoryMovedError,
	type Snapshot,
	type SnapshotIdentity,
	type SnapshotTarget,
} from "../git/index.ts";
import { MEASURE_VERSION } from "../review/measure-version.ts";
import type { PolicySource } from "./policy-file.ts";

/** Bump when the same inputs would give a different report, so kept reports of the old form are not reused. */
const PIPELINE_VERSION = 7;
/** A repository that moves while being snapshotted is snapshotted again, this many times in all. */
const SNAPSHOT_ATTEMPTS = 3;

export type { SnapshotIdentity };

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

/**
 * A snapshot, taken again when the repository moved while it was being taken. `answered`, when given, is asked
 * with the identity of a settled listing before anything else is read (no object, no hash): when it says the
 * identity is answered (a kept report), the snapshot is not completed and the result is `undefined`.
 */
export async function snapshotOf(
	options: {
		root: string;
		target: SnapshotTarget;
		base?: string;
		signal?: AbortSignal;
		objects?: ObjectReaders;
		indexFile?: string;
	},
	maxBytes: number,
	work: GitWork,
	answered?: (identity: SnapshotIdentity) => Promise<boolean>,
): Promise<Snapshot | undefined> {
	for (let attempt = 1; ; attempt++) {
		try {
			const listing = await listSnapshot({
				root: options.root,
				target: options.target,
				...(options.base === undefined ? {} : { base: options.base }),
				...(options.signal === undefined ? {} : { signal: options.signal }),
				maxBytes,
				work,
				...(options.objects === undefined ? {} : { objects: options.objects }),
				...(options.indexFile === undefined ? {} : { indexFile: options.indexFile }),
			});
			if (answered !== undefined && listing.settled && (await answered(listing.identity))) return undefined;
			return await listing.complete();
		} catch (error) {
			if (!(error instanceof RepositoryMovedError) || attempt >= SNAPSHOT_ATTEMPTS) throw error;
		}
	}
}
