/**
 * Where a worktree's pre-commit hook lives, found without running Git: `core.hooksPath` when set (relative to the
 * worktree's top, `~/` from the home directory, as Git reads it), else `hooks/` of the common dir, so a linked
 * worktree shares its repository's hooks as Git does.
 *
 * A `core.hooksPath` outside the repository (neither in the worktree nor in its common dir) is refused: such a
 * directory is usually shared by every repository of the user (`~/.githooks`), so a hook written there would review
 * commits of repositories that never asked for it, and uninstalling it would remove it from all of them.
 */
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import { commonDirOf, gitDirOf } from "pi-fovea/engine";
import { configFiles, configValue } from "./git-config-value.ts";

/** Where the hook goes and why there. */
export interface HookLocation {
	/** The worktree's top level. */
	root: string;
	hooksDir: string;
	/** The repository's common dir (the git dir of its main worktree). */
	commonDir: string;
	/** `core.hooksPath` when it named the directory, else the common dir's `hooks/`. */
	source: "core.hooksPath" | "git-dir";
}

/** The hook location of the worktree at `root`; throws an Error saying why there is none it may use. */
export async function hookLocation(root: string): Promise<HookLocation> {
	const gitDir = await gitDirOf(root);
	if (gitDir === undefined) throw new Error(`${root} has no .git: a commit hook needs the top of a Git worktree`);
	const commonDir = await commonDirOf(gitDir);
	const configured = await configValue(await configFiles(gitDir, commonDir), "core", "hookspath");
	if (configured === undefined || configured === "") {
		return { root, hooksDir: join(commonDir, "hooks"), commonDir, source: "git-dir" };
	}
	const expanded = configured.startsWith("~/") ? join(process.env.HOME ?? homedir(), configured.slice(2)) : configured;
	const hooksDir = resolve(root, expanded);
	if (!inside(root, hooksDir) && !inside(commonDir, hooksDir)) {
		throw new Error(
			`core.hooksPath is ${JSON.stringify(configured)}, outside this repository (${hooksDir}): a hook written there would run for every repository that shares that directory; install it there yourself, or set core.hooksPath inside the repository (or unset it) first`,
		);
	}
	return { root, hooksDir, commonDir, source: "core.hooksPath" };
}

/** Whether `path` is `parent` or inside it, by their text. */
export function inside(parent: string, path: string): boolean {
	const rel = relative(parent, path);
	return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
