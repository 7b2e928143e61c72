/**
 * One `git status --porcelain=v2 -z` run read as the three listings a snapshot needs: HEAD→index (as `diff-index
 * --cached -M --raw` gives it), index→worktree (as `diff-files --raw` does) and the untracked paths (as `ls-files
 * --others`), plus the unmerged paths. One Git process instead of three: each spawn costs the review ~10 ms of its
 * main thread on a small machine, and Git does the same comparisons either way.
 *
 * Status compares content where `diff-files` compares stat data, so a file only touched is no dirty entry here; the
 * snapshot's composition treats such an entry as unchanged anyway.
 */
import { checkedPath, decodePath, type RawEntry, ZERO_OID } from "./raw-diff.ts";
import { nulRecords } from "./run.ts";

/** The arguments of the status run this module reads (global hardening comes from `git`). */
export const STATUS_ARGS = [
	"status",
	"--porcelain=v2",
	"-z",
	"--untracked-files=all",
	// Explicit, so the repository's own `status.renames` or `diff.renames` cannot switch rename detection off.
	"--find-renames",
	"--ignore-submodules=dirty",
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
}

const MODE = /^[0-7]{6}$/;
const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const XY = /^[.MTADRCU]{2}$/;
/** Space-separated fields before the path: ordinary, renamed (one more: the score) and unmerged records. */
const FIELDS = { "1": 8, "2": 9, u: 10 } as const;

/**
 * Parses `git status --porcelain=v2 -z` output without branch or stash headers. Throws on anything it does not
 * recognize or on a path that could escape the root: a misparse here would review the wrong file.
 */
export function parseStatusV2(out: Buffer): StatusListing {
	const listing: StatusListing = { staged: [], dirty: [], untracked: [], conflicts: [] };
	const conflicts = new Set<string>();
	const records = nulRecords(out);
	for (let i = 0; i < records.length; ) {
		const record = records[i++] as Buffer;
		const kind = String.fromCharCode(record[0] ?? 0);
		if (kind === "?" && record[1] === 0x20) {
			const directory = record.length > 3 && record[record.length - 1] === 0x2f;
			const decoded = decodePath(record.subarray(2, directory ? record.length - 1 : record.length));
			listing.untracked.push({ path: checkedPath(decoded.path), valid: decoded.valid, directory });
			continue;
		}
		if (kind === "!" || kind === "#") continue; // ignored files and headers, when configured to show
		if (kind !== "1" && kind !== "2" && kind !== "u") throw unexpected(record);
		const { fields, path } = splitRecord(record, FIELDS[kind]);
		const [, xy, , ...rest] = fields as [string, string, string, ...string[]];
		if (!XY.test(xy)) throw unexpected(record);
		if (kind === "u") {
			conflicts.add(checkedPath(path.path));
			continue;
		}
		const [headMode, indexMode, worktreeMode, headOid, indexOid, score] = rest as string[];
		if (![headMode, indexMode, worktreeMode].every((mode) => MODE.test(mode ?? ""))) throw unexpected(record);
		if (![headOid, indexOid].every((oid) => OID.test(oid ?? ""))) throw unexpected(record);
		let oldPath: { path: string; valid: boolean } | undefined;
		if (kind === "2") {
			const original = records[i++];
			if (original === undefined) throw new Error("truncated git status output: a rename lacks its source path");
			oldPath = decodePath(original);
		}
		const x = xy[0] as string;
		const y = xy[1] as string;
		const target = checkedPath(path.path);
		if (x !== ".") {
			const entry: RawEntry = {
				status: x,
				srcMode: headMode as string,
				dstMode: indexMode as string,
				srcOid: headOid as string,
				dstOid: indexOid as string,
				path: target,
				validName: path.valid,
			};
			if (oldPath !== undefined) {
				const scored = /^[RC](\d{1,3})$/.exec(score ?? "");
				if (scored === null) throw unexpected(record);
				entry.oldPath = checkedPath(oldPath.path);
				entry.validName &&= oldPath.valid;
				entry.score = Number(scored[1]);
			}
			listing.staged.push(entry);
		}
		if (y !== ".") {
			listing.dirty.push({
				status: y,
				srcMode: indexMode as string,
				dstMode: worktreeMode as string,
				srcOid: indexOid as string,
				dstOid: ZERO_OID.padEnd((indexOid as string).length, "0"),
				path: target,
				validName: path.valid,
			});
		}
	}
	listing.conflicts = [...conflicts].sort();
	return listing;
}

/** The first `count` space-separated fields of a record (ASCII) and the path after them (raw bytes). */
function splitRecord(record: Buffer, count: number): { fields: string[]; path: { path: string; valid: boolean } } {
	let at = 0;
	for (let field = 0; field < count; field++) {
		at = record.indexOf(0x20, at);
		if (at === -1) throw unexpected(record);
		at++;
	}
	return {
		fields: record
			.subarray(0, at - 1)
			.toString("latin1")
			.split(" "),
		path: decodePath(record.subarray(at)),
	};
}

function unexpected(record: Buffer): Error {
	return new Error(`unexpected git status record: ${JSON.stringify(record.toString("latin1").slice(0, 120))}`);
}
