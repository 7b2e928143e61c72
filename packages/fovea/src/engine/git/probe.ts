import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { ForcedConfig } from "./command.ts";
import { repositoryGuard } from "./guard.ts";
import { gitText, runGit } from "./run.ts";
import { parseStatusV2, statusPaths } from "./status-v2.ts";

/** Fovea probes while a turn waits: a Git that hangs this long is a failed probe. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * Fovea's read-only Git questions about a root: its status, and which files a change covers. Every call goes
 * through the hardened runner with the repository's guard (see guard.ts), so nothing of the repository runs.
 */

/** What one `git status` probe says about a root: the HEAD commit and the dirty or untracked paths. */
export interface GitState {
	head: string;
	dirty: string[];
}

const STATUS_ARGS = ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all"];

/**
 * One hardened `git status --porcelain=v2 --branch -z` probe of a root that holds its own repository, parsed. A root
 * without its own `.git` (a directory inside a worktree, or a root whose `.git` was removed) is refused by Git, never
 * answered with the status of the repository around it.
 */
export async function gitState(root: string): Promise<GitState> {
	const forced = await repositoryGuard(root);
	const out = await runGit(root, STATUS_ARGS, { forced, ownRepository: true, timeoutMs: PROBE_TIMEOUT_MS });
	return gitStateOf(out.stdout);
}

/** HEAD and the dirty or untracked paths of a `git status --porcelain=v2 --branch -z` listing, sorted. */
export function gitStateOf(out: Buffer): GitState {
	const status = parseStatusV2(out);
	return { head: status.headers.get("branch.oid") ?? "", dirty: [...new Set(statusPaths(status))].sort() };
}

/**
 * A cheap signature of a Git root's working state from one status probe: HEAD, and the dirty paths with their
 * size and mtime. Equal signatures mean nothing changed since the last probe, so the root needs no rebuild; a
 * dirty-to-clean revert changes it (a path leaves the list), as do a further edit of an already dirty file (its
 * mtime moves) and a checkout (HEAD moves).
 */
export async function statusSignature(root: string): Promise<{ signature: string } & GitState> {
	const state = await gitState(root);
	const stamps = await Promise.all(
		state.dirty.map((path) =>
			lstat(join(root, path)).then(
				(s) => `${path}:${s.size}:${s.mtimeMs}`,
				() => `${path}:gone`,
			),
		),
	);
	return { signature: [state.head, ...stamps].join("\n"), ...state };
}

/**
 * Files changed between the merge base of `base` and HEAD, root-relative. `base` must look like a revision (no
 * leading dash, no spaces), so it can never be taken for an option.
 */
export async function changedSince(root: string, base: string): Promise<string[]> {
	if (!/^[A-Za-z0-9._/~^@{}][A-Za-z0-9._/~^@{}-]*$/.test(base))
		throw new Error(`not a revision: ${JSON.stringify(base)}`);
	const forced = await repositoryGuard(root);
	// Resolved first, so a base that names no commit is said as such rather than as the diff's own failure.
	const resolved = await gitText(root, ["rev-parse", "-q", "--verify", "--end-of-options", `${base}^{commit}`], {
		forced,
		okCodes: [0, 1],
		timeoutMs: PROBE_TIMEOUT_MS,
	});
	const oid = resolved.trim();
	if (oid === "") throw new Error(`unknown base ${JSON.stringify(base)} in ${root}: it names no commit`);
	// `--relative`: paths relative to the root, and only those under it, when the root is a directory inside a worktree.
	const out = await gitText(
		root,
		["diff", "--name-only", "--relative", "--no-ext-diff", "--no-textconv", "-z", `${oid}...HEAD`, "--"],
		{ forced, timeoutMs: PROBE_TIMEOUT_MS },
	);
	return out.split("\0").filter((p) => p.length > 0);
}

/**
 * Where `root` sits in its Git worktree: "" at its top, "dir/sub/" for a directory inside it. Git prints a status's
 * paths relative to the worktree's top, so this is what to take off them. A root in no worktree is a clear error.
 */
async function worktreePrefix(root: string, forced: ForcedConfig): Promise<string> {
	const out = await gitText(root, ["rev-parse", "--show-prefix"], { forced, timeoutMs: PROBE_TIMEOUT_MS }).catch(
		(error: Error) => {
			if (/not a git repository/i.test(error.message))
				throw new Error(`${root} is in no Git worktree, so it has no uncommitted files and no base to compare with`);
			throw error;
		},
	);
	return out.replace(/\n$/, "");
}

/**
 * The files a change covers, for an impact question: the uncommitted and untracked files, and/or those changed
 * since the merge base with `base`, root-relative (only those under the root when it is a directory inside a
 * worktree) and deduplicated. A partial clone is refused.
 */
export async function changedFiles(root: string, options: { uncommitted?: boolean; base?: string }): Promise<string[]> {
	if (options.uncommitted !== true && options.base === undefined) return [];
	const forced = await repositoryGuard(root);
	const prefix = await worktreePrefix(root, forced);
	const files = new Set<string>();
	if (options.uncommitted === true) {
		const status = gitStateOf(
			(await runGit(root, [...STATUS_ARGS, "--", "."], { forced, timeoutMs: PROBE_TIMEOUT_MS })).stdout,
		);
		for (const path of status.dirty) if (path.startsWith(prefix)) files.add(path.slice(prefix.length));
	}
	if (options.base !== undefined) for (const path of await changedSince(root, options.base)) files.add(path);
	return [...files];
}
