// Fovea's localization against baselines on real repositories, side by side in one run (issue 31, "How it is
// measured"):
//   1. issue text: SWE-bench Verified (Python) and MSWE (JavaScript) instances, each at its base commit: `focus`
//      with the issue text against BM25 over the same files and text. Acc@1, Acc@5 (all gold files within the
//      first k) and MRR (first gold file).
//   2. commit subjects: the newest non-merge commits of each history that touch 1–20 source files: `focus` with the
//      subject against BM25, on the parent's tree. Recall@10 and MRR.
//   3. co-change impact: the newest non-merge commits touching 2–6 source files: `impact` of the first non-test file
//      they modified, scored on the commit's other files (tests included), against BM25 "more like this" (the file's
//      own distinctive words), the same-folder heuristic and co-change counts from the commits before the case.
//
//   node bench/fovea-localization.bench.ts [--corpus DIR] [--repos flask,gin,self] [--tasks issues,subjects,impact]
//                                          [--limit 40] [--window 1000] [--losses N] [--json]
//                                          [--histories owner/name,…] [--issue-set default|mswe-multi]
//
// --corpus: where the fetched repositories are, as `<owner>+<name>/repo` Git directories (default
// $FOVEA_BENCH_CORPUS or /work/.mirror); a missing one is reported as not measured. `self` is this repository.
// --histories: measure these fetched repositories' histories instead of the six of issue 31 (held-out checks on
// repositories the ranking was not tuned on; `self` is this repository).
// --issue-set mswe-multi: the issue task reads the held-out set instead, MSWE's Go, Java and Rust repositories
// (`MSWE_HELD_OUT`), reported per repository and per language; not part of the default run.
// --limit: cases per repository and task (issues: a fixed sample by hashed instance id; histories: the newest).
// --window: commits before each case the co-change baseline reads. --losses N: after the tables, the N cases per task
// and repository where Fovea trails the best baseline most, with both top fives (text output; JSON has every case).
//
// No leakage. Every ranker and baseline sees only what existed before the case: an issue is answered on its base
// commit's tree (the fix is not in it); a history case on its parent's tree, and the co-change counts read the parent
// and its ancestors only (`git log <parent>`), so the case's commit and anything after it reach neither the index nor
// the baselines. All trees of a repository are written one after another into one temp directory with one fact
// cache; facts are keyed by file content, so the cache shares parses of identical files and nothing else. The
// repositories are only read (`git archive`, `git log`, `git show`); temp directories are removed at the end.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { git } from "./support/git.ts";
import { corpusPath, HISTORY_REPOS, ISSUE_REPOS, MSWE_HELD_OUT, selectRepos } from "./support/localization/corpora.ts";
import type { CorpusResult, Task } from "./support/localization/corpus-result.ts";
import {
	type IssueInstance,
	type LoadedInstances,
	msweHeldOut,
	msweJavaScript,
	sampleInstances,
	sweBenchVerified,
} from "./support/localization/issue-instances.ts";
import { renderLosses } from "./support/localization/losses.ts";
import { renderReport, summaries } from "./support/localization/report.ts";
import { runHistory } from "./support/localization/run-history.ts";
import { runIssues } from "./support/localization/run-issues.ts";

const { values } = parseArgs({
	options: {
		corpus: { type: "string" },
		repos: { type: "string" },
		tasks: { type: "string", default: "issues,subjects,impact" },
		limit: { type: "string", default: "40" },
		window: { type: "string", default: "1000" },
		json: { type: "boolean", default: false },
		losses: { type: "string", default: "0" },
		histories: { type: "string" },
		"issue-set": { type: "string", default: "default" },
		help: { type: "boolean", default: false },
	},
});
if (values.help) {
	process.stdout.write(
		"usage: node bench/fovea-localization.bench.ts [--corpus DIR] [--repos gin,core,pytest,self] " +
			"[--tasks issues,subjects,impact] [--limit 40] [--window 1000] [--losses N] [--json] " +
			"[--histories owner/name,…] [--issue-set default|mswe-multi]\n" +
			`repositories (owner/name or the name alone): ${[...new Set([...ISSUE_REPOS, ...HISTORY_REPOS])].join(", ")}\n` +
			`held-out issue repositories (--issue-set mswe-multi): ${MSWE_HELD_OUT.map((f) => f.repo).join(", ")}\n`,
	);
	process.exit(0);
}

