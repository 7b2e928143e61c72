// Contour's signal on real changes (issue 32): labelled commits of public repositories, each reviewed as a staged
// change (its parent's tree committed, its own tree staged, in a throwaway repository under the OS temp dir), checked
// against what a reviewer expects. The labels (`contour-signal.labels.json`) are data about public commits: commit
// ids, the findings a reviewer keeps or drops, and the production complexity deltas the report must show. No code of
// those repositories is copied here: their trees are read from the bare mirrors at run time.
//
//   node bench/contour-signal.bench.ts [--labels FILE] [--mirrors DIR] [--only REPO] [--discover] [--keep]
//
// Prints JSON: per case what was found, and in total
// - precision: findings labelled "keep" over all findings (an unlabelled finding counts as not kept, and is listed),
//   and the same over production findings (those not marked as test code, which rank first);
// - cloneGroupDuplicates: clone findings that share a member with an earlier clone finding of the same review (0);
// - preexistingPairsAsNew: clone pairs (anchor, member) that were already alike on the base side — both callables
//   there, similar at or above the near-clone threshold — reported as new (target 0);
// - deltasShown: labelled production complexity changes (`name before → after`) present in the default text report.
// `--discover` prints each case's findings and production deltas instead, to label new cases.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ReportJson } from "../packages/contour/src/report/report-json.ts";
import {
	type CallableMeasure,
	ensureMeasureLanguages,
	measureFile,
	NEAR_CLONE_SIMILARITY,
	similarity,
} from "../packages/contour/src/review/index.ts";
import { GIT_ENV, gitArgs, materialize } from "./support/git.ts";

interface FindingLabel {
	kind: string;
	/** A callable the finding's title names (backticked), or a file it is about. */
	about: string;
	keep: boolean;
	why: string;
}

interface DeltaLabel {
	callable: string;
	before: number;
	after: number;
}

interface Case {
	repo: string;
	commit: string;
	language: string;
	subject: string;
	findings: FindingLabel[];
	deltas: DeltaLabel[];
}

const { values } = parseArgs({
	options: {
		labels: { type: "string", default: new URL("./contour-signal.labels.json", import.meta.url).pathname },
		mirrors: { type: "string", default: "/work/.mirror" },
		only: { type: "string" },
		discover: { type: "boolean", default: false },
		keep: { type: "boolean", default: false },
		cli: { type: "string" },
	},
});

// `--cli` runs another build of the CLI on the same cases (an earlier commit's sources, for a before/after).
const CLI = values.cli ?? new URL("../packages/contour/src/cli.ts", import.meta.url).pathname;
const labels = JSON.parse(readFileSync(values.labels, "utf8")) as { cases: Case[] };
const cases = labels.cases.filter((c) => values.only === undefined || c.repo === values.only);
const work = mkdtempSync(join(tmpdir(), "contour-signal-"));
const caches = join(work, "caches");

/** Git with the benchmarks' hardening (no hooks, filters or config of the user), in `dir`. */
function git(dir: string, ...args: string[]): string {
	return execFileSync("git", gitArgs(dir, args), {
		env: {
			...GIT_ENV,
			GIT_AUTHOR_NAME: "b",
			GIT_AUTHOR_EMAIL: "b@b",
			GIT_COMMITTER_NAME: "b",
			GIT_COMMITTER_EMAIL: "b@b",
		},
		encoding: "utf8",
		maxBuffer: 256 * 1024 * 1024,
	});
}

/** A throwaway repository (one path per mirror, so Fovea's caches carry over) with `commit^` committed and `commit` staged. */
async function stage(mirror: string, name: string, commit: string): Promise<string> {
	const dir = join(work, "roots", name);
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	git(dir, "init", "-q", "-b", "main");
	await materialize(mirror, `${commit}^`, dir);
	git(dir, "add", "-A");
	git(dir, "commit", "-q", "--no-verify", "-m", "base");
	for (const entry of readdirSync(dir))
		if (entry !== ".git") rmSync(join(dir, entry), { recursive: true, force: true });
	await materialize(mirror, commit, dir);
	git(dir, "add", "-A");
	return dir;
}

function contour(dir: string, args: string[]): string {
	const run = spawnSync(process.execPath, [CLI, "review", "--root", dir, ...args], {
		encoding: "utf8",
		env: { ...process.env, FOVEA_CACHE_DIR: caches, CONTOUR_CACHE_DIR: "", NODE_OPTIONS: "" },
		maxBuffer: 256 * 1024 * 1024,
	});
	if (run.status !== 0 && run.status !== 1) throw new Error(`contour on ${dir}: exit ${run.status}: ${run.stderr}`);
	return run.stdout;
}

