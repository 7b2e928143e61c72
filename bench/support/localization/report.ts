// Summaries and targets of the localization benchmark (issue 31): each task's metrics for every ranker, Fovea's ratio
// to the baseline the target names, and whether the target is met; per repository and per language set.
import type { CorpusResult, Task } from "./corpus-result.ts";
import {
	type CaseScore,
	checkTarget,
	headToHead,
	type Metric,
	round3,
	summarize,
	type TargetCheck,
} from "./metrics.ts";
import { type SignalCeiling, signalCeiling } from "./signal-ceiling.ts";

/** The metrics each task reports, in table order. */
export const TASK_METRICS: Record<Task, readonly Metric[]> = {
	issues: ["acc1", "acc5", "rr"],
	subjects: ["recall10", "rr"],
	impact: ["recall10", "rr"],
};

/** The targets of issue 31: metric and the ratio to the baseline Fovea must reach. */
const TARGETS: Record<Task, readonly { metric: Metric; required: number }[]> = {
	issues: [
		{ metric: "acc1", required: 1 },
		{ metric: "acc5", required: 1.15 },
		{ metric: "rr", required: 1.15 },
	],
	subjects: [
		{ metric: "recall10", required: 1.1 },
		{ metric: "rr", required: 1.1 },
	],
	impact: [
		{ metric: "recall10", required: 1.1 },
		{ metric: "rr", required: 1.1 },
	],
};

/** Display names of the metrics. */
export const METRIC_LABEL: Record<Metric, string> = { acc1: "Acc@1", acc5: "Acc@5", recall10: "Recall@10", rr: "MRR" };

/** One summarized row: a repository or a language set, with every ranker's means and the targets judged. */
export interface Summary {
	task: Task;
	label: string;
	cases: number;
	/** Means rounded to 3 decimals (targets are judged on the exact means). */
	rankers: Record<string, Record<Metric, number>>;
	targets: TargetCheck[];
	/** Per case by reciprocal rank, Fovea against each baseline. */
	headToHead: Record<string, ReturnType<typeof headToHead>>;
}

/** Summarizes the cases of `results` (one repository, or several pooled as a language set) under `label`. */
export function summarizeCases(task: Task, label: string, results: readonly CorpusResult[]): Summary {
	const cases = results.flatMap((r) => r.cases);
	const names = [...new Set(cases.flatMap((c) => Object.keys(c.scores)))];
	const scoresOf = (name: string) => cases.map((c) => c.scores[name]).filter((s): s is CaseScore => s !== undefined);
	const exact = Object.fromEntries(names.map((name) => [name, summarize(scoresOf(name))]));
	const baselines = names.filter((n) => n !== "fovea");
	const fovea = exact.fovea;
	const targets: TargetCheck[] = [];
	if (fovea !== undefined && baselines.length > 0 && cases.length > 0) {
		for (const { metric, required } of TARGETS[task]) {
			// Against the best baseline on this metric (for issues and subjects, BM25 is the only one).
			const best = baselines.reduce((a, b) => ((exact[b]?.[metric] ?? 0) > (exact[a]?.[metric] ?? 0) ? b : a));
			targets.push(checkTarget(metric, fovea[metric], exact[best]?.[metric] ?? 0, required, best));
		}
	}
	const foveaScores = scoresOf("fovea");
	return {
		task,
		label,
		cases: cases.length,
		rankers: Object.fromEntries(
			Object.entries(exact).map(([name, means]) => [
				name,
				Object.fromEntries(Object.entries(means).map(([m, v]) => [m, round3(v)])) as Record<Metric, number>,
			]),
		),
		targets,
		headToHead: Object.fromEntries(baselines.map((b) => [b, headToHead(foveaScores, scoresOf(b))])),
	};
}

/** Per repository, then per language set (issues: python, javascript; history tasks: all histories pooled). */
export function summaries(results: readonly CorpusResult[]): Summary[] {
	const out: Summary[] = [];
	for (const task of ["issues", "subjects", "impact"] as const) {
		const ofTask = results.filter((r) => r.task === task && r.missing === undefined);
		for (const r of ofTask) out.push(summarizeCases(task, r.repo, [r]));
		for (const group of [...new Set(ofTask.map((r) => r.group))]) {
			const members = ofTask.filter((r) => r.group === group);
			if (members.length > 1) out.push(summarizeCases(task, `all ${group}`, members));
		}
	}
	return out;
}

const TASK_TITLE: Record<Task, string> = {
	issues: "issue-text localization (focus vs BM25)",
	subjects: "commit-subject localization (focus vs BM25)",
	impact: "co-change impact (impact vs BM25 more-like-this, same folder, co-change)",
};

