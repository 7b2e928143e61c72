/**
 * The snapshot a refresh publishes, and how it is derived from the state the refresh built: which paths' facts
 * changed, the published facts and gaps, and the generation. Pure, so the rule that the generation bumps only when
 * some file's facts changed, and that a path refresh costs work proportional to its paths, is checked in one place.
 */
import type { CoverageGap, FileFacts } from "../model/index.ts";
import { isPartial, type PartialFile, partialEntries } from "../model/index.ts";
import { isSummary } from "./fact-budget.ts";
import { type FileState, PENDING } from "./file-state.ts";
import { type Change, withChanges } from "./layered-map.ts";

/** How far a first index had come when a snapshot was taken from it: files with a known state, of those listed. */
export interface IndexingProgress {
	indexed: number;
	total: number;
}

/** The facts of one root at one refresh. */
export interface IndexSnapshot {
	root: string;
	files: ReadonlyMap<string, FileFacts>;
	/** Files seen but not mapped, sorted by path. */
	gaps: CoverageGap[];
	/** Files mapped best effort (parse errors, bytes that are not UTF-8), sorted by path. */
	partial: PartialFile[];
	truncated: boolean;
	/**
	 * Files kept as summaries to fit the memory budget (`fact-budget.ts`): in `files`, with their symbols and imports
	 * but no call sites or content terms.
	 */
	summarized: number;
	/**
	 * Set only on a snapshot taken while the root's first index runs (`CodeIndex.indexedSoFar`): how far it is. Such a
	 * snapshot holds the files indexed so far, and an answer from it says it is partial.
	 */
	indexing?: IndexingProgress;
	/** Bumps only when some file's facts changed. */
	generation: number;
	/** Paths whose facts changed in the refresh that produced this snapshot, including removed ones; sorted. */
	changed: string[];
	/**
	 * Paths whose facts changed from the previous generation to this one: `changed` of the refresh that made this
	 * generation, kept while later refreshes change nothing, so a graph one generation behind can catch up.
	 */
	generationChanged: string[];
}

/** What a refresh hands over to be published. */
export interface SnapshotInput {
	root: string;
	/**
	 * The committed state, and the one replacing it: the whole new state for a walk, only the `touched` paths'
	 * states for a path refresh (a touched path missing from it is gone).
	 */
	previous: ReadonlyMap<string, FileState>;
	next: ReadonlyMap<string, FileState>;
	/** The snapshot published last, and the content gaps it holds. */
	snapshot: IndexSnapshot | undefined;
	contentGaps: ReadonlyMap<string, CoverageGap>;
	/** Gaps found by the walk (unsupported, too large, minified by name). */
	scanGaps: ReadonlyMap<string, CoverageGap>;
	truncated: boolean;
	/**
	 * The only paths that may differ from `previous` (a path refresh, which needs `snapshot`), so the work is
	 * proportional to them; `undefined` compares everything (a walk).
	 */
	touched: ReadonlySet<string> | undefined;
}

