import type { RawEntry } from "./raw-diff.ts";
import type { ChangedFile, ChangeStatus, FileSide, SideSource } from "./snapshot-model.ts";
import type { WorktreeEntry } from "./worktree.ts";

/**
 * Pure composition of Git's raw diffs into changed files. Object sides carry `bytes: 0` here; the snapshot fills
 * in sizes from one `cat-file --batch-check` afterwards.
 */

/** An untracked path (from `git status`), with its worktree description when it was looked at. */
export interface Untracked {
	path: string;
	/** An untracked directory Git did not enter (an embedded repository). */
	directory: boolean;
}

/** The kind of thing a mode names: a regular file, a symlink, a gitlink or a special file. */
export function typeClass(mode: string): "file" | "symlink" | "gitlink" | "special" {
	if (mode === "120000") return "symlink";
	if (mode === "160000") return "gitlink";
	if (mode.startsWith("100")) return "file";
	return "special";
}

function objectSide(oid: string, mode: string, source: SideSource): FileSide {
	return { oid, mode, bytes: 0, source };
}

function sameContent(a: FileSide, b: FileSide): boolean {
	return a.oid !== null && a.oid === b.oid && a.mode === b.mode;
}

function changeStatus(before: FileSide, after: FileSide): ChangeStatus {
	return typeClass(before.mode) === typeClass(after.mode) ? "modified" : "type-changed";
}

/**
 * Changes of a diff between two object states (HEAD→index, or merge base→HEAD): `before` sides come from a commit,
 * `after` sides from `afterSource`. Paths in `skip` (intent-to-add entries, which a commit leaves out) are dropped.
 */
export function objectChanges(
	entries: readonly RawEntry[],
	afterSource: SideSource,
	skip: ReadonlySet<string> = new Set(),
): ChangedFile[] {
	const changes: ChangedFile[] = [];
	for (const entry of entries) {
		const before = objectSide(entry.srcOid, entry.srcMode, "commit");
		const after = objectSide(entry.dstOid, entry.dstMode, afterSource);
		switch (entry.status) {
			case "A":
			case "C":
				if (!skip.has(entry.path)) changes.push({ path: entry.path, status: "added", after });
				break;
			case "D":
				changes.push({ path: entry.path, status: "deleted", before });
				break;
			case "M":
			case "T":
				changes.push({ path: entry.path, status: changeStatus(before, after), before, after });
				break;
			case "R":
				changes.push({ ...renamed(entry), before, after });
				break;
			default:
				throw new Error(`unexpected change ${entry.status} for ${entry.path}`);
		}
	}
	return sortChanges(changes);
}

function renamed(entry: RawEntry): Pick<ChangedFile, "path" | "oldPath" | "status" | "similarity"> {
	return { path: entry.path, oldPath: entry.oldPath as string, status: "renamed", similarity: entry.score ?? 0 };
}

/** What the worktree holds at a path the diffs name: a side, or null when the path is gone. */
export function worktreeSide(described: WorktreeEntry | undefined, gitMode?: string): FileSide | null {
	if (gitMode !== undefined && typeClass(gitMode) === "gitlink")
		return { oid: null, mode: "160000", bytes: 0, source: "worktree" };
	if (described === undefined || described.kind === "missing") return null;
	if (described.kind === "unnamed") return { oid: null, mode: gitMode ?? "100644", bytes: 0, source: "worktree" };
	if (described.kind === "escaped") return { oid: null, mode: "120000", bytes: 0, source: "worktree" };
	if (described.kind === "special") return { oid: null, mode: "000000", bytes: described.bytes, source: "worktree" };
	// Git's own mode for a regular file honours core.fileMode; the lstat mode does not.
	const mode =
		gitMode !== undefined && described.kind === "file" && typeClass(gitMode) === "file" ? gitMode : described.mode;
	return { oid: described.oid, mode, bytes: described.bytes, source: "worktree" };
}

/**
 * HEAD→worktree, composed from HEAD→index (`staged`, with renames), index→worktree (`dirty`, from `git status`)
 * and the untracked paths, with `described` holding the worktree description of every dirty or untracked path.
 * A worktree file whose bytes hash to what the index holds is unchanged (only its stat moved). A deleted file and
 * an untracked one with the same nonempty content are paired as an exact rename.
 */
