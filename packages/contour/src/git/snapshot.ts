import { branchDiffArgs, checkedBase, resolveBase } from "./branch-base.ts";
import { ObjectReader, type ObjectReaders } from "./cat-file.ts";
import { withGap, withSizes } from "./change-sides.ts";
import { objectChanges, worktreeChanges } from "./compose.ts";
import { parseRawDiff, type RawEntry } from "./raw-diff.ts";
import { checkedIndexFile, openRepository, type Repository } from "./repository.ts";
import { type GitWork, git } from "./run.ts";
import {
	type ChangedFile,
	DEFAULT_MAX_BYTES,
	type ReviewedBlob,
	type Snapshot,
	type SnapshotTarget,
} from "./snapshot-model.ts";
import { indexDigest, type RepositoryState, readState, resolveHead, sameState } from "./state.ts";
import { parseStatusV2, STATUS_ARGS, type StatusListing } from "./status-v2.ts";
import { gitBlobOid } from "./worktree.ts";
import { describeWorktree, digestWorktree } from "./worktree-stamps.ts";

/** Options of one snapshot. */
export interface SnapshotOptions {
	/** Any directory inside the worktree; the snapshot is of its top level. */
	root: string;
	/** Default "staged" (HEAD→index, the commit candidate). */
	target?: SnapshotTarget;
	/** The base of a branch review (a branch, tag or commit); required for and only for target "branch". */
	base?: string;
	signal?: AbortSignal;
	/** Sides larger than this are a "too-large" gap (default 1 MiB). */
	maxBytes?: number;
	/** Worktree files larger than this are not hashed: their side has a null oid (default 64 MiB). */
	maxHashBytes?: number;
	/** Receives the work done: processes spawned, objects checked, worktree files hashed. */
	work?: GitWork;
	/**
	 * The object readers of the review this snapshot is for: the sizes and the final HEAD are read through its reader
	 * of this root, which the review's content reads then reuse (one process). Without, one is started and closed.
	 */
	objects?: ObjectReaders;
	/** Test hook: runs after every read, before HEAD and the index are checked again. */
	onBetweenReads?: () => void | Promise<void>;
	/** A staged review's index file instead of the repository's own (see `Repository.indexFile`). */
	indexFile?: string;
}

/** HEAD or the index moved while a snapshot was being taken; taking it again gives a consistent one. */
export class RepositoryMovedError extends Error {}

/** The index holds unmerged entries: there is no single candidate to review until the conflicts are resolved. */
export class ConflictError extends Error {
	readonly paths: string[];
	constructor(root: string, paths: string[]) {
		const shown = paths.slice(0, 10).join(", ") + (paths.length > 10 ? ` and ${paths.length - 10} more` : "");
		super(`${root} has unresolved merge conflicts in ${shown}; resolve them before a review`);
		this.paths = paths;
	}
}

/**
 * Takes a snapshot of one Git root: the changed files of `target`, each side named by its blob id and size, and
 * the digests that identify what was read. Reads no file content and no blob except to hash dirty worktree files
 * of a "working-tree" snapshot; writes nothing (no index refresh, no lock, no object). Throws a clear Error for
 * a missing or non-Git root, a bare repository, a partial clone, an unknown base, a branch review without
 * commits, conflicts (ConflictError, for targets that read the index), a missing object, and a repository that
 * moved while being read (RepositoryMovedError).
 */
export async function takeSnapshot(options: SnapshotOptions): Promise<Snapshot> {
	return (await listSnapshot(options)).complete();
}

/** What identifies a snapshot: equal identities (with equal settings) are the same analysis. */
export type SnapshotIdentity = Pick<
	Snapshot,
	"root" | "target" | "base" | "head" | "branch" | "indexDigest" | "worktreeDigest"
>;

/**
 * The first part of a snapshot: its identity, from the references, the index, one status run and `lstat`, with
 * neither an object read nor a file hashed. A caller that holds the analysis of that identity needs nothing more
 * (a review of an unchanged root spawns no object reader); `complete` reads the rest.
 */
export interface SnapshotListing {
	identity: SnapshotIdentity;
	/**
	 * The identity is of one moment: status compared the HEAD it names with the index it names, and the index was not
	 * rewritten before the worktree's stat data was read. Only then may a caller take it for the snapshot.
	 */
	settled: boolean;
	/** The sizes, the worktree's hashes (a working-tree snapshot) and the check that nothing moved meanwhile. */
	complete(): Promise<Snapshot>;
}

