/**
 * One `git status --porcelain=v2 -z` run read as the three listings a snapshot needs: HEAD→index (as `diff-index
 * --cached -M --raw` gives it), index→worktree (as `diff-files --raw` does) and the untracked paths (as `ls-files
 * --others`), plus the unmerged paths. One Git process instead of three: each spawn costs the review ~10 ms of its
 * main thread on a small machine, and Git does the same comparisons either way.
 *
 * Status compares content where `diff-files` compares stat data, so a file only touched is no dirty entry here; the
 * snapshot's composition treats such an entry as unchanged anyway.
 */

import { parseStatusV2 as parseStatus } from "pi-fovea/git";
import { checkedPath, decodePath, type RawEntry, ZERO_OID } from "./raw-diff.ts";

/** The arguments of the status run this module reads (global hardening comes from `git`). */
export const STATUS_ARGS = [
	"status",
	"--porcelain=v2",
	"-z",
	"--untracked-files=all",
	// Explicit, so the repository's own `status.renames` or `diff.renames` cannot switch rename detection off.
	"--find-renames",
	"--ignore-submodules=dirty",
	// The commit status compared the index with (`# branch.oid`), so a snapshot can tell its listing belongs to the
	// HEAD it read; no ahead/behind count, which would walk the history.
	"--branch",
	"--no-ahead-behind",
];

/** An untracked path; `directory` for one Git did not enter (an embedded repository). */
export interface UntrackedPath {
	path: string;
	valid: boolean;
	directory: boolean;
}

/** What one status run says. */
export interface StatusListing {
	/** HEAD→index, renames paired (status letters A, D, M, T, R, C). */
	staged: RawEntry[];
	/** Index→worktree, the worktree side's object id all zeros (status letters A for intent-to-add, D, M, T). */
	dirty: RawEntry[];
	untracked: UntrackedPath[];
	/** Paths with unmerged index entries, sorted. */
	conflicts: string[];
	/** The commit HEAD named for this run, null on an unborn branch; absent when the run did not say. */
	head?: string | null;
}

/**
 * The three listings of a `git status --porcelain=v2 -z` run and the HEAD it compared (its `branch.oid` header), read through the
 * shared parser of pi-fovea/git. Throws on a record it does not recognize or on a path that could escape the root:
 * a misparse here would review the wrong file.
 */
export function parseStatusV2(out: Buffer): StatusListing {
	const listing: StatusListing = { staged: [], dirty: [], untracked: [], conflicts: [] };
	const conflicts = new Set<string>();
	const status = parseStatus(out);
	const oid = status.headers.get("branch.oid");
	if (oid !== undefined) listing.head = oid === "(initial)" ? null : oid;
	for (const record of status.entries) {
		if (record.kind === "!") continue; // ignored files, when configured to show
		if (record.kind === "?") {
			const raw = record.path;
			const directory = raw.length > 1 && raw[raw.length - 1] === 0x2f;
			const decoded = decodePath(directory ? raw.subarray(0, raw.length - 1) : raw);
			listing.untracked.push({ path: checkedPath(decoded.path), valid: decoded.valid, directory });
			continue;
		}
		const path = decodePath(record.path);
		if (record.kind === "u") {
			conflicts.add(checkedPath(path.path));
			continue;
		}
		const [headMode, indexMode, worktreeMode] = record.modes as [string, string, string];
		const [headOid, indexOid] = record.oids as [string, string];
		const x = record.xy[0] as string;
		const y = record.xy[1] as string;
		const target = checkedPath(path.path);
		if (x !== ".") {
			const entry: RawEntry = {
				status: x,
				srcMode: headMode,
				dstMode: indexMode,
				srcOid: headOid,
				dstOid: indexOid,
				path: target,
				validName: path.valid,
			};
			if (record.origPath !== undefined) {
				const oldPath = decodePath(record.origPath);
				entry.oldPath = checkedPath(oldPath.path);
				entry.validName &&= oldPath.valid;
				entry.score = Number((record.score ?? "").slice(1));
			}
			listing.staged.push(entry);
		}
		if (y !== ".") {
			listing.dirty.push({
				status: y,
				srcMode: indexMode,
				dstMode: worktreeMode,
				srcOid: indexOid,
				dstOid: ZERO_OID.padEnd(indexOid.length, "0"),
				path: target,
				validName: path.valid,
			});
		}
	}
	listing.conflicts = [...conflicts].sort();
	return listing;
}
