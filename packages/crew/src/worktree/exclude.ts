import { lstat, mkdir, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { requireRealFolders } from "../state/real-folders.ts";
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
	await requireRealFolders(repo.root, [WORKTREES_DIR, runId], {
		create: true,
		refuse: (dir, problem) =>
			new WorktreeError(
				"unsafe-layout",
				typeof problem === "string"
					? `${dir} is ${problem}; pi-crew only creates task worktrees in a real folder inside ${repo.root}`
					: `${dir} resolves to ${problem.resolvesTo}, outside its repository`,
			),
	});
}

/**
 * Refuses a task folder (`<root>/.worktrees/<runId>/<taskId>`) that is a symbolic link. `git worktree add` follows
 * such a link, so a link planted there (a checked-in one, or one an agent made) would put the task's checkout, and
 * every write of its agent, wherever it points. A missing folder is fine: Git creates it.
 */
export async function refuseLinkedTaskFolder(path: string): Promise<void> {
	const info = await lstat(path).catch(() => undefined);
	if (info?.isSymbolicLink()) {
		throw new WorktreeError(
			"unsafe-layout",
			`${path} is a symbolic link; pi-crew only creates task worktrees in a real folder inside .worktrees, remove the link first`,
		);
	}
}

/**
 * Proves that a just-added task worktree really is at `path`: its canonical path must be `path` itself, not
 * somewhere a symbolic link made between the check and `git worktree add` pointed it. When it is not, the
 * registration Git wrote (in the common Git directory) is dropped and the call throws; the folder the link led to is
 * left exactly as Git left it, since pi-crew never deletes anything outside the repository.
 */
export async function requireWorktreeInPlace(repo: Repository, path: string): Promise<void> {
	const real = await realpath(path).catch(() => path);
	if (real === path) return;
	await forgetRegistration(repo, join(real, ".git"));
	throw new WorktreeError(
		"unsafe-layout",
		`${path} resolves to ${real} (a symbolic link was put there while the worktree was added), not to a real folder inside ${join(repo.root, WORKTREES_DIR)}; the worktree registration was dropped and ${real} was left as it is`,
	);
}

/** Deletes the admin folders under `<commonDir>/worktrees/` whose `gitdir` names `dotGit` (all inside the repository). */
async function forgetRegistration(repo: Repository, dotGit: string): Promise<void> {
	const admin = join(repo.commonDir, "worktrees");
	for (const name of await readdir(admin).catch(() => [] as string[])) {
		const back = await readFile(join(admin, name, "gitdir"), "utf8").catch(() => "");
		if (back.trim() === dotGit) await rm(join(admin, name), { recursive: true, force: true });
	}
}
