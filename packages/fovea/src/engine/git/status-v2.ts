import { nulRecords } from "./records.ts";

/**
 * The one parser of `git status --porcelain=v2 -z`, bytes in and records out, for every package: Fovea reads the
 * dirty paths and HEAD, Contour the staged and unstaged sides of each file, Crew the paths a worktree would lose.
 * It throws on anything it does not recognize: a misparse would name the wrong file.
 */

/** One entry of the listing. Paths stay bytes: Git writes them unquoted with `-z`, in whatever encoding they have. */
export interface StatusEntry {
	/** `1` ordinary change, `2` rename or copy, `u` unmerged, `?` untracked, `!` ignored. */
	kind: "1" | "2" | "u" | "?" | "!";
	/** The staged (X) and unstaged (Y) status letters; `??` and `!!` for untracked and ignored. */
	xy: string;
	/** The submodule state (`N...`, or `S` and three flags); empty for untracked and ignored. */
	submodule: string;
	/** File modes: HEAD, index, worktree (unmerged: stage 1, 2, 3 and worktree); empty for untracked and ignored. */
	modes: string[];
	/** Object ids: HEAD and index (unmerged: stage 1, 2, 3); empty for untracked and ignored. */
	oids: string[];
	/** A rename's or copy's letter and similarity (`R85`). */
	score?: string;
	path: Buffer;
	/** The source path of a rename or copy. */
	origPath?: Buffer;
}

/** Headers (`# branch.oid abc…` as `branch.oid` → `abc…`) and entries, in Git's order. */
export interface StatusV2 {
	headers: Map<string, string>;
	entries: StatusEntry[];
}

const MODE = /^[0-7]{6}$/;
const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const XY = /^[.MTADRCU]{2}$/;
const SUBMODULE = /^(N\.\.\.|S[.C][.M][.U])$/;
/** Space-separated fields before the path, and how many modes and object ids they hold. */
const LAYOUT = {
	"1": { fields: 8, modes: 3, oids: 2 },
	"2": { fields: 9, modes: 3, oids: 2 },
	u: { fields: 10, modes: 4, oids: 3 },
};

/** Parses `git status --porcelain=v2 -z` output (with or without `--branch` headers). */
export function parseStatusV2(out: Buffer): StatusV2 {
	const status: StatusV2 = { headers: new Map(), entries: [] };
	const records = nulRecords(out);
	for (let i = 0; i < records.length; ) {
		const record = records[i++] as Buffer;
		const kind = String.fromCharCode(record[0] ?? 0);
		if (record[1] !== 0x20) throw unexpected(record);
		if (kind === "#") {
			const text = record.subarray(2).toString("utf8");
			const space = text.indexOf(" ");
			status.headers.set(space === -1 ? text : text.slice(0, space), space === -1 ? "" : text.slice(space + 1));
			continue;
		}
		if (kind === "?" || kind === "!") {
			if (record.length < 3) throw unexpected(record);
			status.entries.push({ kind, xy: `${kind}${kind}`, submodule: "", modes: [], oids: [], path: record.subarray(2) });
			continue;
		}
		if (kind !== "1" && kind !== "2" && kind !== "u") throw unexpected(record);
		const layout = LAYOUT[kind];
		const { fields, path } = splitRecord(record, layout.fields);
		const [, xy = "", submodule = "", ...rest] = fields;
		const modes = rest.slice(0, layout.modes);
		const oids = rest.slice(layout.modes, layout.modes + layout.oids);
		if (!XY.test(xy) || !SUBMODULE.test(submodule)) throw unexpected(record);
		if (!modes.every((mode) => MODE.test(mode)) || !oids.every((oid) => OID.test(oid))) throw unexpected(record);
		const entry: StatusEntry = { kind, xy, submodule, modes, oids, path };
		if (kind === "2") {
			const score = rest[layout.modes + layout.oids] ?? "";
			if (!/^[RC]\d{1,3}$/.test(score)) throw unexpected(record);
			const original = records[i++];
			if (original === undefined) throw new Error("truncated git status output: a rename lacks its source path");
			entry.score = score;
			entry.origPath = original;
		}
		status.entries.push(entry);
	}
	return status;
}

/** The first `count` space-separated fields of a record (ASCII) and the path after them (raw bytes). */
function splitRecord(record: Buffer, count: number): { fields: string[]; path: Buffer } {
	let at = 0;
	for (let field = 0; field < count; field++) {
		at = record.indexOf(0x20, at);
		if (at === -1) throw unexpected(record);
		at++;
	}
	if (at >= record.length) throw unexpected(record);
	return {
		fields: record
			.subarray(0, at - 1)
			.toString("latin1")
			.split(" "),
		path: record.subarray(at),
	};
}

function unexpected(record: Buffer): Error {
	return new Error(`unexpected git status record: ${JSON.stringify(record.toString("latin1").slice(0, 120))}`);
}

/** Every path an entry names (a rename's source too), as UTF-8 text, for callers that only compare names. */
export function statusPaths(status: StatusV2, options: { ignored?: boolean } = {}): string[] {
	const paths: string[] = [];
	for (const entry of status.entries) {
		if (entry.kind === "!" && options.ignored !== true) continue;
		paths.push(entry.path.toString("utf8"));
		if (entry.origPath !== undefined) paths.push(entry.origPath.toString("utf8"));
	}
	return paths;
}
