/**
 * The imports a change adds and removes, as structural deltas rather than findings: every new or dropped import
 * edge of the resolved graphs, each with its witness line and whether it crosses a directory or a region. A new
 * import inside a region is not worth a question (findings stay quiet about it), but a reviewer reading the change
 * still wants to see every dependency it creates, and tools comparing reviews need each one by file and line.
 *
 * Lists are bounded (`MAX_IMPORT_CHANGES` each); the counts say how many there were. When a list is cut, imports
 * that cross a region are kept first, then those that cross a directory, then the rest.
 */
import { posix } from "node:path";
import { type ImportEdges, newImportEdges } from "./import-cycles.ts";
import type { ReviewPolicy } from "./policy.ts";
import { regionsOf } from "./regions.ts";

/** Import edges listed per direction, at most. */
export const MAX_IMPORT_CHANGES = 200;

/** One import edge the change added or removed. */
export interface ImportChange {
	/** The importing file (its after path for an added import, its before path for a removed one). */
	file: string;
	/** The import's line in `file` (the first import of `target` there). */
	line: number;
	/** The imported file, resolved within the root. */
	target: string;
	/** The two files are in different directories. */
	crossesDirectory: boolean;
	/** The two files are in different regions (see `regionOf` in `regions.ts`). */
	crossesRegion: boolean;
}

/** The import edges a change added and removed, bounded, with their full counts. */
export interface ImportChanges {
	added: ImportChange[];
	removed: ImportChange[];
	/** Every added edge, listed or not. */
	addedCount: number;
	removedCount: number;
	addedAcrossDirectories: number;
	addedAcrossRegions: number;
	/**
	 * Import cycles (strongly connected files, sorted) touching a changed file that the change made and broke. Absent
	 * in reports made before it existed.
	 */
	cycles?: { added: string[][]; broken: string[][] };
}

/**
 * The imports `after` has that `before` lacks and the reverse. `renames` maps a renamed file's before path to its
 * after path, so a rename neither adds nor removes an import.
 */
export function importChanges(
	before: ImportEdges,
	after: ImportEdges,
	renames: ReadonlyMap<string, string>,
	policy?: ReviewPolicy,
	limit = MAX_IMPORT_CHANGES,
): ImportChanges {
	const region = regionsOf(policy);
	const change = (file: string, line: number, target: string): ImportChange => ({
		file,
		line,
		target,
		crossesDirectory: posix.dirname(file) !== posix.dirname(target),
		crossesRegion: region(file) !== region(target),
	});
	const renamedBefore = renames.size === 0 ? before : renamedGraph(before, renames);
	const added = newImportEdges(renamedBefore, after).map((edge) => change(edge.from, edge.line, edge.to));
	// A removed import is reported under the before paths: it was in the file as it was.
	const beforePaths = new Map([...renames].map(([from, to]) => [to, from]));
	const beforePath = (path: string) => beforePaths.get(path) ?? path;
	const removed = newImportEdges(after, renamedBefore).map((edge) =>
		change(beforePath(edge.from), edge.line, beforePath(edge.to)),
	);
	return {
		added: bounded(added, limit),
		removed: bounded(removed, limit),
		addedCount: added.length,
		removedCount: removed.length,
		addedAcrossDirectories: added.filter((edge) => edge.crossesDirectory).length,
		addedAcrossRegions: added.filter((edge) => edge.crossesRegion).length,
	};
}

/** At most `limit` changes, region and directory crossings kept first, in file and line order. */
function bounded(changes: ImportChange[], limit: number): ImportChange[] {
	if (changes.length <= limit) return changes;
	const weight = (c: ImportChange) => (c.crossesRegion ? 2 : 0) + (c.crossesDirectory ? 1 : 0);
	const kept = new Set(
		changes
			.map((c, i) => [c, i] as const)
			.sort((a, b) => weight(b[0]) - weight(a[0]) || a[1] - b[1])
			.slice(0, Math.max(0, limit))
			.map(([c]) => c),
	);
	return changes.filter((c) => kept.has(c));
}

/** The graph with renamed files under their after paths. */
export function renamedGraph(edges: ImportEdges, renames: ReadonlyMap<string, string>): ImportEdges {
	const out = new Map<string, Map<string, number>>();
	for (const [from, targets] of edges) {
		const mapped = new Map<string, number>();
		for (const [to, line] of targets) mapped.set(renames.get(to) ?? to, line);
		out.set(renames.get(from) ?? from, mapped);
	}
	return out;
}
