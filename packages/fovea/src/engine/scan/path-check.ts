/**
 * The path check: what a few named paths are now, as the full walk would classify them, found by reading only their
 * ancestors' ignore files and metadata. The fast path after an edit, kept beside the walk (`walk.ts`) whose verdicts
 * it must reproduce.
 */
import type { Stats } from "node:fs";
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { CoverageGap } from "../model/index.ts";
import { classifyName, classifyStat, symlinkGap } from "./classification.ts";
import type { ScannedFile } from "./file-metadata.ts";
import { type IgnoreLevel, isIgnored, readIgnoreRules, rootIgnoreLevels } from "./ignore-rules.ts";
import { isSkippedDirName } from "./skip-dirs.ts";
import { bounds, newStats, type ScanOptions, type ScanStats } from "./walk.ts";

/** What one explicitly named path is now, as the full walk would see it. */
export type PathVerdict =
	| { path: string; kind: "file"; file: ScannedFile }
	| { path: string; kind: "gap"; gap: CoverageGap }
	/** Missing, ignored, not code, behind a symlink or skipped directory: not in the index. */
	| { path: string; kind: "absent" }
	/** A directory: the caller needs a walk, not a path check. */
	| { path: string; kind: "directory" };

/** Normalizes a root-relative path to `/`-separated segments, or `undefined` when it could leave the root. */
export function rootRelativeSegments(rel: string): string[] | undefined {
	const segments = rel
		.replaceAll("\\", "/")
		.split("/")
		.filter((s) => s !== "" && s !== ".");
	if (segments.length === 0 || segments.some((s) => s === "..")) return undefined;
	return segments;
}

/**
 * Checks named root-relative paths the way {@link scanRoot} would classify them, reading only their ancestors'
 * ignore files and metadata: the fast path for a one-file edit. Same bounds, except `maxFiles`, which the caller
 * applies against its own index.
 */
export async function scanPaths(
	root: string,
	paths: readonly string[],
	options: ScanOptions = {},
): Promise<{ verdicts: PathVerdict[]; stats: ScanStats }> {
	const { maxFileBytes, maxDepth } = bounds(options);
	const stats = newStats();
	const levelCache = new Map<string, Promise<IgnoreLevel[] | undefined>>();
	const dirCache = new Map<string, Promise<boolean>>();

	/** Whether the root-relative directory `rel` is a real directory (not a symlink) the walk would enter. */
	const enterable = (rel: string): Promise<boolean> => {
		let known = dirCache.get(rel);
		if (known === undefined) {
			known = lstat(join(root, rel)).then(
				(info) => info.isDirectory() && !info.isSymbolicLink(),
				() => false,
			);
			dirCache.set(rel, known);
		}
		return known;
	};

	/** The ignore levels in force inside directory `rel`, or `undefined` when the walk never enters it. */
	const levelsOf = (rel: string): Promise<IgnoreLevel[] | undefined> => {
		let known = levelCache.get(rel);
		if (known === undefined) {
			known = (async () => {
				if (rel === "") return rootIgnoreLevels(root, stats);
				const slash = rel.lastIndexOf("/");
				const parent = slash < 0 ? "" : rel.slice(0, slash);
				const name = rel.slice(slash + 1);
				const above = await levelsOf(parent);
				if (above === undefined || isSkippedDirName(name) || isIgnored(above, `${rel}/`)) return undefined;
				if (!(await enterable(rel))) return undefined;
				if (
					await lstat(join(root, rel, ".git")).then(
						() => true,
						() => false,
					)
				) {
					stats.nestedRepositories++;
					return undefined; // a nested repository: another project, as in the full walk
				}
				const rules = await readIgnoreRules(join(root, rel, ".gitignore"), stats);
				return rules === undefined ? above : [...above, { base: rel, rules }];
			})();
			levelCache.set(rel, known);
		}
		return known;
	};

	const verdicts: PathVerdict[] = [];
	for (const raw of paths) {
		options.signal?.throwIfAborted();
		const segments = rootRelativeSegments(raw);
		if (segments === undefined) continue; // the root itself or outside it: not a file of this index
		const rel = segments.join("/");
		const parent = segments.slice(0, -1).join("/");
		const levels = segments.length - 1 > maxDepth ? undefined : await levelsOf(parent);
		if (levels === undefined) {
			verdicts.push({ path: rel, kind: "absent" });
			continue;
		}
		let info: Stats;
		try {
			info = await lstat(join(root, rel));
			stats.filesStatted++;
		} catch {
			verdicts.push({ path: rel, kind: "absent" });
			continue;
		}
		if (info.isDirectory()) {
			verdicts.push({ path: rel, kind: "directory" });
			continue;
		}
		const name = segments[segments.length - 1] as string;
		if (info.isSymbolicLink()) {
			const gap = symlinkGap(rel, levels);
			verdicts.push(gap === undefined ? { path: rel, kind: "absent" } : { path: rel, kind: "gap", gap });
			continue;
		}
		const verdict = classifyName(rel);
		if (!info.isFile() || verdict.kind === "not-code" || name === ".gitignore" || isIgnored(levels, rel)) {
			verdicts.push({ path: rel, kind: "absent" });
			continue;
		}
		if (verdict.kind === "gap") {
			verdicts.push({ path: rel, kind: "gap", gap: verdict.gap });
			continue;
		}
		const byStat = classifyStat(rel, verdict.language, info, maxFileBytes);
		verdicts.push(byStat === undefined ? { path: rel, kind: "absent" } : { path: rel, ...byStat });
	}
	return { verdicts, stats };
}
