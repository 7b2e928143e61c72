/**
 * Modelled exposure of changed code, from Fovea's impact reach (`CodeMap.exposure`, the reach `fovea impact`
 * ranks by): the code that depends on a finding's file (its importers, the callers of its functions, subclasses and
 * implementers of its classes, its tests, and theirs in turn, with decay) is the code a mistake there could travel
 * to. What the file itself depends on is not exposure and never counted. It is exposure, not severity: a finding in
 * widely used code is not thereby wrong, only more worth a look.
 *
 * The seed is the file alone, not the changed callables' names: the engine seeds a name wherever it occurs, so a
 * changed `main` or `run` would light up every file with one. A file counts as reached when its score is at least
 * `REACH_SHARE` of the most exposed file's; `reach` is how many do.
 *
 * One impact query per finding file (findings in one file share it), for at most `MAX_EXPOSURE_QUERIES` files in
 * rank order; findings further down get none, and the note says so.
 */
import type { CodeMap } from "pi-fovea/engine";
import type { Exposure, Finding } from "../review/index.ts";

/** Impact queries per review, at most. */
export const MAX_EXPOSURE_QUERIES = 20;
/** A file counts as reached when its score is at least this share of the most exposed file's. */
export const REACH_SHARE = 0.25;
/** Reached files named per finding, at most. */
export const EXPOSED_FILES_SHOWN = 5;

/** Findings with exposure filled in, and what was left out. */
export interface ExposureResult {
	findings: Finding[];
	queries: number;
	note?: string;
}

/** Fills in `exposure` of `findings` (in rank order) from `map`'s impact reach. */
export async function withExposure(
	map: CodeMap,
	findings: readonly Finding[],
	signal?: AbortSignal,
): Promise<ExposureResult> {
	const byFile = new Map<string, Exposure>();
	const files = [...new Set(findings.map((finding) => finding.file))];
	const asked = files.slice(0, MAX_EXPOSURE_QUERIES);
	for (const file of asked) {
		signal?.throwIfAborted();
		const { reach, graph } = await map.exposure({ files: [file], symbols: [] }, { paths: [] });
		const ranked = reach.files.map((r) => ({ file: graph.nodes[r.id]?.path ?? "", score: r.score }));
		byFile.set(file, exposureOf(ranked, file));
	}
	const out = findings.map((finding) => {
		const exposure = byFile.get(finding.file);
		return exposure === undefined ? finding : { ...finding, exposure };
	});
	const left = files.length - asked.length;
	return {
		findings: out,
		queries: asked.length,
		...(left > 0
			? { note: `exposure modelled for the first ${asked.length} finding files; ${left} more files have none` }
			: {}),
	};
}

/** Files reached beyond `file`, most exposed first, with a score enough to count. */
export function exposureOf(ranked: readonly { file: string; score: number }[], file: string): Exposure {
	const scores = new Map<string, number>();
	for (const item of ranked) {
		if (item.file === file || item.score <= 0) continue;
		scores.set(item.file, Math.max(scores.get(item.file) ?? 0, item.score));
	}
	const sorted = [...scores].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
	const top = sorted[0]?.[1] ?? 0;
	const reached = sorted.filter(([, score]) => score >= top * REACH_SHARE).map(([path]) => path);
	return { reach: reached.length, files: reached.slice(0, EXPOSED_FILES_SHOWN) };
}
