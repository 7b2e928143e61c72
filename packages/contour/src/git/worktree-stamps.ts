/**
 * What a snapshot reads of the worktree itself, outside Git: the stat identity of its dirty and untracked paths
 * (every snapshot, no content read) and the hashes of those files (a working-tree snapshot only).
 */
import { createHash } from "node:crypto";
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { mapBounded } from "./bounded.ts";
import { typeClass, type Untracked } from "./compose.ts";
import type { RawEntry } from "./raw-diff.ts";
import type { Repository } from "./repository.ts";
import type { GitWork } from "./run.ts";
import { type WorktreeEntry, WorktreeReader } from "./worktree.ts";

const DEFAULT_MAX_HASH_BYTES = 64 << 20;

/**
 * The worktree's identity as far as `lstat` tells: the index it is compared with, and every dirty or untracked
 * path with its mode, size, times and inode. No content is read.
 */
export async function digestWorktree(
	root: string,
	indexDigest: string,
	dirty: readonly RawEntry[],
	untracked: readonly Untracked[],
): Promise<string> {
	const paths = [...new Set([...dirty.map((entry) => entry.path), ...untracked.map((entry) => entry.path)])].sort();
	const stamps = await mapBounded(paths, 32, (path) =>
		lstat(join(root, path), { bigint: true }).then(
			(s) => `${s.mode}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}`,
			() => "gone",
		),
	);
	const hash = createHash("sha256").update(`${indexDigest}\0`);
	paths.forEach((path, i) => {
		hash.update(`${path}\0${stamps[i]}\0`);
	});
	return hash.digest("hex");
}

/** Hashes every dirty or untracked worktree file a working-tree review compares (gitlinks and odd names aside). */
export async function describeWorktree(
	repo: Repository,
	dirty: readonly RawEntry[],
	untracked: readonly Untracked[],
	invalidNames: ReadonlySet<string>,
	options: { signal?: AbortSignal; work?: GitWork; maxHashBytes?: number },
): Promise<Map<string, WorktreeEntry>> {
	const paths = new Set<string>();
	for (const entry of dirty) if (entry.status !== "D" && typeClass(entry.dstMode) !== "gitlink") paths.add(entry.path);
	for (const entry of untracked) if (!entry.directory) paths.add(entry.path);
	const reader = new WorktreeReader(repo.root, repo.objectFormat, options.work);
	const limit = options.maxHashBytes ?? DEFAULT_MAX_HASH_BYTES;
	const list = [...paths];
	const described = await mapBounded(list, 16, (path): Promise<WorktreeEntry> => {
		options.signal?.throwIfAborted();
		return invalidNames.has(path) ? Promise.resolve({ kind: "unnamed" }) : reader.describe(path, limit);
	});
	return new Map(list.map((path, i) => [path, described[i] as WorktreeEntry]));
}
