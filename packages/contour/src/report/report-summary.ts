/**
 * A kept report in one line, for the status views (`contour status`, `/contour status`): when it was made, what it
 * reviewed at which commit, how much it found, who asked, and its id, so a reader can tell the kept reports apart
 * without opening any. Types only from `report.ts`: the extension's status needs no engine.
 */
import type { ReviewReport } from "./report.ts";

/** What a status shows of one kept report (also the CLI's `--json` form). */
export interface ReportSummary {
	id: string;
	createdAt: string;
	target: ReviewReport["target"];
	/** The commit HEAD named, or null on an unborn branch. */
	head: string | null;
	files: number;
	findings: number;
	origin: ReviewReport["origin"]["kind"];
}

/** The summary of `report`. */
export function summarizeReport(report: ReviewReport): ReportSummary {
	return {
		id: report.id,
		createdAt: report.createdAt,
		target: report.target,
		head: report.snapshot.head,
		files: report.files.length,
		findings: report.findings.length,
		origin: report.origin.kind,
	};
}

/** `summary` as one line: `2026-12-01T23:36:01.353Z staged at 778791244918 · 12 files · 8 findings · cli · <id>`. */
export function summaryLine(summary: ReportSummary): string {
	const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
	const head = summary.head === null ? "an unborn HEAD" : summary.head.slice(0, 12);
	return `${summary.createdAt} ${summary.target} at ${head} · ${plural(summary.files, "file")} · ${plural(summary.findings, "finding")} · ${summary.origin} · ${summary.id}`;
}
