import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { ForcedConfig } from "./command.ts";
import { commonDirOf, gitDirOf } from "./git-dir.ts";
import { type GitRunOptions, gitText } from "./run.ts";

/**
 * The guard of one repository: the config that neutralizes every program its own config names, forced on each
 * call. Git runs a clean filter when it re-hashes a racily clean file (even in `status`), a smudge filter on
 * checkout, a custom merge driver in `merge` and `merge-tree`, and a `submodule.<name>.update = !cmd` in `submodule
 * update`; the names are read without running anything (`git config --get-regexp`), then each is overridden on the
 * command-line scope, which wins over every file. A partial clone is refused, since Git 2.39 ignores
 * GIT_NO_LAZY_FETCH and could fetch a missing object.
 *
 * @module
 */

/** The `git config -z --get-regexp` pattern whose listing `forcedConfigFrom` reads. */
export const GUARDED_CONFIG_PATTERN =
	"^(filter\\..+\\.(clean|smudge|process|required)|merge\\..+\\.(driver|name|recursive)|submodule\\..+\\.update|remote\\..+\\.promisor|extensions\\.partialclone)$";

/**
 * A merge driver's command once overridden: a conflict, never a merge. `false` exits 1 without reading or writing,
 * so Git keeps its side of the file and reports the path as conflicted; a file the repository wants merged by its
 * own program is left for a person.
 */
export const REFUSED_MERGE_DRIVER = "false";

/**
 * From a `git config -z --get-regexp GUARDED_CONFIG_PATTERN` listing (every scope, includes followed): throws for a
 * partial clone, else returns the config that empties every filter driver, turns every custom merge driver into a
 * conflict and sets every submodule's update mode to `checkout`.
 */
export function forcedConfigFrom(listing: string, root: string): [string, string][] {
	const filters = new Set<string>();
	const mergeDrivers = new Set<string>();
	const submodules = new Set<string>();
	for (const record of listing.split("\0")) {
		if (record === "") continue;
		const newline = record.indexOf("\n");
		const key = newline === -1 ? record : record.slice(0, newline);
		const value = newline === -1 ? "true" : record.slice(newline + 1);
		const name = key.slice(key.indexOf(".") + 1, key.lastIndexOf("."));
		if (key === "extensions.partialclone")
			throw partialClone(root, `extensions.partialClone = ${JSON.stringify(value)}`);
		if (key.startsWith("remote.") && key.endsWith(".promisor")) {
			if (!/^(false|no|off|0)$/i.test(value.trim())) throw partialClone(root, `${key} = ${JSON.stringify(value)}`);
		} else if (key.startsWith("filter.")) filters.add(name);
		else if (key.startsWith("merge.")) mergeDrivers.add(name);
		else if (key.startsWith("submodule.")) submodules.add(name);
	}
	const forced: [string, string][] = [];
	for (const name of [...filters].sort()) {
		forced.push([`filter.${name}.clean`, ""], [`filter.${name}.smudge`, ""], [`filter.${name}.process`, ""]);
		forced.push([`filter.${name}.required`, "false"]);
	}
	for (const name of [...mergeDrivers].sort()) forced.push([`merge.${name}.driver`, REFUSED_MERGE_DRIVER]);
	for (const name of [...submodules].sort()) forced.push([`submodule.${name}.update`, "checkout"]);
	return forced;
}

/** The refusal of a partial clone, so a caller can say it in its own words. */
export class PartialCloneError extends Error {
	override name = "PartialCloneError";
}

function partialClone(root: string, setting: string): Error {
	return new PartialCloneError(
		`${root} is a partial clone (${setting}); it is not analysed, since Git could fetch missing objects from the network`,
	);
}

/** Guards read per root, kept while the repository's config files keep their size and mtime. */
const guards = new Map<string, { stamp: string; forced: ForcedConfig }>();
const MAX_GUARDS = 256;

/**
 * The config that makes Git calls on `root` safe (see `forcedConfigFrom`); throws for a partial clone or when the
 * config cannot be read. Read with one `git config` call, then reused while the repository's config files (and the
 * user's) keep their size and mtime, so a status probe normally costs no extra process.
 */
export async function repositoryGuard(
	root: string,
	run: Pick<GitRunOptions, "gitBinary" | "env" | "signal" | "timeoutMs"> = {},
): Promise<ForcedConfig> {
	const stamp = await configStamp(root);
	const key = `${run.gitBinary ?? "git"}\0${root}`;
	const known = guards.get(key);
	if (known !== undefined && known.stamp === stamp) return known.forced;
	const listing = await gitText(root, ["config", "-z", "--get-regexp", GUARDED_CONFIG_PATTERN], {
		timeoutMs: 10_000,
		...run,
		okCodes: [0, 1],
	});
	const forced = forcedConfigFrom(listing, root);
	if (guards.size >= MAX_GUARDS) guards.clear();
	guards.set(key, { stamp, forced });
	return forced;
}

/** Size and mtime of the config files that can define filters or promisors for `root`. */
async function configStamp(root: string): Promise<string> {
	const gitDir = await gitDirOf(root);
	const common = gitDir === undefined ? undefined : await commonDirOf(gitDir);
	const home = process.env.HOME ?? "";
	const xdg = process.env.XDG_CONFIG_HOME ?? (home === "" ? "" : join(home, ".config"));
	const files = [
		gitDir === undefined ? undefined : join(gitDir, "config.worktree"),
		common === undefined ? undefined : join(common, "config"),
		home === "" ? undefined : join(home, ".gitconfig"),
		xdg === "" ? undefined : join(xdg, "git", "config"),
	];
	const stamps = await Promise.all(
		files.map((file) =>
			file === undefined
				? "-"
				: stat(file).then(
						(s) => `${s.size}:${s.mtimeMs}:${s.ino}`,
						() => "none",
					),
		),
	);
	// Without a readable git dir the stamp never matches, so the guard is read again every time.
	return gitDir === undefined ? `uncached:${Math.random()}` : stamps.join("|");
}
