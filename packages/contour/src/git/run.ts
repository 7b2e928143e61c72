import { spawn } from "node:child_process";
import { type ForcedConfig, hardenedGit } from "pi-fovea/engine";

/**
 * How much work Git and the filesystem did for one caller, so tests can assert work counts instead of times.
 * Every function of this folder that spawns Git or reads content takes an optional counter and adds to it.
 */
export interface GitWork {
	/** Git processes spawned. */
	processes: number;
	/** Object headers asked of `git cat-file --batch-check` (sizes, existence). */
	objectsChecked: number;
	/** Blob contents read from the object database. */
	blobsRead: number;
	/** Bytes of those blob contents. */
	blobBytes: number;
	/** Worktree files whose bytes were read (hashed or decoded). */
	worktreeFilesRead: number;
	/** Bytes read from worktree files. */
	worktreeBytes: number;
}

/** A fresh counter with everything at zero. */
export function newGitWork(): GitWork {
	return { processes: 0, objectsChecked: 0, blobsRead: 0, blobBytes: 0, worktreeFilesRead: 0, worktreeBytes: 0 };
}

/** Options of one Git call. */
export interface GitCallOptions {
	/** Bytes written to the process's stdin, then closed. */
	input?: Buffer | string;
	signal?: AbortSignal;
	/** Kills the process after this long (default 120 s): a hung Git must not hang a review. */
	timeoutMs?: number;
	/** Exit codes that are answers rather than failures (default [0]). */
	okCodes?: readonly number[];
	/** Receives stdout as it arrives instead of buffering it (the result's stdout is then empty). */
	onStdout?: (chunk: Buffer) => void;
	/** Configuration forced on this call in the command-line scope, beyond the standard hardening. */
	forcedConfig?: readonly (readonly [key: string, value: string])[];
	work?: GitWork;
}

/** What a Git call printed and how it ended (only for exit codes in `okCodes`). */
export interface GitResult {
	code: number;
	stdout: Buffer;
	stderr: string;
}

// Variables that would point Git at another repository, index or object store, or inject configuration, when
// the user runs Pi from inside a Git hook or an alias. A review reads the root it was given and nothing else.

/**
 * The argument list and environment of a Contour Git call: the engine's hardening (see `hardenedGit` in
 * pi-fovea/engine: no hooks, filters, protocols, replace objects or inherited repository variables, and
 * `forcedConfig` through GIT_CONFIG_COUNT), plus the C locale so Git's messages are stable.
 */
export function contourGit(
	root: string,
	args: readonly string[],
	forcedConfig: ForcedConfig = [],
): { args: string[]; env: NodeJS.ProcessEnv } {
	const command = hardenedGit(root, args, forcedConfig);
	return { args: command.args, env: { ...command.env, LC_ALL: "C" } };
}

/**
 * Runs one hardened `git -C root …` and resolves with its output; rejects with an Error naming the command, the
 * root and Git's own message when Git fails, is killed by the timeout, or the signal aborts it.
 */
export function git(root: string, args: readonly string[], options: GitCallOptions = {}): Promise<GitResult> {
	const command = contourGit(root, args, options.forcedConfig);
	const okCodes = options.okCodes ?? [0];
	if (options.work) options.work.processes++;
	return new Promise((resolve, reject) => {
		const child = spawn("git", command.args, {
			env: command.env,
			stdio: ["pipe", "pipe", "pipe"],
			signal: options.signal,
			timeout: options.timeoutMs ?? 120_000,
		});
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		let settled = false;
		const fail = (message: string) => {
			if (settled) return;
			settled = true;
			reject(new Error(`git ${args[0] ?? ""} failed in ${root}: ${message}`));
		};
		child.stdout.on("data", (chunk: Buffer) => {
			if (options.onStdout) {
				try {
					options.onStdout(chunk);
				} catch (error) {
					child.kill();
					if (!settled) {
						settled = true;
						reject(error);
					}
				}
			} else out.push(chunk);
		});
		child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
		child.on("error", (error) => fail(error.message));
		child.on("close", (code, signal) => {
			if (settled) return;
			const stderr = Buffer.concat(err).toString("utf8").trim();
			if (code === null) return fail(`killed by ${signal ?? "a signal"}${stderr ? `: ${stderr}` : ""}`);
			if (!okCodes.includes(code)) return fail(stderr || `exit code ${code}`);
			settled = true;
			resolve({ code, stdout: Buffer.concat(out), stderr });
		});
		// A process that exits before reading all of its input closes the pipe: its exit status tells the story.
		child.stdin.on("error", () => {});
		child.stdin.end(options.input ?? "");
	});
}

/** Splits NUL-terminated `-z` output into its records (the empty tail after the last NUL is dropped). */
export function nulRecords(out: Buffer): Buffer[] {
	const records: Buffer[] = [];
	let start = 0;
	for (let at = out.indexOf(0, start); at !== -1; at = out.indexOf(0, start)) {
		records.push(out.subarray(start, at));
		start = at + 1;
	}
	if (start < out.length) records.push(out.subarray(start));
	return records;
}
