import { dirname, resolve } from "node:path";

/**
 * The one place that says how any package runs Git on a repository it did not write: the flags and environment of
 * every call. Nothing of the repository runs: no fsmonitor, no hooks, no transport protocol, no credential helper,
 * no lazy fetching, no system config or attributes, no pager, no optional locks, no prompt, no replace objects, no
 * signing (a pinentry prompt would hang an unattended call), no automatic gc or maintenance, no submodule recursion
 * unless a call asks, no LFS download (its client fetches over HTTP outside Git's protocol rules), the C locale so
 * messages are stable, and none of the inherited variables that relocate the repository or inject config. What a
 * repository's own config names (filter, merge and submodule programs) is neutralized per repository by the guard
 * (see guard.ts), passed here as `forced`.
 */
const HARDENING: readonly (readonly [string, string])[] = [
	["core.fsmonitor", "false"],
	["core.hooksPath", "/dev/null"],
	["protocol.allow", "never"],
	["credential.helper", ""],
	["core.untrackedCache", "false"],
	["submodule.recurse", "false"],
	["commit.gpgSign", "false"],
	["tag.gpgSign", "false"],
	["gc.auto", "0"],
	["maintenance.auto", "false"],
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
	GIT_LFS_SKIP_SMUDGE: "1",
	LC_ALL: "C",
	LANGUAGE: "C",
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

/** How one hardened call is built. */
export interface GitCommandOptions {
	/** The repository's guard (see guard.ts), plus any setting one call needs (`protocol.file.allow=always`). */
	forced?: ForcedConfig;
	/**
	 * `cwd` must hold its own repository (a `.git` directory or file): Git is not let look above it. Without this, a
	 * root whose `.git` was removed, or a directory inside a worktree, would be answered for the repository around it.
	 */
	ownRepository?: boolean;
	/** Variables laid over the process environment (a PATH, an identity). `GIT_*` names are ignored unless listed in `allowGitEnv`: they could undo the hardening. */
	env?: NodeJS.ProcessEnv;
	/** `GIT_*` names of `env` that may pass (author and committer identity). */
	allowGitEnv?: readonly string[];
}

/** The argument list and environment of a hardened `git -C cwd …` call, for callers that spawn it themselves. */
export function hardenedGit(
	cwd: string,
	args: readonly string[],
	options: GitCommandOptions = {},
): { args: string[]; env: NodeJS.ProcessEnv } {
	const env: NodeJS.ProcessEnv = { ...process.env };
	for (const name of LOCATING_ENV) delete env[name];
	for (const name of Object.keys(env)) if (/^GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+)$/.test(name)) delete env[name];
	for (const [name, value] of Object.entries(options.env ?? {}))
		if (!name.startsWith("GIT_") || options.allowGitEnv?.includes(name)) env[name] = value;
	Object.assign(env, GIT_ENV);
	if (options.ownRepository === true) env.GIT_CEILING_DIRECTORIES = dirname(resolve(cwd));
	const forced = options.forced ?? [];
	if (forced.length > 0) {
		env.GIT_CONFIG_COUNT = String(forced.length);
		forced.forEach(([key, value], i) => {
			env[`GIT_CONFIG_KEY_${i}`] = key;
			env[`GIT_CONFIG_VALUE_${i}`] = value;
		});
	}
	const flags = HARDENING.flatMap(([key, value]) => ["-c", `${key}=${value}`]);
	return { args: [...flags, "-C", cwd, ...args], env };
}
