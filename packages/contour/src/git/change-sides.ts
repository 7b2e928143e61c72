/**
 * What a snapshot knows of a change's sides before reading any content: each object side's size, checked against the
 * repository (a missing object or one that is not a blob is an error, never fetched), and the coverage gap the change
 * has by its names, modes and sizes alone.
 */
import type { ObjectInfo, ObjectReader } from "./cat-file.ts";
import { typeClass } from "./compose.ts";
import type { Repository } from "./repository.ts";
import type { ChangedFile, CoverageGapKind, FileSide } from "./snapshot-model.ts";

/** Fills in the size of every object side from the reader; a missing object is an error. */
export async function withSizes(
	reader: ObjectReader,
	repo: Repository,
	changes: ChangedFile[],
	head: string | null,
	options: { checkHead?: boolean } = {},
): Promise<ChangedFile[]> {
	const owners = new Map<string, string>();
	const isObject = (side: FileSide | undefined): side is FileSide & { oid: string } =>
		side !== undefined && side.source !== "worktree" && side.oid !== null && typeClass(side.mode) !== "gitlink";
	for (const change of changes) {
		if (isObject(change.before)) owners.set(change.before.oid, change.oldPath ?? change.path);
		if (isObject(change.after)) owners.set(change.after.oid, change.path);
	}
	// HEAD's type rides along with the blobs (a change's diff against a HEAD that is no tree-ish fails anyway; with no
	// change there is nothing to look up, and nothing is).
	const checkHead = head !== null && (owners.size > 0 || options.checkHead === true);
	const names = checkHead ? [...owners.keys(), head] : [...owners.keys()];
	const answers = await reader.info(names);
	const info = new Map(names.map((name, i) => [name, answers[i] as ObjectInfo]));
	if (checkHead) {
		const commit = info.get(head);
		if (commit === undefined || commit.missing)
			throw new Error(`HEAD of ${repo.root} names ${head}, which is missing; Contour does not fetch objects`);
		if (commit.type !== "commit") throw new Error(`HEAD of ${repo.root} names a ${commit.type}, not a commit`);
	}
	const sized = (side: FileSide | undefined): FileSide | undefined => {
		if (!isObject(side)) return side;
		const found = info.get(side.oid);
		const path = owners.get(side.oid);
		if (found === undefined || found.missing)
			throw new Error(
				`object ${side.oid} (${path}) is missing from ${repo.root}; Contour does not fetch objects, so the repository must hold it`,
			);
		if (found.type !== "blob") throw new Error(`object ${side.oid} (${path}) is a ${found.type}, not a blob`);
		return { ...side, bytes: found.size };
	};
	return changes.map((change) => {
		const next: ChangedFile = { ...change };
		if (change.before) next.before = sized(change.before);
		if (change.after) next.after = sized(change.after);
		return next;
	});
}

/** The coverage gap a change has before any byte is read, if any. */
export function withGap(change: ChangedFile, invalidNames: ReadonlySet<string>, maxBytes: number): ChangedFile {
	const sides = [change.before, change.after].filter((side): side is FileSide => side !== undefined);
	const classes = sides.map((side) => typeClass(side.mode));
	let gap: CoverageGapKind | undefined;
	if (invalidNames.has(change.path) || (change.oldPath !== undefined && invalidNames.has(change.oldPath)))
		gap = "invalid-name";
	else if (classes.includes("gitlink")) gap = "submodule";
	else if (classes.includes("symlink")) gap = "symlink";
	else if (classes.includes("special")) gap = "special-file";
	else if (sides.some((side) => side.oid === null || side.bytes > maxBytes)) gap = "too-large";
	return gap === undefined ? change : { ...change, gap };
}
