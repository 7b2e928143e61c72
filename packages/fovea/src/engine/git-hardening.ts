import { execFile } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";

/**
 * How every package runs Git on a repository it analyses, without running anything of that repository: no
 * fsmonitor, no hooks, no transport protocols, no credential helper, no lazy fetching, no system config or
 * attributes, no pager, no optional locks, no prompt, no replace objects, no inherited variables that relocate the
 * repository or inject config, and every filter driver the repository configures emptied (Git runs clean filters
 * when it re-hashes a racily clean file, even in `status`). A partial clone is refused, since Git 2.39 ignores
 * GIT_NO_LAZY_FETCH and could fetch a missing object.
 */
const HARDENING = [
	"-c",
	"core.fsmonitor=false",
	"-c",
	"core.hooksPath=/dev/null",
	"-c",
	"protocol.allow=never",
	"-c",
	"credential.helper=",
	"-c",
	"core.untrackedCache=false",
];

const GIT_ENV = {
	GIT_NO_LAZY_FETCH: "1",
	GIT_PROTOCOL_FROM_USER: "0",
	GIT_TERMINAL_PROMPT: "0",
	GIT_OPTIONAL_LOCKS: "0",
	GIT_CONFIG_NOSYSTEM: "1",
	GIT_ATTR_NOSYSTEM: "1",
	GIT_NO_REPLACE_OBJECTS: "1",
	GIT_PAGER: "cat",
};

/**
 * Inherited variables that would point Git at another repository, index, object store or config, or make it run a
 * program (external diff, ssh, askpass, editor): a Pi started from inside a Git hook inherits GIT_DIR, and with it
 * every call would act on the parent repository.
 */
const LOCATING_ENV = [
	"GIT_DIR",
	"GIT_WORK_TREE",
	"GIT_INDEX_FILE",
	"GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES",
	"GIT_COMMON_DIR",
	"GIT_NAMESPACE",
	"GIT_PREFIX",
	"GIT_CONFIG",
	"GIT_CONFIG_PARAMETERS",
	"GIT_EXTERNAL_DIFF",
	"GIT_DIFF_OPTS",
	"GIT_REPLACE_REF_BASE",
	"GIT_GRAFT_FILE",
	"GIT_SHALLOW_FILE",
	"GIT_SSH",
	"GIT_SSH_COMMAND",
	"GIT_ASKPASS",
	"GIT_EDITOR",
	"GIT_SEQUENCE_EDITOR",
	"GIT_TEMPLATE_DIR",
];

/** Config forced onto one call (through GIT_CONFIG_COUNT, so keys with any subsection name survive intact). */
export type ForcedConfig = readonly (readonly [string, string])[];

/** How far Git may look for the repository of a call. */
export interface GitScope {
	/**
	 * `root` must hold its own repository (a `.git` directory or file): Git is not let look above it. Without this, a
	 * root whose `.git` was removed, or a directory inside a worktree, would be answered for the repository around it,
	 * with that repository's paths.
	 */
	ownRepository?: boolean;
}

/** The argument list and environment of a hardened `git -C root …` call, for callers that spawn it themselves. */
export function hardenedGit(
	root: string,
	args: readonly string[],
	forced: ForcedConfig = [],
	scope: GitScope = {},
): { args: string[]; env: NodeJS.ProcessEnv } {
	const env: NodeJS.ProcessEnv = { ...process.env, ...GIT_ENV };
	for (const name of LOCATING_ENV) delete env[name];
	if (scope.ownRepository === true) env.GIT_CEILING_DIRECTORIES = dirname(resolve(root));
	for (const name of Object.keys(env)) if (/^GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+)$/.test(name)) delete env[name];
	if (forced.length > 0) {
		env.GIT_CONFIG_COUNT = String(forced.length);
		forced.forEach(([key, value], i) => {
			env[`GIT_CONFIG_KEY_${i}`] = key;
			env[`GIT_CONFIG_VALUE_${i}`] = value;
		});
	}
	return { args: [...HARDENING, "-C", root, ...args], env };
}