/** Lists a snapshot of one Git root (see `SnapshotListing`); throws as `takeSnapshot` does for what it reads. */
export async function listSnapshot(options: SnapshotOptions): Promise<SnapshotListing> {
	const target = options.target ?? "staged";
	if (target !== "staged" && target !== "working-tree" && target !== "branch")
		throw new Error(`unknown snapshot target ${JSON.stringify(target)}: use staged, working-tree or branch`);
	if ((target === "branch") !== (options.base !== undefined))
		throw new Error(target === "branch" ? "a branch review needs a base" : `a base is only for a branch review`);
	if (options.base !== undefined) checkedBase(options.base);
	const call = { signal: options.signal, work: options.work };
	// HEAD is resolved while locating the repository (references only: no object is read before the partial-clone
	// refusal); that it names a commit is checked with the blob sizes below.
	const opened = await openRepository(options.root, call);
	const { head } = opened;
	const repo =
		options.indexFile === undefined
			? opened.repo
			: { ...opened.repo, indexFile: await checkedIndexFile(options.indexFile, opened.repo.gitDir) };
	const calls = { ...call, forcedConfig: repo.forcedConfig, indexFile: repo.indexFile };
	const before = await readState(repo, head);
	const base = target === "branch" ? await resolveBase(repo, before, options.base as string, calls) : undefined;
	// One status run lists HEAD→index, index→worktree and the untracked files, and says which HEAD it compared; a
	// branch review diffs its commits too.
	const [status, branchDiff] = await Promise.all([
		git(repo.root, STATUS_ARGS, { ...calls, okCodes: [0, 128] }),
		base === undefined ? undefined : git(repo.root, branchDiffArgs(base, before.head as string), calls),
	]);
	if (status.code !== 0) await statusFailure(repo, before.head, status.stderr, options.objects, calls);
	const listing = parseStatusV2(status.stdout);
	if (target !== "branch" && listing.conflicts.length > 0) throw new ConflictError(repo.root, listing.conflicts);
	const worktreeDigest = await digestWorktree(repo.root, before.indexDigest, listing.dirty, listing.untracked);
	const settled =
		listing.head !== undefined &&
		listing.head === before.head &&
		(await indexDigest(repo.gitDir, repo.objectFormat, repo.indexFile)) === before.indexDigest;
	const identity: SnapshotIdentity = {
		root: repo.root,
		target,
		head: before.head,
		branch: before.branch,
		...(base ? { base } : {}),
		indexDigest: before.indexDigest,
		worktreeDigest,
	};
	return {
		identity,
		settled,
		complete: () =>
			completeSnapshot(options, repo, calls, { identity, before, listing, branchDiff: branchDiff?.stdout }),
	};
}

/** The rest of a listed snapshot: the changes with their sizes, checked against a state read after every read. */
async function completeSnapshot(
	options: SnapshotOptions,
	repo: Repository,
	calls: Parameters<typeof git>[2] & {},
	listed: {
		identity: SnapshotIdentity;
		before: RepositoryState;
		listing: StatusListing;
		branchDiff?: Buffer | undefined;
	},
): Promise<Snapshot> {
	const { identity, before, listing, branchDiff } = listed;
	const target = identity.target;
	const dirtyEntries = listing.dirty;
	const untrackedPaths = listing.untracked;
	const entries = branchDiff === undefined ? listing.staged : parseRawDiff(branchDiff);
	const invalidNames = new Set<string>();
	for (const entry of [...entries, ...dirtyEntries]) if (!entry.validName) invalidNames.add(entry.path);
	for (const entry of untrackedPaths) if (!entry.valid) invalidNames.add(entry.path);
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	let changes: ChangedFile[];
	if (target === "working-tree") {
		const described = await describeWorktree(repo, dirtyEntries, untrackedPaths, invalidNames, options);
		changes = worktreeChanges(
			entries,
			dirtyEntries,
			untrackedPaths,
			described,
			gitBlobOid(new Uint8Array(0), repo.objectFormat),
		);
	} else {
		// Intent-to-add entries (`git add -N`) are added in the worktree only (older Git listed them as staged too); a
		// commit leaves them out.
		const intentToAdd = new Set(dirtyEntries.filter((entry) => entry.status === "A").map((entry) => entry.path));
		changes = target === "branch" ? objectChanges(entries, "commit") : objectChanges(entries, "index", intentToAdd);
	}
	// The sizes are read by object id, which no later move of HEAD or the index changes, so the state is read again
	// (after every read of references, the index and the worktree) while Git looks them up; the same process answers
	// both.
	const reader = options.objects?.reader(repo.root, calls) ?? new ObjectReader(repo.root, calls);
	let sizedAndAfter: [ChangedFile[], RepositoryState];
	try {
		sizedAndAfter = await Promise.all([
			withSizes(reader, repo, changes, before.head),
			(async () => {
				await options.onBetweenReads?.();
				return readState(repo, await headNow(reader, repo, calls));
			})(),
		]);
	} finally {
		if (options.objects === undefined) await reader.close();
	}
	const [sized, after] = sizedAndAfter;
	changes = sized.map((change) => withGap(change, invalidNames, maxBytes));
	if (!sameState(before, after))
		throw new RepositoryMovedError(
			`${repo.root} changed while it was being snapshotted (${describeMove(before, after)}); take the snapshot again`,
		);
	return {
		...identity,
		objectFormat: repo.objectFormat,
		changes,
		...(target === "working-tree"
			? {}
			: { workingCopyDiffers: workingCopyDiffers(target, listing), reviewedBlobs: reviewedBlobs(target, listing) }),
	};
}

