/**
 * The plain data a snapshot hands to the review: what changed between two states of one Git root, each side
 * named by its content identity (the Git blob id, the same whether the bytes sit in a commit, the index or the
 * worktree), so analysed bytes can be recognized wherever they move.
 */

/** Sides larger than this many bytes are a "too-large" gap unless a caller says otherwise (1 MiB). */
export const DEFAULT_MAX_BYTES = 1 << 20;

/** Which change is reviewed: HEAD→index (the commit candidate), HEAD→worktree, or merge-base(base, HEAD)→HEAD. */
export type SnapshotTarget = "staged" | "working-tree" | "branch";

/** Where a side's bytes live. */
export type SideSource = "commit" | "index" | "worktree";

/** How a path changed. A rename keeps its status even when its content changed too. */
export type ChangeStatus = "added" | "modified" | "deleted" | "renamed" | "type-changed";

/**
 * Why a file (or one side of it) is not analysed as text. Metadata gaps come with the snapshot (`submodule`,
 * `symlink`, `too-large`, `invalid-name`, `special-file`); content gaps come when the bytes are read (`binary`,
 * `invalid-utf8`, `over-budget`).
 */
export type CoverageGapKind =
	| "binary"
	| "invalid-utf8"
	| "too-large"
	| "over-budget"
	| "symlink"
	| "submodule"
	| "special-file"
	| "invalid-name";

/** One version of a file. */
export interface FileSide {
	/**
	 * The Git blob id of the bytes (for a gitlink, the submodule commit). Null only when no id is known without
	 * reading too much: a worktree file larger than the hashing limit, a submodule's checked-out commit, a
	 * special file.
	 */
	oid: string | null;
	/** Git's file mode: 100644, 100755, 120000 (symlink), 160000 (gitlink), or 000000 for a special file. */
	mode: string;
	/** Size in bytes (a symlink's target length; 0 for a gitlink). */
	bytes: number;
	source: SideSource;
}

/** One changed path, relative to the root with `/` separators. */
export interface ChangedFile {
	path: string;
	/** The path before a rename. */
	oldPath?: string;
	status: ChangeStatus;
	/** Rename similarity in percent, as Git measured it (100 for an exact rename). */
	similarity?: number;
	/** Absent for an added file. */
	before?: FileSide;
	/** Absent for a deleted file. */
	after?: FileSide;
	/** Set when the file cannot be analysed as text, as far as the snapshot can tell without reading bytes. */
	gap?: CoverageGapKind;
}

/** What one snapshot analysed: enough to identify it in a report and to tell whether anything moved since. */
export interface Snapshot {
	/** The canonical top-level directory of the worktree. */
	root: string;
	target: SnapshotTarget;
	/** The commit HEAD named, or null on an unborn branch. */
	head: string | null;
	/** The branch HEAD pointed to, or null when detached. */
	branch: string | null;
	/** For a branch review: the base as given, the commit it named, and the merge base the change starts from. */
	base?: { ref: string; oid: string; mergeBase: string };
	/** The index's checksum (`no-index` when there is none). */
	indexDigest: string;
	/**
	 * A digest of the worktree's dirty and untracked paths and their stat identity (size, times, inode, mode),
	 * keyed to the index: equal digests mean the worktree did not change as far as `lstat` can tell.
	 */
	worktreeDigest: string;
	/** The object format of the ids. */
	objectFormat: "sha1" | "sha256";
	/** Changed paths, sorted by path. */
	changes: ChangedFile[];
	/**
	 * Paths whose working copy is not what this snapshot reviews (a staged review: files edited after staging and
	 * untracked files; a branch review: those and the staged ones), sorted. The root's code map reads the working
	 * copy, so its facts for these paths describe another state than the reviewed one. Empty for the working tree.
	 */
	workingCopyDiffers?: string[];
	/**
	 * Of those paths, the ones the reviewed state holds, with the blob it holds (the index's for a staged review,
	 * HEAD's for a branch review), sorted by path: a review reads what they are in the state it analyses instead of
	 * their working copy. The others (untracked, added after the reviewed state) are not part of that state at all.
	 */
	reviewedBlobs?: ReviewedBlob[];
}

/** A file outside the change as the reviewed state holds it. */
export interface ReviewedBlob {
	path: string;
	oid: string;
	mode: string;
}
