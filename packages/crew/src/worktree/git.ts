import { spawn } from "node:child_process";
import { hardenedGit } from "pi-fovea/engine";
import { WorktreeError } from "./errors.ts";

/**
 * The only module of pi-crew that runs Git. Every call carries the kernel's hardening (`hardenedGit` from
 * pi-fovea: no fsmonitor, no hooks, no transport protocol, no credential helper, no lazy fetch, no system config,
 * no pager, no optional locks, no prompt) and more, because worktree mode writes: no submodule recursion unless
 * asked, no signing (a pinentry prompt would hang an unattended run), no automatic gc or maintenance in the
 * background, no LFS download during checkout (its client fetches over HTTP outside Git's protocol rules), the C
 * locale, and none of the inherited variables that would point Git at another repository or inject config.
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
	/** Extra `-c key=value` settings for this call only. */
	config?: readonly (readonly [string, string])[];
	/** Author and committer identity to use when the repository has none (see `identityEnv`). */
	identity?: NodeJS.ProcessEnv;
}

/** What a Git call printed and how it ended. */
export interface GitResult {
	code: number;
	stdout: string;
	stderr: string;
}

const EXTRA_CONFIG: readonly (readonly [string, string])[] = [
	["submodule.recurse", "false"],
	["commit.gpgSign", "false"],
	["tag.gpgSign", "false"],
	["gc.auto", "0"],
	["maintenance.auto", "false"],
];

/** The argument list and environment of a hardened `git -C cwd …` call. */
export function crewGitCommand(
	cwd: string,
	args: readonly string[],
	call: GitCall = {},
): { binary: string; args: string[]; env: NodeJS.ProcessEnv } {
	// hardenedGit already drops inherited variables that relocate the repository, inject config or run programs.
	const hardened = hardenedGit(cwd, args);
	const env: NodeJS.ProcessEnv = { ...hardened.env };
	for (const [name, value] of Object.entries(call.env ?? {})) if (!name.startsWith("GIT_")) env[name] = value;
	Object.assign(env, call.identity ?? {}, { GIT_LFS_SKIP_SMUDGE: "1", LC_ALL: "C", LANGUAGE: "C" });
	const config = [...EXTRA_CONFIG, ...(call.config ?? [])].flatMap(([key, value]) => ["-c", `${key}=${value}`]);
	// hardenedGit ends its flags with `-C cwd` before the subcommand; our settings go just before that.
	const at = hardened.args.indexOf("-C");
	return {
		binary: call.gitBinary ?? "git",
		args: [...hardened.args.slice(0, at), ...config, ...hardened.args.slice(at)],
		env,
	};
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
 * Runs one hardened Git command in `cwd`. Rejects with a WorktreeError: `git-missing` when the binary cannot be
 * started, else `git-failed` naming the subcommand, the directory and Git's own message.
 */
export function runCrewGit(cwd: string, args: readonly string[], call: GitCall = {}): Promise<GitResult> {
	const command = crewGitCommand(cwd, args, call);
	const okCodes = call.okCodes ?? [0];
	return new Promise((resolve, reject) => {
		const child = spawn(command.binary, command.args, { env: command.env, stdio: ["ignore", "pipe", "pipe"] });
		// Our own timer rather than spawn's `timeout`, whose timer outlives a binary that failed to start and would
		// keep the process alive until it fires.
		let killedByTimer = false;
		const timer = setTimeout(() => {
			killedByTimer = true;
			child.kill("SIGKILL");
		}, call.timeoutMs ?? 120_000);
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		child.stdout?.on("data", (chunk: Buffer) => out.push(chunk));
		child.stderr?.on("data", (chunk: Buffer) => err.push(chunk));
		child.on("error", (error: NodeJS.ErrnoException) => {
			clearTimeout(timer);
			if (error.code === "ENOENT" || error.code === "EACCES") reject(gitMissingError(command.binary, error));
			else
				reject(new WorktreeError("git-failed", `git ${args[0] ?? ""} in ${cwd}: ${error.message}`, { cause: error }));
		});
		child.on("close", (code, signal) => {
			clearTimeout(timer);
			const stderr = Buffer.concat(err).toString("utf8").trim();
			const stdout = Buffer.concat(out).toString("utf8");
			if (code !== null && okCodes.includes(code)) return resolve({ code, stdout, stderr });
			const how = killedByTimer
				? `killed after ${call.timeoutMs ?? 120_000} ms`
				: code === null
					? `killed by ${signal ?? "a signal"}`
					: `exit code ${code}`;
			reject(
				new WorktreeError("git-failed", `git ${args.join(" ")} failed in ${cwd} (${how}): ${stderr || "no message"}`),
			);
		});
	});
}

/** Runs Git and returns its stdout; see `runCrewGit`. */
export async function gitOut(cwd: string, args: readonly string[], call: GitCall = {}): Promise<string> {
	return (await runCrewGit(cwd, args, call)).stdout;
}

/** Splits `-z` output into records, dropping the empty tail after the last NUL. */
export function nulSplit(out: string): string[] {
	const records = out.split("\0");
	if (records[records.length - 1] === "") records.pop();
	return records;
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