function byPath(a: { path: string }, b: { path: string }): number {
	return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * The snapshot of `input.next`, the content gaps it publishes, and how many paths' states differ from `previous`
 * (`dirty`, the manifest's unsaved changes). Throws when a path was left unexamined: a bug, not a file.
 */
export function nextSnapshot(input: SnapshotInput): {
	snapshot: IndexSnapshot;
	contentGaps: Map<string, CoverageGap>;
	dirty: number;
} {
	const { previous, next, touched, snapshot: last } = input;
	const changed: string[] = [];
	let dirty = 0;
	let gapsChanged = false;
	const compare = (path: string): void => {
		const state = next.get(path);
		if (state === PENDING) throw new Error(`Fovea: ${path} was left unexamined`); // a bug, not a file
		const before = previous.get(path);
		if (state === before) return;
		dirty++;
		if (state?.facts !== before?.facts) changed.push(path);
		if (state?.gap !== before?.gap) gapsChanged = true;
	};
	if (touched === undefined) {
		for (const path of next.keys()) compare(path);
		for (const path of previous.keys()) if (!next.has(path)) compare(path);
	} else {
		for (const path of touched) compare(path);
	}
	changed.sort();
	if (touched !== undefined && last === undefined) throw new Error("Fovea: a path refresh needs a snapshot to patch");
	// A path refresh that changed no facts and no gap (a file touched but not changed, re-read while racily clean, or
	// checked as it was) publishes the same facts and gaps: the snapshot shares them (published maps are never
	// changed in place) instead of copying them, which at 10,000 files was megabytes of garbage per edit.
	// A walk that found everything as it was shares them too (at 10,000 files a new file map and its growth were
	// ~2 MB per walk).
	const same = changed.length === 0 && !gapsChanged && last?.truncated === input.truncated;
	if (last !== undefined && same && sameScanGaps(last, input, touched)) {
		const snapshot = last.changed.length === 0 ? last : { ...last, changed };
		return { snapshot, contentGaps: new Map(input.contentGaps), dirty };
	}

	let files: ReadonlyMap<string, FileFacts>;
	let contentGaps: Map<string, CoverageGap>;
	let partial: PartialFile[];
	let summarized = 0;
	if (touched === undefined || last === undefined) {
		const all = new Map<string, FileFacts>();
		contentGaps = new Map();
		partial = [];
		for (const [path, state] of next) {
			if (state.facts !== undefined) {
				all.set(path, state.facts);
				if (isSummary(state.facts)) summarized++;
				if (isPartial(state.facts)) partial.push(...partialEntries(path, state.facts));
			} else if (state.gap !== undefined) contentGaps.set(path, { path, reason: state.gap });
		}
		files = all;
		partial.sort(byPath);
	} else {
		// The last snapshot's files with the touched paths' changes laid over them, not a copy (`layered-map.ts`).
		const changes: Change<string, FileFacts>[] = [];
		contentGaps = new Map(input.contentGaps);
		summarized = last.summarized;
		for (const path of touched) {
			const state = next.get(path);
			const before = last.files.get(path);
			if (before !== undefined && isSummary(before)) summarized--;
			if (state?.facts !== undefined && isSummary(state.facts)) summarized++;
			changes.push([path, state?.facts]);
			if (state?.gap !== undefined) contentGaps.set(path, { path, reason: state.gap });
			else contentGaps.delete(path);
		}
		files = withChanges(last.files, changes);
		// Best-effort files are few: the last list without the touched paths, and theirs as they are now.
		partial = last.partial.filter((entry) => !touched.has(entry.path));
		for (const [path, facts] of changes)
			if (facts !== undefined && isPartial(facts)) partial.push(...partialEntries(path, facts));
		partial.sort(byPath);
	}
	const gaps: CoverageGap[] = [...input.scanGaps.values(), ...contentGaps.values()].sort(byPath);

	const generation = (last?.generation ?? 0) + (changed.length > 0 || last === undefined ? 1 : 0);
	const generationChanged = changed.length > 0 || last === undefined ? changed : last.generationChanged;
	const snapshot: IndexSnapshot = {
		root: input.root,
		files,
		gaps,
		partial,
		truncated: input.truncated,
		summarized,
		generation,
		changed,
		generationChanged,
	};
	return { snapshot, contentGaps, dirty };
}

/**
 * Whether the published gaps of `touched` paths are the walk-level gaps `scanGaps` gives them; for a walk
 * (`touched` undefined), whether the published gaps are exactly the scan gaps and the content gaps.
 */
function sameScanGaps(
	last: IndexSnapshot,
	{ scanGaps, contentGaps }: SnapshotInput,
	touched: ReadonlySet<string> | undefined,
): boolean {
	if (touched === undefined) {
		if (last.gaps.length !== scanGaps.size + contentGaps.size) return false;
		return last.gaps.every((gap) => (scanGaps.get(gap.path) ?? contentGaps.get(gap.path))?.reason === gap.reason);
	}
	if (touched.size === 0) return true;
	const published = new Map(last.gaps.filter((gap) => touched.has(gap.path)).map((gap) => [gap.path, gap.reason]));
	for (const path of touched) if (published.get(path) !== scanGaps.get(path)?.reason) return false;
	return true;
}
