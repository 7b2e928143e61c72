// What one task on one repository produced: every case with each ranker's score, what was skipped and why, and the
// time it took. The report (`report.ts`) summarizes and judges it; the JSON output carries it whole.
import type { CaseScore } from "./metrics.ts";

/** The three measurements of issue 31. */
export type Task = "issues" | "subjects" | "impact";

/** One case: what was asked, the gold files, and each ranker's score. */
export interface CaseDetail {
	id: string;
	/** The query as given (an issue's first line, a subject, or the impact file). */
	query: string;
	gold: string[];
	/** Gold files the engine does not index (ignored, too large, unsupported): no ranker sees them. */
	goldDropped: string[];
	/** By ranker name; "fovea" always, then the baselines of the task. */
	scores: Record<string, CaseScore>;
	/** Impact: each of Fovea's fused signals scored alone (reach, coupling, text), beside the fused answer. */
	signals?: Record<string, CaseScore>;
	/** Per-case diagnostics a task adds (impact: the share of Fovea's top 10 and of the gold that the query imports). */
	diagnostics?: Record<string, number>;
}

/** One task's outcome on one repository. */
export interface CorpusResult {
	task: Task;
	repo: string;
	/** The language set the repository counts in ("python", "javascript", or "history" for the history tasks). */
	group: string;
	/** Set when the repository could not be measured at all (e.g. not fetched). */
	missing?: string;
	cases: CaseDetail[];
	skipped: Record<string, number>;
	seconds: number;
	timingMs: Record<string, number>;
}

/** Adds one to `skipped[reason]`. */
export function countSkip(skipped: Record<string, number>, reason: string): void {
	skipped[reason] = (skipped[reason] ?? 0) + 1;
}

/** Milliseconds rounded, for the report. */
export function roundedTiming(timing: object): Record<string, number> {
	return Object.fromEntries(Object.entries(timing).map(([k, v]) => [k, Math.round(Number(v))]));
}
