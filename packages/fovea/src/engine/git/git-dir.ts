import { readFile, stat } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";

/** Where a root's Git state lives on disk, read from the files alone (no Git process). */

/**
 * The directories whose changes mean Git state moved for `root` (HEAD, the index, branch refs): its git dir, the
 * common dir of a linked worktree, and the common dir's `refs/heads`. Empty when `root` has no `.git` of its own.
 */
export async function gitStateDirectories(root: string): Promise<string[]> {
	const gitDir = await gitDirOf(root);
	if (gitDir === undefined) return [];
	const common = await commonDirOf(gitDir);
	const dirs = new Set([gitDir, common, join(common, "refs", "heads")]);
	const present = await Promise.all(
		[...dirs].map((dir) =>
			stat(dir).then(
				(s) => (s.isDirectory() ? dir : undefined),
				() => undefined,
			),
		),
	);
	return present.filter((dir): dir is string => dir !== undefined);
}

/** The git dir named by `root/.git` (a directory, or a regular `.git` file's `gitdir:`), if any. */
export async function gitDirOf(root: string): Promise<string | undefined> {
	const marker = join(root, ".git");
	const info = await stat(marker).catch(() => undefined);
	if (info === undefined) return undefined;
	if (info.isDirectory()) return marker;
	// Only a regular `.git` file names a git dir; reading anything else (a FIFO) could block.
	if (!info.isFile() || info.size > 64 * 1024) return undefined;
	const text = await readFile(marker, "utf8").catch(() => "");
	const target = text.match(/^gitdir:\s*(.+?)\s*$/m)?.[1];
	if (target === undefined) return undefined;
	return isAbsolute(target) ? target : resolve(root, target);
}

/** The common dir of a git dir: itself, or the one its `commondir` file names (a linked worktree). */
export async function commonDirOf(gitDir: string): Promise<string> {
	const text = await readFile(join(gitDir, "commondir"), "utf8").catch(() => undefined);
	if (text === undefined) return gitDir;
	const target = text.trim();
	return isAbsolute(target) ? target : resolve(gitDir, target);
}
