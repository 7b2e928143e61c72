import { ObjectReader, type ObjectReaders } from "./cat-file.ts";
import { typeClass } from "./compose.ts";
import { guardedConfig } from "./repository.ts";
import type { GitWork } from "./run.ts";
import { type CoverageGapKind, DEFAULT_MAX_BYTES, type FileSide, type Snapshot } from "./snapshot-model.ts";
import { WorktreeReader } from "./worktree.ts";

/** One side to read, with the path it belongs to (worktree sides are read from it; errors name it). */
export interface ContentRequest {
	path: string;
	side: FileSide;
}

/** The text of a side, or why it is a coverage gap. */
export type SideContent =
	| { kind: "text"; text: string; oid: string; bytes: number }
	| { kind: "gap"; gap: CoverageGapKind; reason: string };

/** Options of one content read. */
export interface ReadOptions {
	/** Sides larger than this are "too-large" and not read (default 1 MiB, as for snapshots). */
	maxBytes?: number;
	/** Once this many bytes were read, the remaining sides are "over-budget" (default 64 MiB). */
	maxTotalBytes?: number;
	signal?: AbortSignal;
	work?: GitWork;
	/**
	 * Set by a caller whose snapshot of the same review was taken a moment ago: `takeSnapshot` refused a partial
	 * clone then, so the check is not repeated (one Git process less). Default: checked again before reading.
	 */
	partialCloneRefused?: boolean;
	/** The review's object readers (see `takeSnapshot`): objects are read through its reader of the root. */
	objects?: ObjectReaders;
}

// Git's own heuristic: a NUL byte in the first 8000 bytes makes a file binary.
const BINARY_PROBE = 8000;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads the text of `requests` (results in the same order): object sides from one `git cat-file` process (each
 * object once, only those within the limits), worktree sides from the files, checked against the blob id the
 * snapshot recorded (a file that changed since is an Error: take a new snapshot). Symlinks, gitlinks, special
 * files, sides too large or over the budget, binary bytes and invalid UTF-8 come back as gaps. A missing object
 * is an Error naming it and its path; a partial clone is refused before anything is read. Nothing runs for an
 * empty list.
 */
export async function readSides(
	snapshot: Pick<Snapshot, "root" | "objectFormat">,
	requests: readonly ContentRequest[],
	options: ReadOptions = {},
): Promise<SideContent[]> {
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	let budget = options.maxTotalBytes ?? 64 << 20;
	const results = new Array<SideContent | undefined>(requests.length);
	const wanted = new Map<string, number[]>();
	const worktree: number[] = [];
	requests.forEach(({ path, side }, i) => {
		const gap = metadataGap(side, maxBytes);
		if (gap !== undefined) results[i] = gap;
		else if (side.bytes > budget) results[i] = overBudget(path);
		else if (side.source === "worktree") {
			budget -= side.bytes;
			worktree.push(i);
		} else {
			const oid = side.oid as string;
			if (!wanted.has(oid)) budget -= side.bytes;
			wanted.set(oid, [...(wanted.get(oid) ?? []), i]);
		}
	});
	if (wanted.size > 0) {
		if (options.partialCloneRefused !== true) await guardedConfig(snapshot.root, options);
		const reader = options.objects?.reader(snapshot.root, options) ?? new ObjectReader(snapshot.root, options);
		try {
			await reader.contents([...wanted.keys()], (oid, object) => {
				const owners = wanted.get(oid) ?? [];
				const path = requests[owners[0] as number]?.path;
				if (object.missing)
					throw new Error(`object ${oid} (${path}) is missing from ${snapshot.root}; Contour does not fetch objects`);
				if (object.type !== "blob") throw new Error(`object ${oid} (${path}) is a ${object.type}, not a blob`);
				const content = decode(object.content, oid);
				for (const i of owners) results[i] = content;
			});
		} finally {
			if (options.objects === undefined) await reader.close();
		}
	}
	const reader = new WorktreeReader(snapshot.root, snapshot.objectFormat, options.work);
	for (const i of worktree) {
		options.signal?.throwIfAborted();
		const { path, side } = requests[i] as ContentRequest;
		const found = await reader.describe(path, maxBytes, true);
		if (found.kind !== "file" || found.oid === null || found.oid !== side.oid || found.content === undefined)
			throw new Error(`${path} in ${snapshot.root} changed since the snapshot was taken; take a new snapshot`);
		results[i] = decode(found.content, found.oid);
	}
	return results as SideContent[];
}

function metadataGap(side: FileSide, maxBytes: number): SideContent | undefined {
	const kind = typeClass(side.mode);
	if (kind === "gitlink") return { kind: "gap", gap: "submodule", reason: "a submodule (gitlink) is not reviewed" };
	if (kind === "symlink") return { kind: "gap", gap: "symlink", reason: "a symbolic link is never followed" };
	if (kind !== "file" || side.oid === null) {
		if (kind !== "file") return { kind: "gap", gap: "special-file", reason: "not a regular file" };
		return { kind: "gap", gap: "too-large", reason: `${side.bytes} bytes, too large to hash` };
	}
	if (side.bytes > maxBytes)
		return { kind: "gap", gap: "too-large", reason: `${side.bytes} bytes, over the ${maxBytes}-byte limit` };
	return undefined;
}

function overBudget(path: string): SideContent {
	return { kind: "gap", gap: "over-budget", reason: `${path}: the review's byte budget is spent` };
}

/** Text when the bytes hold no NUL in their first 8000 and are valid UTF-8 (a leading BOM is dropped). */
export function decode(bytes: Buffer, oid: string): SideContent {
	if (bytes.subarray(0, BINARY_PROBE).includes(0))
		return { kind: "gap", gap: "binary", reason: "binary content (a NUL byte)" };
	try {
		return { kind: "text", text: utf8.decode(bytes), oid, bytes: bytes.length };
	} catch {
		return { kind: "gap", gap: "invalid-utf8", reason: "not valid UTF-8" };
	}
}
