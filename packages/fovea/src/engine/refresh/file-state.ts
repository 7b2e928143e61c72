/**
 * What the index remembers about one file whose content it examined: the metadata that vouches for it, its facts or
 * the gap found in its content, and whether that metadata can be trusted next time (racy). Shared by the index, its
 * examine step and the manifest it persists, so the rules for "unchanged" and "racy" are stated once.
 */
import type { ManifestEntry } from "../cache/index.ts";
import type { CoverageGap, FileFacts, LanguageId } from "../model/index.ts";
import type { ScannedFile } from "../scan/index.ts";

/** The last known state of one file whose content was examined. */
export interface FileState {
	size: number;
	mtimeMs: number;
	ctimeMs: number;
	racy: boolean;
	language: LanguageId;
	/** Content hash, for files that have facts. */
	hash?: string;
	/** Absent only for a state just loaded from the manifest, before its facts are fetched. */
	facts?: FileFacts;
	/** A gap found by looking at the content (binary, generated, minified, unreadable, parse-error). */
	gap?: CoverageGap["reason"];
}

/** A placeholder in a state being built; never committed (every one is replaced or deleted). */
export const PENDING: FileState = { size: -1, mtimeMs: -1, ctimeMs: -1, racy: true, language: "typescript" };

/**
 * A file's state as just read: size and times from the open file, racy when modified less than `racyWindowMs`
 * before it was read.
 */
export function stateAsRead(
	file: ScannedFile,
	outcome: { size: number; mtimeMs: number; ctimeMs: number; readAt: number },
	rest: { hash?: string; facts?: FileFacts; gap?: CoverageGap["reason"] },
	racyWindowMs: number,
): FileState {
	// An unreadable file has no trustworthy metadata: keep the walk's, and look again next time.
	const size = rest.gap === "unreadable" ? file.size : outcome.size;
	const mtimeMs = rest.gap === "unreadable" ? file.mtimeMs : outcome.mtimeMs;
	const ctimeMs = rest.gap === "unreadable" ? file.ctimeMs : outcome.ctimeMs;
	// By the mtime alone: a same-size edit in the clock tick of the read would keep it. (The ctime could be kept as
	// well only by two edits that both put the mtime back within one tick.)
	const racy = rest.gap === "unreadable" || outcome.readAt - mtimeMs < racyWindowMs;
	const state: FileState = { size, mtimeMs, ctimeMs, racy, language: file.language, ...rest };
	if (state.hash !== undefined) state.hash = sameHash(state.hash, state.facts);
	return state;
}

/**
 * The state's content hash as the facts' own string when the two are equal: read from the file and from the facts
 * (a cache record, a parsing thread's message), the same 64 characters would otherwise be held twice per file.
 */
export function sameHash(hash: string | undefined, facts: FileFacts | undefined): string | undefined {
	return facts !== undefined && facts.hash === hash ? facts.hash : hash;
}

/**
 * The manifest entries of `states`, made one at a time as they are read (the manifest is written as they come, not
 * held as a second map of every file); a state with neither facts nor a gap has nothing to vouch for and is left out.
 */
export function* manifestOf(states: ReadonlyMap<string, FileState>): Generator<[string, ManifestEntry]> {
	for (const [path, s] of states) {
		const entry: ManifestEntry = { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs };
		if (s.hash !== undefined && s.facts !== undefined) entry.hash = s.hash;
		else if (s.gap !== undefined) entry.gap = s.gap;
		else continue;
		if (s.racy) entry.racy = true;
		yield [path, entry];
	}
}
