/**
 * Contour's Git layer: the only code in pi-contour that runs Git. Snapshots of a root's change (staged, working
 * tree or branch) as plain data, and the text of their sides, read through hardened, read-only Git calls.
 *
 * @module
 */
export { type ContentRequest, decode, type ReadOptions, readSides, type SideContent } from "./blobs.ts";
export { ObjectReader, ObjectReaders } from "./cat-file.ts";
export { type GitWork, newGitWork } from "./run.ts";
export {
	ConflictError,
	listSnapshot,
	RepositoryMovedError,
	type SnapshotIdentity,
	type SnapshotListing,
	type SnapshotOptions,
	takeSnapshot,
} from "./snapshot.ts";
export type {
	ChangedFile,
	ChangeStatus,
	CoverageGapKind,
	FileSide,
	SideSource,
	Snapshot,
	SnapshotTarget,
} from "./snapshot-model.ts";
export { DEFAULT_MAX_BYTES } from "./snapshot-model.ts";
export { NO_INDEX_DIGEST } from "./state.ts";
export { gitBlobOid } from "./worktree.ts";
