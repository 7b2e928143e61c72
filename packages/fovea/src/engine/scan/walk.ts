/**
 * The tree walk that decides which files of one project root the indexer looks at. It reads directories, ignore
 * files and file metadata only (never source content), follows no symlink, skips version-control, dependency and
 * build-output directories and anything `.gitignore` excludes, and stops at fixed bounds. Files it cannot map become
 * visible {@link CoverageGap}s; files that are not code at all (images, JSON, Markdown, lock files) are left out.
 * By default it lists every file of the root, however many: what bounds an index is the memory its facts take
 * (`refresh/fact-budget.ts`), never a count of files. A caller may still set count bounds; past them it says so.
 */
import { readdir, stat } from "node:fs/promises";
import { join, sep } from "node:path";
import type { CoverageGap, LanguageId } from "../model/index.ts";
import { type Pace, syncWhileFast, TimeSlice } from "../pace/index.ts";
import { classifyName, classifyStat, symlinkGap } from "./classification.ts";
import { asRecorded, type RecordedFile, type ScannedFile } from "./file-metadata.ts";
import { type IgnoreLevel, isIgnored, readIgnoreRules, rootIgnoreLevels } from "./ignore-rules.ts";
import { SETTINGS_FILE_NAMES } from "./settings-files.ts";
import { skippedDirGap } from "./skip-dirs.ts";
import { lstatOrUndefined, lstatSyncOrUndefined, readdirOrUndefined } from "./walk-calls.ts";

export interface ScanOptions {
	/** Supported files (and gaps) listed at most; more sets `truncated`. Default: no bound. */
	maxFiles?: number;
	/** A supported file larger than this is a `too-large` gap and is never read. Default 1 MiB. */
	maxFileBytes?: number;
	/** Directory levels below the root walked at most; deeper trees set `truncated`. Default 40. */
	maxDepth?: number;
	/**
	 * Directory entries examined at most, whatever they are; more sets `truncated`. Default 10 × `maxFiles`, no bound
	 * when `maxFiles` has none.
	 */
	maxEntries?: number;
	/**
	 * What the files were at the last look, by path: the walk compares each file it finds with its record instead of
	 * listing it, and answers `unchanged` when every file is as recorded (`asRecorded`) and none is missing. At the
	 * first difference it walks again and lists everything, so a changed root costs up to one walk more. No
	 * unchanged file is kept: at 10,000 files each walk's list (~1 MB with its paths) outlived V8's young generation
	 * and piled up in the old one until the next full collection.
	 */
	recorded?: ReadonlyMap<string, RecordedFile>;
	signal?: AbortSignal;
}

/** Work done by one walk, for tests and diagnostics. */
export interface ScanStats {
	dirsRead: number;
	entriesSeen: number;
	filesStatted: number;
	ignoreFilesRead: number;
	symlinksSkipped: number;
	/** Subdirectories skipped because they are repositories of their own. */
	nestedRepositories: number;
}

export interface ScanResult {
	/** The files found, sorted by path; empty when `unchanged`. */
	files: ScannedFile[];
	/** Every file is as `ScanOptions.recorded` says, and no other file was found: `files` is not listed. */
	unchanged: boolean;
	/** Root-relative directories the walk listed (`""` is the root), nested repositories excluded. */
	directories: string[];
	/**
	 * The settings files (`settings-files.ts`: `tsconfig.json`, `package.json`, `go.mod`, `Cargo.toml`…) in listed
	 * directories, sorted: they decide how imports resolve. Given when `unchanged` too.
	 */
	settingsFiles: string[];
	gaps: CoverageGap[];
	/** Some bound (files, gaps, entries or depth) cut the walk short: the lists are incomplete. */
	truncated: boolean;
	stats: ScanStats;
}

/** What a name's bytes that are not UTF-8 read as: such a path cannot be opened by the name Node gives it. */
const NOT_UTF8 = "\uFFFD";

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
export const DEFAULT_MAX_DEPTH = 40;
const STAT_CONCURRENCY = 64;

/** Zeroed work counters. */
export function newStats(): ScanStats {
	return {
		dirsRead: 0,
		entriesSeen: 0,
		filesStatted: 0,
		ignoreFilesRead: 0,
		symlinksSkipped: 0,
		nestedRepositories: 0,
	};
}

