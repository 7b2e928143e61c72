import { type ChildProcess, spawn } from "node:child_process";
import { type GitCommandOptions, hardenedGit } from "./command.ts";

/**
 * The one Git runner of the repository: every package spawns Git through `runGit` (or `spawnGit` for a long-lived
 * process), so each call carries the hardening of command.ts, its own timer, an abort signal, streaming and accepted
 * exit codes, and a binary that cannot start is a clear `GitError` at once.
 */

/** Options of one Git call. */
export interface GitRunOptions extends GitCommandOptions {
	/** The git executable (default `git`, looked up on the PATH of the call's environment). */
	gitBinary?: string;
	/** Bytes written to the process's stdin, then closed. */
	input?: Buffer | string;
	signal?: AbortSignal;
	/** Kills the process after this long (default 120 s): a hung Git must not hang its caller. */
	timeoutMs?: number;
	/** Exit codes that are answers rather than failures (default [0]). */
	okCodes?: readonly number[];
	/** Receives stdout as it arrives instead of buffering it (the result's stdout is then empty). */
	onStdout?: (chunk: Buffer) => void;
	/** Buffered stdout beyond this many bytes kills the call (default 512 MiB), so memory stays bounded. */
	maxBuffer?: number;
}

/** What a Git call printed and how it ended (only for exit codes in `okCodes`). */
export interface GitOutput {
	code: number;
	stdout: Buffer;
	stderr: string;
}

/** Why a Git call failed: the binary could not start, it exited with a code not accepted, or it was killed. */
export type GitFailure = "missing" | "failed";

/** A Git call that did not answer; `failure` tells a missing binary from a failed call. */
export class GitError extends Error {
	readonly failure: GitFailure;
	/** Git's own message (stderr), empty when it printed none or never started. */
	readonly stderr: string;
	constructor(failure: GitFailure, message: string, stderr = "", options?: ErrorOptions) {
		super(message, options);
		this.name = "GitError";
		this.failure = failure;
		this.stderr = stderr;
	}
}

const DEFAULT_TIMEOUT_MS = 120_000;

/** The error for a Git binary that cannot be started (absent, or not executable). */
export function gitMissingError(binary: string, cause?: unknown): GitError {
	return new GitError("missing", `git is not installed or not on PATH (tried to run ${JSON.stringify(binary)})`, "", {
		cause,
	});
}

/**
 * Spawns hardened `git -C cwd …` with piped stdio and no timer, for a long-lived process its caller drives (a
 * `cat-file --batch`). The caller handles its `error` event: `isMissingBinary` tells a binary that failed to start.
 */
export function spawnGit(
	cwd: string,
	args: readonly string[],
	options: GitCommandOptions & { gitBinary?: string; signal?: AbortSignal | undefined } = {},
): ChildProcess {
	const command = hardenedGit(cwd, args, options);
	return spawn(options.gitBinary ?? "git", command.args, {
		env: command.env,
		stdio: ["pipe", "pipe", "pipe"],
		...(options.signal === undefined ? {} : { signal: options.signal }),
	});
}

/** True for a spawn error that means the binary could not be started at all. */
export function isMissingBinary(error: NodeJS.ErrnoException): boolean {
	return error.code === "ENOENT" || error.code === "EACCES" || error.code === "ENOTDIR";
}

/**
 * Runs one hardened `git -C cwd …` and resolves with its output. Rejects with a GitError naming the subcommand, the
 * directory and Git's own message when Git fails or is killed by the timer or the signal (then with the signal's
 * reason), and with a `missing` GitError at once when the binary cannot start (no timer is left to hold the process).
 */
export function runGit(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<GitOutput> {
	const signal = options.signal;
	if (signal?.aborted) return Promise.reject(abortReason(signal));
	const binary = options.gitBinary ?? "git";
	const okCodes = options.okCodes ?? [0];
	const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	const maxBuffer = options.maxBuffer ?? 512 * 1024 * 1024;
	const label = `git ${args[0] ?? ""}`;
	return new Promise((resolve, reject) => {
		const child = spawnGit(cwd, args, { ...options, gitBinary: binary, signal: undefined });
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		let buffered = 0;
		let settled = false;
		let killedBy: string | undefined;
		const finish = (action: () => void) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			signal?.removeEventListener("abort", onAbort);
			action();
		};
		const kill = (why: string) => {
			killedBy ??= why;
			child.kill("SIGKILL");
		};
		// Our own timer rather than spawn's `timeout`, whose timer outlives a binary that failed to start.
		const timer = setTimeout(() => kill(`killed after ${timeoutMs} ms`), timeoutMs);
		const onAbort = () => {
			kill("aborted");
			finish(() => reject(abortReason(signal as AbortSignal)));
		};
		signal?.addEventListener("abort", onAbort, { once: true });
		child.stdout?.on("data", (chunk: Buffer) => {
			if (options.onStdout === undefined) {
				buffered += chunk.length;
				if (buffered > maxBuffer) kill(`stdout passed ${maxBuffer} bytes`);
				else out.push(chunk);
				return;
			}
			try {
				options.onStdout(chunk);
			} catch (error) {
				kill("its reader failed");
				finish(() => reject(error));
			}
		});
		child.stderr?.on("data", (chunk: Buffer) => err.push(chunk));
		child.on("error", (error: NodeJS.ErrnoException) => {
			if (isMissingBinary(error)) finish(() => reject(gitMissingError(binary, error)));
			else
				finish(() =>
					reject(new GitError("failed", `${label} failed in ${cwd}: ${error.message}`, "", { cause: error })),
				);
		});
		child.on("close", (code, killSignal) => {
			const stderr = Buffer.concat(err).toString("utf8").trim();
			if (killedBy === undefined && code !== null && okCodes.includes(code))
				return finish(() => resolve({ code, stdout: Buffer.concat(out), stderr }));
			const how = killedBy ?? (code === null ? `killed by ${killSignal ?? "a signal"}` : `exit code ${code}`);
			finish(() =>
				reject(new GitError("failed", `${label} failed in ${cwd} (${how}): ${stderr || "no message"}`, stderr)),
			);
		});
		// A process that exits before reading all of its input closes the pipe: its exit status tells the story.
		child.stdin?.on("error", () => {});
		child.stdin?.end(options.input ?? "");
	});
}

/** Runs Git (see `runGit`) and returns its stdout as UTF-8 text. */
export async function gitText(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<string> {
	return (await runGit(cwd, args, options)).stdout.toString("utf8");
}

function abortReason(signal: AbortSignal): unknown {
	return signal.reason ?? Object.assign(new Error("aborted"), { name: "AbortError" });
}