/** Runs hardened `git -C root …` and returns stdout; rejects with a message naming the root on failure. */
export function runGit(
	root: string,
	args: readonly string[],
	options: GitScope & {
		timeoutMs?: number;
		maxBuffer?: number;
		forced?: ForcedConfig;
		okCodes?: readonly number[];
	} = {},
): Promise<string> {
	const command = hardenedGit(root, args, options.forced, options);
	return new Promise((resolvePromise, reject) => {
		execFile(
			"git",
			command.args,
			{
				env: command.env,
				timeout: options.timeoutMs ?? 10_000,
				maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
				encoding: "utf8",
			},
			(error, stdout, stderr) => {
				const code = typeof error?.code === "number" ? error.code : undefined;
				if (error && !(code !== undefined && options.okCodes?.includes(code)))
					reject(new Error(`git ${args[0] ?? ""} failed in ${root}: ${(stderr || error.message).trim()}`));
				else resolvePromise(stdout);
			},
		);
	});
}

/** The `git config -z --get-regexp` pattern whose listing `forcedConfigFrom` reads. */
export const GUARDED_CONFIG_PATTERN =
	"^(filter\\..+\\.(clean|smudge|process|required)|remote\\..+\\.promisor|extensions\\.partialclone)$";

/**
 * From a `git config -z --get-regexp GUARDED_CONFIG_PATTERN` listing (every scope, includes followed): throws for a
 * partial clone, else returns the config that empties every filter driver found.
 */
export function forcedConfigFrom(listing: string, root: string): [string, string][] {
	const drivers = new Set<string>();
	for (const record of listing.split("\0")) {
		if (record === "") continue;
		const newline = record.indexOf("\n");
		const key = newline === -1 ? record : record.slice(0, newline);
		const value = newline === -1 ? "true" : record.slice(newline + 1);
		if (key === "extensions.partialclone")
			throw partialClone(root, `extensions.partialClone = ${JSON.stringify(value)}`);
		if (key.startsWith("remote.") && key.endsWith(".promisor")) {
			if (!/^(false|no|off|0)$/i.test(value.trim())) throw partialClone(root, `${key} = ${JSON.stringify(value)}`);
		} else if (key.startsWith("filter.")) drivers.add(key.slice("filter.".length, key.lastIndexOf(".")));
	}
	const forced: [string, string][] = [];
	for (const name of [...drivers].sort()) {
		forced.push([`filter.${name}.clean`, ""], [`filter.${name}.smudge`, ""], [`filter.${name}.process`, ""]);
		forced.push([`filter.${name}.required`, "false"]);
	}
	return forced;
}

function partialClone(root: string, setting: string): Error {
	return new Error(
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
export async function repositoryGuard(root: string): Promise<ForcedConfig> {
	const stamp = await configStamp(root);
	const known = guards.get(root);
	if (known !== undefined && known.stamp === stamp) return known.forced;
	const listing = await runGit(root, ["config", "-z", "--get-regexp", GUARDED_CONFIG_PATTERN], { okCodes: [1] });
	const forced = forcedConfigFrom(listing, root);
	if (guards.size >= MAX_GUARDS) guards.clear();
	guards.set(root, { stamp, forced });
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

/**
 * The git dir of the worktree at `root`, read from its `.git` (a directory, or a file naming one) without running
 * Git; `undefined` when there is none.
 */
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

/** The common dir of `gitDir` (its `commondir` file in a linked worktree, else itself), read without running Git. */
export async function commonDirOf(gitDir: string): Promise<string> {
	const text = await readFile(join(gitDir, "commondir"), "utf8").catch(() => undefined);
	if (text === undefined) return gitDir;
	const target = text.trim();
	return isAbsolute(target) ? target : resolve(gitDir, target);
}