/** A usage error: the message alone on stderr, exit code 2. */
const usage = (message: string): never => {
	process.stderr.write(`fovea-localization: ${message}\n`);
	process.exit(2);
};
const positive = (flag: string, text: string | undefined): number => {
	const n = Number(text);
	if (!/^\d+$/.test(text ?? "") || n < 1) usage(`--${flag} must be a positive integer, got ${text}`);
	return n;
};
const list = (text: string | undefined) => (text ?? "").split(",").filter((s) => s.trim() !== "");
const limit = positive("limit", values.limit);
const window = positive("window", values.window);
const losses = values.losses === "0" ? 0 : positive("losses", values.losses);
const tasks = new Set(list(values.tasks));
for (const task of tasks) {
	if (task !== "issues" && task !== "subjects" && task !== "impact") usage(`unknown task: ${task}`);
}
const corpusDir = values.corpus ?? process.env.FOVEA_BENCH_CORPUS ?? "/work/.mirror";
const selectors = list(values.repos);
const heldOut = values["issue-set"] === "mswe-multi";
if (!heldOut && values["issue-set"] !== "default") usage(`unknown issue set: ${values["issue-set"]}`);
const issueRepos = selectRepos(heldOut ? MSWE_HELD_OUT.map((f) => f.repo) : ISSUE_REPOS, selectors);
const historyRepos = selectRepos(values.histories === undefined ? HISTORY_REPOS : list(values.histories), selectors);
for (const repo of historyRepos.selected) {
	if (repo !== "self" && !/^[\w.-]+\/[\w.-]+$/.test(repo)) usage(`--histories takes owner/name, got ${repo}`);
}
const unknown = issueRepos.unknown.filter((s) => historyRepos.unknown.includes(s));
if (unknown.length > 0) usage(`unknown repositories: ${unknown.join(", ")}`);

const started = performance.now();
const results: CorpusResult[] = [];
/** Progress goes to stderr, so `--json` output stays one document. */
const progress = (line: string) => process.stderr.write(`${line}\n`);
const missing = (task: Task, repo: string, why: string): CorpusResult => ({
	task,
	repo,
	group: "",
	missing: why,
	cases: [],
	skipped: {},
	seconds: 0,
	timingMs: {},
});

if (tasks.has("issues") && issueRepos.selected.length > 0) {
	const datasets: { group: string; instances: IssueInstance[]; unreadable: string[] }[] = [];
	const loaders: [string, (corpusDir: string) => Promise<LoadedInstances>][] = heldOut
		? (["go", "java", "rust"] as const).map((g) => [g, (dir: string) => msweHeldOut(dir, g)])
		: [
				["python", sweBenchVerified],
				["javascript", msweJavaScript],
			];
	for (const [group, load] of loaders) {
		try {
			datasets.push({ group, ...(await load(corpusDir)) });
		} catch (error) {
			progress(`${group} issue dataset not read: ${(error as Error).message}`);
		}
	}
	for (const { group, unreadable } of datasets) {
		if (unreadable.length > 0) progress(`${group} dataset: ${unreadable.length} unreadable entries skipped`);
	}
	for (const repo of issueRepos.selected) {
		const dataset = datasets.find((d) => d.instances.some((i) => i.repo === repo));
		const path = corpusPath(corpusDir, repo);
		if (dataset === undefined) results.push(missing("issues", repo, "its dataset was not read"));
		else if (path === undefined) results.push(missing("issues", repo, `not fetched under ${corpusDir}`));
		else {
			const instances = sampleInstances(dataset.instances, repo, limit);
			progress(`issues ${repo}: ${instances.length} instances…`);
			results.push(await runIssues(repo, path, dataset.group, instances));
			progress(`  ${results.at(-1)?.cases.length} cases, ${results.at(-1)?.seconds} s`);
		}
	}
}

if ((tasks.has("subjects") || tasks.has("impact")) && historyRepos.selected.length > 0) {
	const here = dirname(fileURLToPath(import.meta.url));
	for (const repo of historyRepos.selected) {
		const path =
			repo === "self" ? (await git(here, ["rev-parse", "--show-toplevel"])).trim() : corpusPath(corpusDir, repo);
		if (path === undefined) {
			for (const task of ["subjects", "impact"] as const) {
				if (tasks.has(task)) results.push(missing(task, repo, `not fetched under ${corpusDir}`));
			}
			continue;
		}
		progress(`history ${repo}…`);
		const options = { limit, window, subjects: tasks.has("subjects"), impact: tasks.has("impact") };
		const measured = await runHistory(repo, path, options);
		results.push(...measured);
		progress(`  ${measured.map((r) => `${r.task} ${r.cases.length} cases`).join(", ")}, ${measured[0]?.seconds} s`);
	}
}

const seconds = Math.round((performance.now() - started) / 100) / 10;
if (values.json) {
	const report = { benchmark: "fovea localization (issue 31)", corpusDir, limit, window, seconds };
	process.stdout.write(`${JSON.stringify({ ...report, summaries: summaries(results), results }, null, 2)}\n`);
} else {
	const lossText = losses > 0 ? `\n\n== where Fovea loses\n${renderLosses(results, losses)}` : "";
	process.stdout.write(`${renderReport(results)}${lossText}\n\n${seconds} s in all\n`);
}