/** The callables the title of a finding names (between backticks). */
function named(title: string): string[] {
	return [...title.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
}

/** The callable of `file` (on the side `ref` holds, or the index) whose name line is `line`. */
function callableAt(dir: string, ref: string, file: string, line: number): CallableMeasure | undefined {
	const text = showFile(dir, ref, file);
	return text === undefined ? undefined : measureFile(file, text).callables.find((c) => c.line === line);
}

function showFile(dir: string, ref: string, file: string): string | undefined {
	try {
		return git(dir, "show", `${ref}:${file}`);
	} catch {
		return undefined;
	}
}

/** Clone pairs of a finding that were as alike on the base side (both callables there by key, similar enough). */
function preexistingPairs(dir: string, finding: ReportJson["findings"][number]): number {
	const members = finding.witnesses.filter((w) => w.side === "after");
	const [anchor, ...others] = members;
	if (anchor === undefined) return 0;
	const anchorAfter = callableAt(dir, "", anchor.file, anchor.line);
	const anchorBefore = anchorAfter === undefined ? undefined : baseCallable(dir, anchor.file, anchorAfter.key);
	if (anchorBefore === undefined) return 0;
	let count = 0;
	for (const other of others) {
		const after = callableAt(dir, "", other.file, other.line);
		const before = after === undefined ? undefined : baseCallable(dir, other.file, after.key);
		if (before !== undefined && similarity(anchorBefore, before) >= NEAR_CLONE_SIMILARITY) count++;
	}
	return count;
}

function baseCallable(dir: string, file: string, key: string): CallableMeasure | undefined {
	const text = showFile(dir, "HEAD", file);
	return text === undefined ? undefined : measureFile(file, text).callables.find((c) => c.key === key);
}

const results = [];
const totals = {
	cases: 0,
	findings: 0,
	kept: 0,
	production: 0,
	productionKept: 0,
	unlabelled: 0,
	cloneFindings: 0,
	cloneGroupDuplicates: 0,
	preexistingPairsAsNew: 0,
	deltasExpected: 0,
	deltasShown: 0,
};
const repos = new Set<string>();
const languages = new Set<string>();
await ensureMeasureLanguages(["a.ts", "a.js", "a.py", "a.go", "a.rs", "a.java"]);
try {
	for (const c of cases) {
		const mirror = join(values.mirrors, c.repo, "repo");
		if (!existsSync(mirror)) throw new Error(`no mirror of ${c.repo} at ${mirror}`);
		const dir = await stage(mirror, c.repo, c.commit);
		const json = JSON.parse(contour(dir, ["--json"])) as ReportJson;
		const text = contour(dir, []);
		if (values.discover) {
			results.push({
				repo: c.repo,
				commit: c.commit,
				subject: c.subject,
				findings: json.findings.map((f) => ({ kind: f.kind, file: f.file, title: f.title, tests: f.tests === true })),
				deltas: json.story.production.complexity.map((d) => ({
					callable: d.name,
					before: d.before,
					after: d.complexity,
				})),
			});
			continue;
		}
		repos.add(c.repo);
		languages.add(c.language);
		const findings = json.findings.map((f) => {
			const label = c.findings.find(
				(l) => l.kind === f.kind && (named(f.title).includes(l.about) || f.file === l.about),
			);
			return {
				kind: f.kind,
				title: f.title,
				tests: f.tests === true,
				keep: label?.keep,
				labelled: label !== undefined,
			};
		});
		const clones = json.findings.filter((f) => f.kind === "exact-clone" || f.kind === "near-clone");
		const seen = new Set<string>();
		let duplicates = 0;
		let preexisting = 0;
		for (const clone of clones) {
			const members = clone.witnesses.filter((w) => w.side === "after").map((w) => `${w.file}:${w.line}`);
			if (members.some((m) => seen.has(m))) duplicates++;
			for (const m of members) seen.add(m);
			preexisting += preexistingPairs(dir, clone);
		}
		// Shown as the story's `name before → after`, or in a finding's title (`name` cyclomatic complexity a → b).
		const shown = c.deltas.filter(
			(d) =>
				text.includes(`\`${d.callable}\` ${d.before} → ${d.after}`) ||
				text.includes(`\`${d.callable}\` cyclomatic complexity ${d.before} → ${d.after}`),
		);
		totals.cases++;
		totals.findings += findings.length;
		totals.kept += findings.filter((f) => f.keep === true).length;
		totals.production += findings.filter((f) => !f.tests).length;
		totals.productionKept += findings.filter((f) => !f.tests && f.keep === true).length;
		totals.unlabelled += findings.filter((f) => !f.labelled).length;
		totals.cloneFindings += clones.length;
		totals.cloneGroupDuplicates += duplicates;
		totals.preexistingPairsAsNew += preexisting;
		totals.deltasExpected += c.deltas.length;
		totals.deltasShown += shown.length;
		results.push({
			repo: c.repo,
			commit: c.commit.slice(0, 12),
			findings: findings.length,
			kept: findings.filter((f) => f.keep === true).length,
			unlabelled: findings.filter((f) => !f.labelled).map((f) => `${f.kind} ${f.title}`),
			cloneGroupDuplicates: duplicates,
			preexistingPairsAsNew: preexisting,
			deltasShown: `${shown.length}/${c.deltas.length}`,
			...(shown.length < c.deltas.length
				? {
						deltasMissing: c.deltas
							.filter((d) => !shown.includes(d))
							.map((d) => `${d.callable} ${d.before} → ${d.after}`),
					}
				: {}),
		});
	}
} finally {
	if (!values.keep) rmSync(work, { recursive: true, force: true });
}

const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 1000) / 1000);
console.log(
	JSON.stringify(
		values.discover
			? results
			: {
					summary: {
						cases: totals.cases,
						repositories: repos.size,
						languages: [...languages].sort(),
						findings: totals.findings,
						precision: ratio(totals.kept, totals.findings),
						productionFindings: totals.production,
						productionPrecision: ratio(totals.productionKept, totals.production),
						unlabelledFindings: totals.unlabelled,
						cloneFindings: totals.cloneFindings,
						cloneGroupDuplicates: totals.cloneGroupDuplicates,
						preexistingPairsAsNew: totals.preexistingPairsAsNew,
						deltasShown: `${totals.deltasShown}/${totals.deltasExpected}`,
						deltasShownShare: ratio(totals.deltasShown, totals.deltasExpected),
					},
					cases: results,
				},
		null,
		2,
	),
);
