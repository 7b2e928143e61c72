import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { type ForcedConfig, repositoryGuard, runGit } from "./git-hardening.ts";

/**
 * Fovea's read-only Git questions about a root: its status, and which files a change covers. Every call goes
 * through the hardened runner with the repository's guard (see git-hardening.ts), so nothing of the repository runs.
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
	return parseStatusV2(await runGit(root, STATUS_ARGS, { forced, ownRepository: true }));
}

/** Parses porcelain v2 `-z` output: headers, ordinary, renamed (followed by the original path), unmerged, untracked. */
export function parseStatusV2(out: string): GitState {
	const records = out.split("\0");
	let head = "";
	const dirty = new Set<string>();
	for (let i = 0; i < records.length; i++) {
		const record = records[i] as string;
		if (record.startsWith("# branch.oid ")) head = record.slice("# branch.oid ".length);
		else if (record.startsWith("1 ")) dirty.add(field(record, 8));
		else if (record.startsWith("2 ")) {
			dirty.add(field(record, 9));
			const original = records[++i];
			if (original !== undefined && original !== "") dirty.add(original);
		} else if (record.startsWith("u ")) dirty.add(field(record, 10));
		else if (record.startsWith("? ")) dirty.add(record.slice(2));
	}
	return { head, dirty: [...dirty].sort() };
}

/** The rest of a space-separated record after `n` fields (paths may contain spaces). */
function field(record: string, n: number): string {
	let at = 0;
	for (let k = 0; k < n; k++) at = record.indexOf(" ", at) + 1;
	return record.slice(at);
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
	const resolved = await runGit(root, ["rev-parse", "-q", "--verify", "--end-of-options", `${base}^{commit}`], {
		forced,
		okCodes: [1],
	});
	const oid = resolved.trim();
	if (oid === "") throw new Error(`unknown base ${JSON.stringify(base)} in ${root}: it names no commit`);
	// `--relative`: paths relative to the root, and only those under it, when the root is a directory inside a worktree.
	const out = await runGit(
		root,
		["diff", "--name-only", "--relative", "--no-ext-diff", "--no-textconv", "-z", `${oid}...HEAD`, "--"],
		{ forced },
	);
	return out.split("\0").filter((p) => p.length > 0);
}

/**
 * Where `root` sits in its Git worktree: "" at its top, "dir/sub/" for a directory inside it. Git prints a status's
 * paths relative to the worktree's top, so this is what to take off them. A root in no worktree is a clear error.
 */
async function worktreePrefix(root: string, forced: ForcedConfig): Promise<string> {
	const out = await runGit(root, ["rev-parse", "--show-prefix"], { forced }).catch((error: Error) => {
		if (/not a git repository/i.test(error.message))
			throw new Error(`${root} is in no Git worktree, so it has no uncommitted files and no base to compare with`);
		throw error;
	});
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
		const status = parseStatusV2(await runGit(root, [...STATUS_ARGS, "--", "."], { forced }));
		for (const path of status.dirty) if (path.startsWith(prefix)) files.add(path.slice(prefix.length));
	}
	if (options.base !== undefined) for (const path of await changedSince(root, options.base)) files.add(path);
	return [...files];
}