/** The bounds of `options`, defaults filled in and clamped. */
export function bounds(options: ScanOptions): Required<Omit<ScanOptions, "signal" | "recorded">> {
	const maxFiles = Math.max(1, options.maxFiles ?? Number.POSITIVE_INFINITY);
	return {
		maxFiles,
		maxFileBytes: Math.max(0, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES),
		maxDepth: Math.max(0, options.maxDepth ?? DEFAULT_MAX_DEPTH),
		maxEntries: Math.max(1, options.maxEntries ?? maxFiles * 10),
	};
}

function byPath(a: { path: string }, b: { path: string }): number {
	return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * Walks `root` (an absolute directory) and lists its supported source files and coverage gaps, sorted by path, or
 * only answers that they are as `options.recorded` says. Deterministic: directories are visited in name order, so
 * the same tree truncates at the same place. `stats` count the work of both walks when a compare walk found a change.
 */
export async function scanRoot(root: string, options: ScanOptions = {}): Promise<ScanResult> {
	const stats = newStats();
	if (options.recorded !== undefined) {
		const compared = await walkRoot(root, options, stats, options.recorded);
		if (compared !== undefined) return compared;
	}
	// Without records a walk always lists.
	return (await walkRoot(root, options, stats, undefined)) as ScanResult;
}

/**
 * One walk (see `scanRoot`). Given `recorded`, it lists no file and returns `undefined` at the first file that is not
 * as recorded, or at the end when one is missing.
 */
async function walkRoot(
	root: string,
	options: ScanOptions,
	stats: ScanStats,
	recorded: ReadonlyMap<string, RecordedFile> | undefined,
): Promise<ScanResult | undefined> {
	const { maxFiles, maxFileBytes, maxDepth, maxEntries } = bounds(options);
	const signal = options.signal;
	const files: ScannedFile[] = [];
	/** Files found so far (listed, or compared as recorded). */
	let found = 0;
	const gaps: CoverageGap[] = [];
	const directories: string[] = [];
	const settingsFiles: string[] = [];
	let truncated = false;
	/** Gaps are bounded like files: past `maxFiles` of them the walk is marked cut short instead. */
	const addGap = (gap: CoverageGap): void => {
		if (gaps.length >= maxFiles) truncated = true;
		else gaps.push(gap);
	};

	interface Frame {
		rel: string;
		depth: number;
		levels: IgnoreLevel[];
	}
	const stack: Frame[] = [{ rel: "", depth: 0, levels: await rootIgnoreLevels(root, stats) }];
	// One pace and one time slice for the whole walk: a slow file system stays on asynchronous calls once met.
	const pace: Pace = { sync: true };
	const slice = new TimeSlice();

	walk: while (stack.length > 0) {
		signal?.throwIfAborted();
		if (slice.due) await slice.turn();
		const frame = stack.pop() as Frame;
		const dir = frame.rel === "" ? root : join(root, frame.rel);
		// Unreadable or vanished: nothing to list.
		const [entries] = await syncWhileFast(
			1,
			() => readdirOrUndefined(dir),
			() => readdir(dir, { withFileTypes: true }).catch(() => undefined),
			{ pace, concurrency: 1, slice, signal },
		);
		if (entries === undefined) {
			// A directory that vanished has nothing to say; one that stays but cannot be listed is a hole in the map.
			if (frame.rel.includes(NOT_UTF8) || (frame.rel !== "" && (await lstatOrUndefined(dir))?.isDirectory() === true)) {
				addGap({ path: `${frame.rel}/`, reason: "unreadable" });
			}
			continue;
		}
		stats.dirsRead++;
		// A nested repository (its own `.git` directory or worktree file) is another project: diffusion never
		// crosses into it merely because it sits below this root. It stays closed until access enrolls it, and is
		// listed meanwhile, so an answer about this root does not pass its files for absent.
		if (frame.rel !== "" && entries.some((e) => e.name === ".git")) {
			stats.nestedRepositories++;
			addGap({ path: `${frame.rel}/`, reason: "nested-repository" });
			continue;
		}
		directories.push(frame.rel);
		entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

		let levels = frame.levels;
		if (frame.rel !== "" && entries.some((e) => e.name === ".gitignore" && e.isFile())) {
			const rules = await readIgnoreRules(join(dir, ".gitignore"), stats);
			if (rules !== undefined) levels = [...levels, { base: frame.rel, rules }];
		}

		const subdirs: string[] = [];
		// Paths to stat are the directory's path and a name: joined by hand, since `join` normalizes the whole path
		// again for every file (~7 MB of short-lived strings per walk of 10,000 files).
		const prefix = dir.endsWith(sep) ? dir : `${dir}${sep}`;
		const toStat: { rel: string; path: string; language: LanguageId }[] = [];
		/** Symbolic links not named like source: listed when they lead to a directory, or nowhere (a loop). */
		const links: { rel: string; path: string }[] = [];
		for (const entry of entries) {
			if (++stats.entriesSeen > maxEntries) {
				truncated = true;
				break walk;
			}
			const rel = frame.rel === "" ? entry.name : `${frame.rel}/${entry.name}`;
			if (entry.isSymbolicLink()) {
				stats.symlinksSkipped++;
				// Never followed (it could lead out of the root, or loop); one named like source is listed.
				const gap = symlinkGap(rel, levels);
				if (gap !== undefined) addGap(gap);
				else links.push({ rel, path: prefix + entry.name });
				continue;
			}
			if (entry.isDirectory()) {
				if (isIgnored(levels, `${rel}/`)) continue;
				const skipped = skippedDirGap(entry.name);
				if (skipped !== undefined) {
					if (skipped !== "silent") addGap({ path: `${rel}/`, reason: skipped });
					continue;
				}
				if (frame.depth + 1 > maxDepth) {
					truncated = true;
					continue;
				}
				subdirs.push(rel);
				continue;
			}
			if (!entry.isFile()) continue;
			if (SETTINGS_FILE_NAMES.has(entry.name)) settingsFiles.push(rel);
			const verdict = classifyName(rel);
			if (verdict.kind === "not-code" || isIgnored(levels, rel)) continue;
			if (verdict.kind === "gap") {
				addGap(verdict.gap);
				continue;
			}
			toStat.push({ rel, path: prefix + entry.name, language: verdict.language });
		}

		const statPath = (i: number) => (toStat[i] as (typeof toStat)[number]).path;
		const infos = await syncWhileFast(
			toStat.length,
			(i) => lstatSyncOrUndefined(statPath(i)),
			(i) => lstatOrUndefined(statPath(i)),
			{ pace, concurrency: STAT_CONCURRENCY, slice, signal },
		);
		stats.filesStatted += toStat.length;
		for (let j = 0; j < toStat.length; j++) {
			const item = toStat[j];
			const info = infos[j];
			if (item === undefined) continue;
			if (info === undefined) {
				// Gone since it was listed, or named in bytes that are not UTF-8 (read as U+FFFD, a name no call finds).
				if (item.rel.includes(NOT_UTF8)) addGap({ path: item.rel, reason: "unreadable" });
				continue;
			}
			const verdict = classifyStat(item.rel, item.language, info, maxFileBytes);
			if (verdict === undefined) continue;
			if (verdict.kind === "gap") addGap(verdict.gap);
			else if (found >= maxFiles) {
				truncated = true;
				break walk;
			} else if (recorded === undefined) {
				found++;
				files.push(verdict.file);
			} else if (asRecorded(recorded.get(item.rel), item.language, verdict.file)) {
				found++;
			} else {
				return undefined;
			}
		}

		for (const link of links) {
			// The link's target is looked at, never entered: a directory (or a loop) behind it is a gap to show, not a
			// part of the root that silently is not there.
			const target = await stat(link.path).catch(() => undefined);
			if (target?.isDirectory() === true) {
				if (!isIgnored(levels, `${link.rel}/`)) addGap({ path: `${link.rel}/`, reason: "symlink" });
			} else if (target === undefined && !isIgnored(levels, link.rel)) addGap({ path: link.rel, reason: "symlink" });
		}

		// Reverse so the stack pops subdirectories in name order.
		for (let i = subdirs.length - 1; i >= 0; i--) {
			const rel = subdirs[i] as string;
			stack.push({ rel, depth: frame.depth + 1, levels });
		}
	}

	if (recorded !== undefined && found !== recorded.size) return undefined;
	files.sort(byPath);
	gaps.sort(byPath);
	settingsFiles.sort();
	return { files, unchanged: recorded !== undefined, directories, settingsFiles, gaps, truncated, stats };
}