/** The paths whose working copy differs from what a staged or branch review analyses (see `Snapshot`). */
function workingCopyDiffers(target: SnapshotTarget, listing: StatusListing): string[] {
	const paths = new Set<string>();
	const entries = target === "branch" ? [...listing.dirty, ...listing.staged] : listing.dirty;
	for (const entry of entries) {
		paths.add(entry.path);
		if (entry.oldPath !== undefined) paths.add(entry.oldPath);
	}
	for (const untracked of listing.untracked) paths.add(untracked.path);
	return [...paths].sort();
}

/**
 * The blobs the reviewed state holds for the paths whose working copy differs (see `Snapshot.reviewedBlobs`): a
 * status entry's source side is the index for an unstaged change and HEAD for a staged one. For a branch review a
 * path staged since HEAD takes HEAD's blob from its staged entry, not the index's from its unstaged one.
 */
function reviewedBlobs(target: SnapshotTarget, listing: StatusListing): ReviewedBlob[] {
	const blobs = new Map<string, ReviewedBlob>();
	// A path an entry spoke for: one added since the reviewed state (a zero source id) has no blob there.
	const seen = new Set<string>();
	const take = (entries: readonly RawEntry[]): void => {
		for (const entry of entries) {
			const path = entry.oldPath ?? entry.path;
			if (seen.has(path)) continue;
			seen.add(path).add(entry.path); // a renamed entry's new path is not in the reviewed state either
			if (!/^0+$/.test(entry.srcOid)) blobs.set(path, { path, oid: entry.srcOid, mode: entry.srcMode });
		}
	};
	if (target === "branch") take(listing.staged);
	take(listing.dirty);
	return [...blobs.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Status failed: a HEAD that names no commit (a tree, a missing object) is said as the object check says it, since
 * Git's own words name neither the root nor the cause; anything else is Git's message.
 */
async function statusFailure(
	repo: Repository,
	head: string | null,
	stderr: string,
	objects: ObjectReaders | undefined,
	calls: Parameters<typeof git>[2],
): Promise<never> {
	if (head !== null) {
		const reader = objects?.reader(repo.root, calls) ?? new ObjectReader(repo.root, calls);
		try {
			await withSizes(reader, repo, [], head, { checkHead: true });
		} finally {
			if (objects === undefined) await reader.close();
		}
	}
	throw new Error(`git status failed in ${repo.root}: ${stderr || "exit code 128"}`);
}

/**
 * The object HEAD names now, as `reader` resolves it. When it names none (an unborn branch, or a missing object),
 * `rev-parse` tells which, as `readState` would.
 */
async function headNow(
	reader: ObjectReader,
	repo: Repository,
	calls: Parameters<typeof git>[2],
): Promise<string | null> {
	const [answer] = await reader.info(["HEAD"]);
	if (answer !== undefined && !answer.missing && answer.oid !== undefined) return answer.oid;
	return resolveHead(repo.root, calls);
}

function describeMove(before: RepositoryState, after: RepositoryState): string {
	const moved: string[] = [];
	if (before.head !== after.head) moved.push(`HEAD ${before.head ?? "unborn"} → ${after.head ?? "unborn"}`);
	if (before.branch !== after.branch)
		moved.push(`branch ${before.branch ?? "detached"} → ${after.branch ?? "detached"}`);
	if (before.indexDigest !== after.indexDigest) moved.push("the index was rewritten");
	return moved.join(", ");
}
