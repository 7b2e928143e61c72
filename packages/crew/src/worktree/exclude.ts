import { lstat, mkdir, readFile, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { WorktreeError } from "./errors.ts";
import { type GitOptions, gitOut } from "./git.ts";
import { EXCLUDE_LINE, WORKTREES_DIR } from "./layout.ts";
import type { Repository } from "./repository.ts";

const EQUIVALENT_LINES = new Set([WORKTREES_DIR, `${WORKTREES_DIR}/`, `/${WORKTREES_DIR}`, EXCLUDE_LINE]);

/**
 * Adds `/.worktrees/` to the repository's `info/exclude` unless a line already excludes it, so task worktrees
 * never show in the user's `git status`. The file lives in the common Git directory, which every worktree of the
 * repository (including a linked one the user works in) reads; nothing tracked, such as `.gitignore`, changes.
 * Returns true when the line was added.
 */
export async function ensureExcluded(repo: Repository): Promise<boolean> {
	const infoDir = join(repo.commonDir, "info");
	const file = join(infoDir, "exclude");
	const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
		if (error.code === "ENOENT") return "";
		throw new WorktreeError("unsafe-layout", `cannot read ${file}: ${error.message}`);
	});
	if (text.split(/\r?\n/).some((line) => EQUIVALENT_LINES.has(line.trim()))) return false;
	await mkdir(infoDir, { recursive: true });
	const separator = text === "" || text.endsWith("\n") ? "" : "\n";
	await writeFile(file, `${text}${separator}# pi-crew task worktrees\n${EXCLUDE_LINE}\n`);
	return true;
}

/**
 * Makes `<root>/.worktrees/<runId>/` as real folders inside the repository. A repository that tracks files under
 * `.worktrees/`, or where either folder is a symbolic link or a file, is refused: a checked-in symlink there
 * could otherwise place a task's worktree, and the agent's writes, anywhere on disk.
 */
export async function prepareWorktreesFolder(repo: Repository, runId: string, options: GitOptions = {}): Promise<void> {
	const tracked = await gitOut(repo.root, ["ls-files", "-z", "--", WORKTREES_DIR], options);
	if (tracked !== "") {
		throw new WorktreeError(
			"unsafe-layout",
			`${repo.root} tracks files under ${WORKTREES_DIR}/ (for example ${JSON.stringify(tracked.split("\0")[0])}); pi-crew keeps task worktrees there and will not mix them with tracked files`,
		);
	}
	let dir = repo.root;
	for (const part of [WORKTREES_DIR, runId]) {
		dir = join(dir, part);
		const info = await lstat(dir).catch(() => undefined);
		if (info === undefined) {
			await mkdir(dir).catch((error: NodeJS.ErrnoException) => {
				if (error.code !== "EEXIST") throw error;
			});
		}
		const now = await lstat(dir);
		if (now.isSymbolicLink() || !now.isDirectory()) {
			throw new WorktreeError(
				"unsafe-layout",
				`${dir} is ${now.isSymbolicLink() ? "a symbolic link" : "not a folder"}; pi-crew only creates task worktrees in a real folder inside ${repo.root}`,
			);
		}
		if ((await realpath(dir)) !== dir) {
			throw new WorktreeError("unsafe-layout", `${dir} resolves to ${await realpath(dir)}, outside its repository`);
		}
	}
}
