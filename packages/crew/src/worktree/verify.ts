import { lstat, readFile, realpath } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { WorktreeError } from "./errors.ts";
import { type GitOptions, runCrewGit } from "./git.ts";
import type { Repository } from "./repository.ts";

/**
 * Proves that `path` is a linked worktree of `repo` before an agent is started in it. Git finds a repository by
 * walking up from the working directory, so a worktree whose `.git` file is missing or points elsewhere would
 * silently hand the agent the parent repository (its index, HEAD and branch). Checked: `.git` is a regular file
 * (not a folder, not a symlink) reading `gitdir: <common-dir>/worktrees/<name>`; that admin folder points back at
 * this `.git` file; and Git, asked from inside, reports this folder as its top level with that admin folder as its
 * Git directory and the repository's common directory. Returns the admin folder.
 */
export async function verifyTaskWorktree(path: string, repo: Repository, options: GitOptions = {}): Promise<string> {
	const fail = (reason: string): never => {
		throw new WorktreeError(
			"verification-failed",
			`worktree ${path} is not a verified linked worktree of ${repo.root}: ${reason}; an agent started there could act on the parent repository`,
		);
	};
	const dotGit = join(path, ".git");
	const info = await lstat(dotGit).catch(() => undefined);
	if (info === undefined) fail("it has no .git file");
	else if (info.isSymbolicLink()) fail(".git is a symbolic link");
	else if (info.isDirectory()) fail(".git is a folder (a repository of its own), not a worktree's .git file");
	else if (!info.isFile()) fail(".git is not a regular file");

	const text = await readFile(dotGit, "utf8");
	const match = /^gitdir: (.+?)\r?\n?$/.exec(text);
	if (!match?.[1]) return fail(`.git does not read "gitdir: <path>" (it reads ${JSON.stringify(text.slice(0, 120))})`);
	const adminDir = await realpath(resolve(path, match[1])).catch(() => fail(`.git points at missing ${match[1]}`));
	const expectedParent = join(repo.commonDir, "worktrees");
	if (dirname(adminDir) !== expectedParent) fail(`.git points at ${adminDir}, not inside ${expectedParent}`);

	const back = await readFile(join(adminDir, "gitdir"), "utf8").catch(() => fail(`${adminDir}/gitdir is missing`));
	const backPath = await realpath(resolve(adminDir, back.trim())).catch(() => undefined);
	const canonicalDotGit = await realpath(dotGit);
	if (backPath !== canonicalDotGit) fail(`${adminDir}/gitdir points at ${back.trim()}, not at ${dotGit}`);

	const out = await runCrewGit(
		path,
		["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-dir", "--git-common-dir"],
		{ ...options, okCodes: [0, 128] },
	);
	const [top, gitDir, commonDir] = out.stdout.split("\n");
	if (out.code !== 0 || !top || !gitDir || !commonDir) return fail(`git cannot read it (${out.stderr})`);
	const canonical = async (p: string) => realpath(p).catch(() => p);
	const [realTop, realPath, realGitDir, realCommon] = await Promise.all([
		canonical(top),
		canonical(path),
		canonical(gitDir),
		canonical(commonDir),
	]);
	if (realTop !== realPath) fail(`git inside it reports the top level ${top}`);
	if (realGitDir !== adminDir) fail(`git inside it uses the Git directory ${gitDir}`);
	if (realCommon !== repo.commonDir) fail(`git inside it uses the common directory ${commonDir}`);
	return adminDir;
}
