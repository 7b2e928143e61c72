import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { repositoryGuard, runGit } from "./git-hardening.ts";

/**
 * Fovea's read-only Git questions about a root: its status, and which files a change covers. Every call goes
 * through the hardened runner with the repository's guard (see git-hardening.ts), so nothing of the repository runs.
 */

/** What one `git status` probe says about a root: the HEAD commit and the dirty or untracked paths. */
export interface GitState {
	head: string;
	dirty: string[];
}

/** One hardened `git status --porcelain=v2 --branch -z` probe, parsed. */
export async function gitState(root: string): Promise<GitState> {
	const forced = await repositoryGuard(root);
	const out = await runGit(root, ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all"], { forced });
	return parseStatusV2(out);
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
	const out = await runGit(
		root,
		["diff", "--name-only", "--no-ext-diff", "--no-textconv", "-z", `${oid}...HEAD`, "--"],
		{ forced },
	);
	return out.split("\0").filter((p) => p.length > 0);
}

/**
 * The files a change covers, for an impact question: the uncommitted and untracked files, and/or those changed
 * since the merge base with `base`, root-relative and deduplicated. A partial clone is refused.
 */
export async function changedFiles(root: string, options: { uncommitted?: boolean; base?: string }): Promise<string[]> {
	if (options.uncommitted !== true && options.base === undefined) return [];
	await repositoryGuard(root);
	const files = new Set<string>();
	if (options.uncommitted === true) for (const path of (await gitState(root)).dirty) files.add(path);
	if (options.base !== undefined) for (const path of await changedSince(root, options.base)) files.add(path);
	return [...files];
}
