/**
 * A file as the walk finds it (its metadata, never its content), and the rule that says whether that metadata still
 * matches what the index recorded. Apart from the walk so the index's file state (`refresh/file-state.ts`) and the
 * walk share one rule for "unchanged" without importing each other.
 */
import type { LanguageId } from "../model/index.ts";

/** A supported source file found by the walk: not read yet. `path` is root-relative with `/` separators. */
export interface ScannedFile {
	path: string;
	language: LanguageId;
	size: number;
	mtimeMs: number;
	/** Status change time: an edit moves it even when it keeps the size and puts the mtime back (`cp -p`). */
	ctimeMs: number;
}

/**
 * Whether a file's walk metadata matches a recorded state that (size, mtime, ctime) can vouch for. The ctime, which
 * no tool can set, catches an edit that keeps the size and puts the mtime back (`cp -p`, `touch -r`), as Git does.
 */
export function unchanged(
	prev: { size: number; mtimeMs: number; ctimeMs: number; racy?: boolean },
	file: { size: number; mtimeMs: number; ctimeMs: number },
): boolean {
	return (
		prev.racy !== true && prev.size === file.size && prev.mtimeMs === file.mtimeMs && prev.ctimeMs === file.ctimeMs
	);
}

/** What a walk compares a file it finds with: the index's record of it (a `FileState` is one). */
export interface RecordedFile {
	size: number;
	mtimeMs: number;
	ctimeMs: number;
	language: LanguageId;
	racy?: boolean;
}

/**
 * Whether a file a walk found, of `language` with `info`'s size and mtime, is as `record` says: same language and
 * `unchanged`. A walk given the records of every file compares as it goes and lists nothing while all are as recorded
 * (`ScanOptions.recorded`).
 */
export function asRecorded(
	record: RecordedFile | undefined,
	language: LanguageId,
	info: { size: number; mtimeMs: number; ctimeMs: number },
): boolean {
	return record !== undefined && record.language === language && unchanged(record, info);
}