/** The readable report: one table per task, every number, the ratio, whether met, then skips and times. */
export function renderReport(results: readonly CorpusResult[]): string {
	const lines: string[] = [];
	const all = summaries(results);
	for (const task of ["issues", "subjects", "impact"] as const) {
		const rows = all.filter((s) => s.task === task);
		if (rows.length === 0) continue;
		const metrics = TASK_METRICS[task];
		lines.push(`== ${TASK_TITLE[task]}`);
		const rankerNames = [...new Set(rows.flatMap((r) => Object.keys(r.rankers)))];
		const head = ["corpus".padEnd(34), "n".padStart(4)];
		for (const name of rankerNames) head.push(`${name} ${metrics.map((m) => METRIC_LABEL[m]).join("/")}`.padEnd(34));
		lines.push(head.join(" "));
		for (const row of rows) {
			const cells = [row.label.slice(0, 34).padEnd(34), String(row.cases).padStart(4)];
			for (const name of rankerNames) {
				const r = row.rankers[name];
				cells.push((r === undefined ? "-" : metrics.map((m) => r[m].toFixed(3)).join(" / ")).padEnd(34));
			}
			lines.push(cells.join(" "));
			const judged = row.targets.map(
				(t) =>
					`${METRIC_LABEL[t.metric]} ${t.fovea.toFixed(3)}/${t.baseline.toFixed(3)} (${t.against}) = ${t.ratio === null ? "n/a" : `${t.ratio.toFixed(2)}×`} ≥${t.required.toFixed(2)}× ${t.met ? "met" : "MISSED"}`,
			);
			if (judged.length > 0) lines.push(`${"".padEnd(40)}${judged.join("; ")}`);
		}
		lines.push("");
	}
	const diagnosed = results.filter((r) => r.cases.some((c) => c.diagnostics !== undefined));
	if (diagnosed.length > 0) {
		lines.push("== impact: share of direct dependencies of the query file (what it imports, which it does not expose)");
		for (const r of diagnosed) {
			const mean = (key: string) =>
				r.cases.reduce((sum, c) => sum + (c.diagnostics?.[key] ?? 0), 0) / Math.max(1, r.cases.length);
			lines.push(
				`${r.repo}: ${(100 * mean("foveaTop10Dependencies")).toFixed(1)}% of Fovea's top 10, ${(100 * mean("goldDependencies")).toFixed(1)}% of the gold files`,
			);
		}
		lines.push("");
	}
	lines.push(...ceilingLines(results, all));
	lines.push("== cases, skips and time per corpus");
	for (const r of results) {
		const skips = Object.entries(r.skipped)
			.filter(([, n]) => n > 0)
			.map(([k, n]) => `${k} ${n}`)
			.join(", ");
		const timing = Object.entries(r.timingMs)
			.map(([k, v]) => `${k} ${v}`)
			.join(", ");
		lines.push(
			r.missing !== undefined
				? `${r.task} ${r.repo}: not measured (${r.missing})`
				: `${r.task} ${r.repo}: ${r.cases.length} cases; skipped: ${skips || "none"}; ${r.seconds} s (${timing})`,
		);
	}
	return lines.join("\n");
}

/**
 * Impact's signals alone and their hindsight ceiling (`signal-ceiling.ts`) per repository and pooled, beside the bar
 * the target sets (1.10× the best baseline): a ceiling under the bar says no fusion of these signals meets it.
 */
function ceilingLines(results: readonly CorpusResult[], all: readonly Summary[]): string[] {
	const impact = results.filter((r) => r.task === "impact" && r.cases.some((c) => c.signals !== undefined));
	if (impact.length === 0) return [];
	const pair = (v: { recall10: number; rr: number }) => `${v.recall10.toFixed(3)} / ${v.rr.toFixed(3)}`;
	const lines = [
		"== impact: Fovea's signals alone, the best list per case with hindsight, and the target's bar (Recall@10 / MRR)",
	];
	const rows: [string, SignalCeiling][] = impact.map((r) => [r.repo, signalCeiling(r.cases)]);
	if (impact.length > 1) rows.push(["all history", signalCeiling(impact.flatMap((r) => r.cases))]);
	for (const [label, c] of rows) {
		const targets = all.find((s) => s.task === "impact" && s.label === label)?.targets ?? [];
		const bar = (metric: Metric) => {
			const t = targets.find((x) => x.metric === metric);
			return t === undefined ? "-" : (t.required * t.baseline).toFixed(3);
		};
		const signals = Object.entries(c.signals).map(([name, v]) => `${name} ${pair(v)}`);
		lines.push(`${label}: ${signals.join(", ")}; ceiling ${pair(c.ceiling)}; bar ${bar("recall10")} / ${bar("rr")}`);
	}
	lines.push("");
	return lines;
}
