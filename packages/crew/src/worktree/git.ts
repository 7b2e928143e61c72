import { type ForcedConfig, GitError, hardenedGit, PartialCloneError, repositoryGuard, runGit } from "pi-fovea/git";
import { WorktreeError } from "./errors.ts";

/**
 * The only module of pi-crew that runs Git, a thin adapter over the shared runner of pi-fovea/git: every call carries
 * its hardening (no fsmonitor, hooks, transport protocol, credential helper, lazy fetch, system config, pager,
 * signing, background gc, LFS download or submodule recursion, the C locale) and the repository's guard, read
 * without running anything: every filter driver's clean, smudge and process emptied, every custom merge driver
 * turned into a conflict, every `submodule.<name>.update` forced to `checkout`. Worktree mode checks out, commits and
 * merges, which is where Git would run those programs. Failures become WorktreeErrors.
 */

/** How to reach Git; tests and unusual installs inject the binary or a PATH. */
export interface GitOptions {
	/** The git executable (default `git`, looked up on the PATH of `env`). */
	gitBinary?: string;
	/** Variables laid over the process environment. `GIT_*` names are ignored: they could undo the hardening. */
	env?: NodeJS.ProcessEnv;
	/** Kills a Git process after this long (default 120 s), so a hung Git cannot hang a run. */
	timeoutMs?: number;
}

/** One call: options plus what counts as success. */
export interface GitCall extends GitOptions {
	/** Exit codes that are answers rather than failures (default [0]). */
	okCodes?: readonly number[];
	/** Extra settings for this call only (`protocol.file.allow=always` for a local submodule). */
	config?: ForcedConfig;
	/** Author and committer identity to use when the repository has none (see `identityEnv`). */
	identity?: NodeJS.ProcessEnv;
}

/** What a Git call printed and how it ended. */
export interface GitResult {
	code: number;
	stdout: string;
	stderr: string;
}

const IDENTITY = ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"];

/** The argument list and environment of a hardened `git -C cwd …` call, without the repository's guard. */
export function crewGitCommand(
	cwd: string,
	args: readonly string[],
	call: GitCall = {},
): { binary: string; args: string[]; env: NodeJS.ProcessEnv } {
	const command = hardenedGit(cwd, args, {
		env: { ...call.env, ...filterIdentity(call.identity) },
		allowGitEnv: IDENTITY,
		forced: call.config ?? [],
	});
	return { binary: call.gitBinary ?? "git", ...command };
}

/** The error for a Git binary that cannot be started. */
export function gitMissingError(binary: string, cause?: unknown): WorktreeError {
	return new WorktreeError(
		"git-missing",
		`git is not installed or not on PATH (tried to run ${JSON.stringify(binary)}); worktree mode needs Git, single mode does not`,
		{ cause },
	);
}

/**
 * Runs one hardened, guarded Git command in `cwd`. Rejects with a WorktreeError: `git-missing` when the binary
 * cannot be started, `partial-clone` for a repository whose missing objects Git could fetch, else `git-failed`
 * naming the subcommand, the directory and Git's own message.
 */
export async function runCrewGit(cwd: string, args: readonly string[], call: GitCall = {}): Promise<GitResult> {
	const binary = call.gitBinary ?? "git";
	try {
		const env = { ...call.env, ...filterIdentity(call.identity) };
		const guard = await repositoryGuard(cwd, { gitBinary: binary, env, timeoutMs: call.timeoutMs });
		const out = await runGit(cwd, args, {
			gitBinary: binary,
			env,
			allowGitEnv: IDENTITY,
			forced: [...guard, ...(call.config ?? [])],
			okCodes: call.okCodes,
			timeoutMs: call.timeoutMs,
		});
		return { code: out.code, stdout: out.stdout.toString("utf8"), stderr: out.stderr };
	} catch (error) {
		throw worktreeErrorOf(error, binary, cwd, args);
	}
}

function worktreeErrorOf(error: unknown, binary: string, cwd: string, args: readonly string[]): unknown {
	if (error instanceof GitError && error.failure === "missing") return gitMissingError(binary, error);
	if (error instanceof PartialCloneError)
		return new WorktreeError(
			"partial-clone",
			`${cwd} is a partial clone (it has a promisor remote); pi-crew does not create worktrees there, since checking out missing objects would fetch them`,
			{ cause: error },
		);
	if (error instanceof GitError)
		return new WorktreeError("git-failed", error.message.replace(/^git \S+/, `git ${args.join(" ")}`), {
			cause: error,
		});
	return error;
}

function filterIdentity(identity: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const name of IDENTITY) if (identity?.[name] !== undefined) env[name] = identity[name];
	return env;
}

/** Runs Git and returns its stdout; see `runCrewGit`. */
export async function gitOut(cwd: string, args: readonly string[], call: GitCall = {}): Promise<string> {
	return (await runCrewGit(cwd, args, call)).stdout;
}

/**
 * The author and committer variables for commits pi-crew makes in the repository at `cwd`: empty when the
 * repository (or the user's global config, or the environment) names someone, else `pi-crew <pi-crew@localhost>`
 * for the missing parts, so a commit never fails for want of an identity and never guesses one from the host name.
 */
export async function identityEnv(cwd: string, options: GitOptions = {}): Promise<NodeJS.ProcessEnv> {
	const read = async (key: string) =>
		(await runCrewGit(cwd, ["config", "--get", key], { ...options, okCodes: [0, 1] })).stdout.trim();
	const [name, email] = await Promise.all([read("user.name"), read("user.email")]);
	const env: NodeJS.ProcessEnv = {};
	const fill = (names: string[], value: string) => {
		for (const n of names) if (!process.env[n]) env[n] = value;
	};
	if (name === "") fill(["GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"], "pi-crew");
	if (email === "") fill(["GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"], "pi-crew@localhost");
	return env;
}

/** Just the Git options of a larger input object, so they can be passed on without the rest. */
export function gitOptionsOf(input: GitOptions): GitOptions {
	return { gitBinary: input.gitBinary, env: input.env, timeoutMs: input.timeoutMs };
}
