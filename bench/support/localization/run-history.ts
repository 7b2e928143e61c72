// The two history tasks on one repository, in one pass over its newest non-merge commits so each parent tree is
// written and indexed once for both: commit-subject localization (Fovea's `focus` with the subject against BM25) and
// co-change impact (Fovea's `impact` of one file against BM25 "more like this", the same folder and co-change counts).
//
// No leakage: a case is answered on its parent's tree, and the co-change counts read only the parent and its
// ancestors (`historyBefore`); the case's own commit and anything after it reach neither the index nor a baseline.
//
// Impact cases also score each of Fovea's fused signals alone (`impact-signals.ts`); with FOVEA_BENCH_SIGNALS=<file>,
// each case's signal lists (with their own scores), the rankings and the gold files are appended to <file> as one
// JSON line, to replay fusion changes offline.
import { appendFileSync } from "node:fs";
import { coChangeRanking, historyBefore } from "./co-change.ts";
import { type CaseDetail, type CorpusResult, countSkip, roundedTiming } from "./corpus-result.ts";
import { dependencyShare, directDependencies } from "./dependencies.ts";
import { type ImpactCase, impactCase, recentCommits, subjectCase } from "./history-cases.ts";
import { impactSignals } from "./impact-signals.ts";
import { scoreCase } from "./metrics.ts";
import { sameFolderRanking } from "./same-folder.ts";
import { focusAgainstBm25, MAX_TOKENS } from "./text-case.ts";
import { type TreeState, TreeStates } from "./tree-states.ts";
import { makeWorkDir, removeWorkDir } from "./work-dirs.ts";

/** The cases of one task so far and what it skipped. */
interface TaskCases {
	cases: CaseDetail[];
	skipped: Record<string, number>;
}

/** Time spent per ranker and in the history reads. */
interface HistoryTiming {
	logMs: number;
	focusMs: number;
	impactMs: number;
	bm25Ms: number;
	coChangeMs: number;
}

/** Options of the history tasks. */
export interface HistoryOptions {
	/** At most this many cases per task (the newest). */
	limit: number;
	/** Commits before a case that the co-change baseline reads. */
	window: number;
	subjects: boolean;
	impact: boolean;
}

/** Runs the selected history tasks on the repository at `repoPath`; one result per task. */
export async function runHistory(repo: string, repoPath: string, options: HistoryOptions): Promise<CorpusResult[]> {
	const started = performance.now();
	const subjects: TaskCases = { cases: [], skipped: {} };
	const impact: TaskCases = { cases: [], skipped: {} };
	const timing = { logMs: 0, focusMs: 0, impactMs: 0, bm25Ms: 0, coChangeMs: 0 };
	let t = performance.now();
	// Enough commits to find the cases among those that touch only docs, CI or dependency pins.
	const records = await recentCommits(repoPath, Math.max(400, options.limit * 25));
	timing.logMs += performance.now() - t;
	const workDir = makeWorkDir();
	const states = new TreeStates(repoPath, workDir);
	const want = (task: { cases: CaseDetail[] }, on: boolean) => on && task.cases.length < options.limit;
	try {
		for (const record of records) {
			if (!want(subjects, options.subjects) && !want(impact, options.impact)) break;
			const subjectWanted = want(subjects, options.subjects);
			const impactWanted = want(impact, options.impact);
			const asSubject = subjectWanted ? subjectCase(record) : undefined;
			const asImpact = impactWanted ? impactCase(record) : undefined;
			if (typeof asSubject === "string") countSkip(subjects.skipped, asSubject);
			if (typeof asImpact === "string") countSkip(impact.skipped, asImpact);
			if (typeof asSubject !== "object" && typeof asImpact !== "object") continue;
			const state = await states.at(record.parent);
			if (typeof asSubject === "object") {
				const label = record.subject;
				const c = { id: record.commit.slice(0, 12), text: label, label, gold: asSubject.gold };
				const scored = await focusAgainstBm25(state, c, timing);
				if (typeof scored === "string") countSkip(subjects.skipped, scored);
				else subjects.cases.push(scored);
			}
			if (typeof asImpact === "object") {
				await impactOne(repoPath, asImpact, state, options.window, impact, timing);
			}
		}
	} finally {
		states.close();
		removeWorkDir(workDir);
	}
	t = performance.now() - started;
	const shared = roundedTiming({ ...states.timing, ...timing });
	const result = (task: "subjects" | "impact", part: TaskCases): CorpusResult => ({
		task,
		repo,
		group: "history",
		cases: part.cases,
		skipped: part.skipped,
		// Tree writing and indexing serve both tasks: each task's time is the whole run's (see timingMs).
		seconds: Math.round(t / 100) / 10,
		timingMs: shared,
	});
	return [
		...(options.subjects ? [result("subjects", subjects)] : []),
		...(options.impact ? [result("impact", impact)] : []),
	];
}

/**
 * Scores one impact case on its parent's tree: every ranking leaves the query file out and keeps only indexed files,
 * so all four rank the same universe.
 */
async function impactOne(
	repoPath: string,
	c: ImpactCase,
	state: TreeState,
	window: number,
	task: TaskCases,
	timing: HistoryTiming,
): Promise<void> {
	if (!state.indexed.has(c.query)) return countSkip(task.skipped, "query-file-not-indexed");
	const gold = c.gold.filter((g) => state.indexed.has(g));
	if (gold.length === 0) return countSkip(task.skipped, "gold-not-indexed");
	const keep = (ranking: readonly string[]) => ranking.filter((p) => p !== c.query && state.indexed.has(p));
	let t = performance.now();
	const answer = await state.map.impact({ files: [c.query], symbols: [] }, MAX_TOKENS, { paths: [] });
	timing.impactMs += performance.now() - t;
	t = performance.now();
	const moreLikeThis = state.bm25.moreLikeThis(c.query);
	timing.bm25Ms += performance.now() - t;
	t = performance.now();
	const coChange = coChangeRanking(await historyBefore(repoPath, c.record.parent, window), c.query);
	timing.coChangeMs += performance.now() - t;
	const ranked = {
		fovea: keep(answer.files.map((f) => f.file)),
		"bm25-mlt": keep(moreLikeThis),
		"same-folder": keep(sameFolderRanking(state.indexed, c.query)),
		"co-change": keep(coChange),
	};
	const dependencies = await directDependencies(state, c.query);
	const signals = await impactSignals(state, c.query);
	const dump = process.env.FOVEA_BENCH_SIGNALS;
	if (dump !== undefined && dump !== "") {
		const line = { repo: repoPath, id: c.record.commit.slice(0, 12), query: c.query, gold, ranked, signals };
		appendFileSync(dump, `${JSON.stringify(line)}\n`);
	}
	task.cases.push({
		id: c.record.commit.slice(0, 12),
		query: c.query,
		gold,
		goldDropped: c.gold.filter((g) => !state.indexed.has(g)),
		scores: Object.fromEntries(Object.entries(ranked).map(([name, ranking]) => [name, scoreCase(ranking, gold)])),
		signals: {
			reach: scoreCase(keep(signals.reach.map((r) => r.path)), gold),
			coupling: scoreCase(keep(signals.coupling.map((r) => r.path)), gold),
			text: scoreCase(keep(signals.text.map((r) => r.path)), gold),
			named: scoreCase(keep(signals.named.map((r) => r.path)), gold),
		},
		diagnostics: {
			foveaTop10Dependencies: dependencyShare(ranked.fovea.slice(0, 10), dependencies),
			goldDependencies: dependencyShare(gold, dependencies),
		},
	});
}
