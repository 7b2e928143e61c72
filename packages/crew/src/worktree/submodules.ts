import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { nulSplit } from "pi-fovea/git";
import { type GitOptions, gitOut, runCrewGit } from "./git.ts";

/**
 * Submodules of a task worktree. A linked worktree starts with its submodules empty, so they are initialized at
 * creation, but only from local paths: the hardening sets `protocol.allow=never` and this call re-allows the
 * `file` protocol alone. A submodule whose URL is remote (https, ssh, git) is therefore never fetched; Git refuses
 * it ("transport ... not allowed") and the worktree is kept with a warning that names the submodule folder and
 * says how to initialize it by hand. `--checkout` (and the guard) keep a `submodule.<name>.update = !cmd` from running.
 */

/** True when the worktree at `path` declares submodules. */
export async function hasSubmodules(path: string): Promise<boolean> {
	const info = await lstat(join(path, ".gitmodules")).catch(() => undefined);
	return info?.isFile() === true;
}

/**
 * Initializes the submodules of the worktree at `path` from local paths, one submodule folder at a time so that
 * one that cannot be cloned does not keep the others empty. Returns a warning per folder that failed.
 */
export async function initSubmodules(path: string, options: GitOptions = {}): Promise<string[]> {
	if (!(await hasSubmodules(path))) return [];
	const declared = await runCrewGit(
		path,
		["config", "-f", ".gitmodules", "-z", "--get-regexp", "^submodule\\..*\\.path$"],
		{
			...options,
			okCodes: [0, 1],
		},
	);
	const folders = nulSplit(declared.stdout).map((record) => record.slice(record.indexOf("\n") + 1));
	const warnings: string[] = [];
	for (const folder of folders) {
		const out = await runCrewGit(path, ["submodule", "update", "--init", "--recursive", "--checkout", "--", folder], {
			...options,
			config: [["protocol.file.allow", "always"]],
			okCodes: [0, 1, 128],
		});
		if (out.code === 0) continue;
		const reason = out.stderr
			.split("\n")
			.filter((line) => line.trim() !== "")
			.slice(-3)
			.join(" | ");
		warnings.push(
			`submodule ${folder} of ${path} was not initialized (${reason}). pi-crew clones submodules only from local paths and never fetches over the network; run "git submodule update --init --recursive -- ${folder}" in ${path} yourself if the task needs it.`,
		);
	}
	return warnings;
}

/** One initialized submodule of a worktree: its folder relative to the worktree, and its checked-out commit. */
export interface SubmoduleState {
	path: string;
	head: string;
}

/** The initialized submodules of the worktree at `path`, recursively. */
export async function initializedSubmodules(path: string, options: GitOptions = {}): Promise<SubmoduleState[]> {
	if (!(await hasSubmodules(path))) return [];
	const out = await gitOut(path, ["submodule", "status", "--recursive"], options);
	const states: SubmoduleState[] = [];
	for (const line of out.split("\n")) {
		// "<flag><sha> <path> (<describe>)": flag "-" is uninitialized, " " "+" "U" are checked out.
		const match = /^([ +U])([0-9a-f]{40,64}) (.+?)(?: \(.*\))?$/.exec(line);
		if (match?.[2] && match[3]) states.push({ path: match[3], head: match[2] });
	}
	return states;
}

/**
 * Submodules of the worktree at `path` whose checked-out history has commits found in no remote-tracking ref or
 * tag of the submodule. Those commits live only inside the worktree's own Git folder, which removing the worktree
 * deletes, so such a worktree must be kept.
 */
export async function submodulesWithLocalCommits(path: string, options: GitOptions = {}): Promise<string[]> {
	const unsafe: string[] = [];
	for (const sub of await initializedSubmodules(path, options)) {
		const dir = join(path, sub.path);
		const out = await runCrewGit(dir, ["rev-list", "--max-count=1", "HEAD", "--not", "--remotes", "--tags"], {
			...options,
			okCodes: [0, 128],
		});
		if (out.code !== 0 || out.stdout.trim() !== "") unsafe.push(sub.path);
	}
	return unsafe;
}
