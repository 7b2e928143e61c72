import { spawn } from "node:child_process";
import { hardenedGit } from "pi-fovea/engine";

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
];

/**
 * The argument list and environment of a Contour Git call: the workspace kernel's hardening (no fsmonitor, hooks,
 * protocols, credential helper, lazy fetch, system config, pager, optional locks or prompt), plus: no replace
 * objects (so a blob's bytes always hash to its oid), no system attributes, no inherited repository-locating or
 * config-injecting variables, the C locale (stable messages), and `forcedConfig` passed through
 * GIT_CONFIG_COUNT so that keys with any subsection name survive intact.
 */
export function contourGit(
	root: string,
	args: readonly string[],
	forcedConfig: readonly (readonly [string, string])[] = [],
): { args: string[]; env: NodeJS.ProcessEnv } {
	const command = hardenedGit(root, args);
	const env: NodeJS.ProcessEnv = { ...command.env };
	for (const name of LOCATING_ENV) delete env[name];
	for (const name of Object.keys(env)) if (/^GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+)$/.test(name)) delete env[name];
	env.GIT_NO_REPLACE_OBJECTS = "1";
	env.GIT_ATTR_NOSYSTEM = "1";
	env.LC_ALL = "C";
	if (forcedConfig.length > 0) {
		env.GIT_CONFIG_COUNT = String(forcedConfig.length);
		forcedConfig.forEach(([key, value], i) => {
			env[`GIT_CONFIG_KEY_${i}`] = key;
			env[`GIT_CONFIG_VALUE_${i}`] = value;
		});
	}
	return { args: command.args, env };
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