export function worktreeChanges(
	staged: readonly RawEntry[],
	dirty: readonly RawEntry[],
	untracked: readonly Untracked[],
	described: ReadonlyMap<string, WorktreeEntry>,
	emptyBlob: string,
): ChangedFile[] {
	const dirtyByPath = new Map(dirty.map((entry) => [entry.path, entry]));
	const untrackedByPath = new Map(untracked.map((entry) => [entry.path, entry]));
	const untrackedSide = (entry: Untracked) =>
		entry.directory
			? ({ oid: null, mode: "160000", bytes: 0, source: "worktree" } as const)
			: worktreeSide(described.get(entry.path));
	// What the worktree holds where the index holds `indexSide`; null when the worktree deleted it.
	const current = (path: string, indexSide: FileSide): FileSide | null => {
		const entry = dirtyByPath.get(path);
		if (entry === undefined) return indexSide;
		if (entry.status === "D") return null;
		const side = worktreeSide(described.get(path), entry.dstMode);
		return side !== null && sameContent(side, indexSide) ? indexSide : side;
	};
	const changes: ChangedFile[] = [];
	const modified = (path: string, before: FileSide, after: FileSide | null) => {
		if (after === null) changes.push({ path, status: "deleted", before });
		else if (!sameContent(before, after)) changes.push({ path, status: changeStatus(before, after), before, after });
	};
	const inIndex = new Set<string>();
	for (const entry of staged) {
		inIndex.add(entry.path);
		const before = objectSide(entry.srcOid, entry.srcMode, "commit");
		const after = current(entry.path, objectSide(entry.dstOid, entry.dstMode, "index"));
		if (entry.status === "A" || entry.status === "C") {
			if (after !== null) changes.push({ path: entry.path, status: "added", after });
		} else if (entry.status === "M" || entry.status === "T") modified(entry.path, before, after);
		else if (entry.status === "R") {
			if (after === null) changes.push({ path: entry.oldPath as string, status: "deleted", before });
			else {
				// Git's similarity measured the staged bytes; after a further worktree edit it no longer applies.
				const { similarity, ...rename } = renamed(entry);
				changes.push({ ...rename, ...(after.source === "worktree" ? {} : { similarity }), before, after });
			}
		} else if (entry.status === "D") {
			const back = untrackedByPath.get(entry.path);
			if (back === undefined) changes.push({ path: entry.path, status: "deleted", before });
			else {
				untrackedByPath.delete(entry.path);
				modified(entry.path, before, untrackedSide(back));
			}
		} else throw new Error(`unexpected change ${entry.status} for ${entry.path}`);
	}
	for (const entry of dirty) {
		if (inIndex.has(entry.path)) continue;
		const before = objectSide(entry.srcOid, entry.srcMode, "commit");
		if (entry.status === "A") {
			const after = worktreeSide(described.get(entry.path), entry.dstMode);
			if (after !== null) changes.push({ path: entry.path, status: "added", after });
		} else if (entry.status === "D" || entry.status === "M" || entry.status === "T")
			modified(entry.path, before, current(entry.path, before));
		else throw new Error(`unexpected change ${entry.status} for ${entry.path}`);
	}
	for (const entry of untrackedByPath.values()) {
		const after = untrackedSide(entry);
		if (after !== null) changes.push({ path: entry.path, status: "added", after });
	}
	return sortChanges(pairExactRenames(changes, emptyBlob));
}

/** Pairs a deleted file with an added worktree file of the same nonempty content, when the pair is unique. */
function pairExactRenames(changes: ChangedFile[], emptyBlob: string): ChangedFile[] {
	const deleted = new Map<string, ChangedFile[]>();
	const added = new Map<string, ChangedFile[]>();
	for (const change of changes) {
		const side = change.status === "deleted" ? change.before : change.status === "added" ? change.after : undefined;
		if (side?.oid == null || side.oid === emptyBlob || typeClass(side.mode) !== "file") continue;
		if (change.status === "added" && side.source !== "worktree") continue;
		const bucket = change.status === "deleted" ? deleted : added;
		bucket.set(side.oid, [...(bucket.get(side.oid) ?? []), change]);
	}
	const replaced = new Map<ChangedFile, ChangedFile | null>();
	for (const [oid, gone] of deleted) {
		const fresh = added.get(oid);
		if (gone.length !== 1 || fresh?.length !== 1) continue;
		const [from, to] = [gone[0] as ChangedFile, fresh[0] as ChangedFile];
		replaced.set(from, null);
		replaced.set(to, {
			path: to.path,
			oldPath: from.path,
			status: "renamed",
			similarity: 100,
			before: from.before as FileSide,
			after: to.after as FileSide,
		});
	}
	if (replaced.size === 0) return changes;
	const out: ChangedFile[] = [];
	for (const change of changes) {
		const swap = replaced.get(change);
		if (swap === undefined) out.push(change);
		else if (swap !== null) out.push(swap);
	}
	return out;
}

function sortChanges(changes: ChangedFile[]): ChangedFile[] {
	return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
