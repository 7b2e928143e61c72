// Fovea's ranking quality on real history: git-history file localization. For each non-merge commit that changes
// 1–20 supported source files, the query is the commit's subject, the gold set is the changed files that exist in the
// parent, and both rankers look at the parent's tree: `CodeMap.focus` (heat) and a BM25 baseline over file contents
// plus path tokens, both with the engine's own tokenizer (`terms`). Scores Recall@10 and MRR for each, same cases.
//
//   npm run bench:fovea-quality    (or: node bench/fovea-quality.bench.ts [--repo PATH] [--limit N] [--json])
//
// --repo: any Git repository (default: this one). --limit: the newest N cases at most (default: all). --json: the
// whole report as JSON, with every case's gold files, both top-10s and the rank of each gold file.
//
// Gold rule: a changed path counts when it exists in the parent tree, i.e. modified (M), type-changed (T), deleted
// (D) or the old side of a rename (R); added files (A) and copy targets (C) cannot be found on the parent, so they
// are left out, and a commit that only adds files is skipped. Merges and the root commit are never cases (a merge's
// subject names a branch, not a change; histories that merge every change still have their commits); nor are commits
// changing more than 20 supported source files (imports, vendored drops, mass renames), which no query localizes.
// Gold files the engine does not index (ignored, too large, in skipped directories) are dropped from the gold set,
// since neither ranker sees them; a case with no indexed gold file is skipped.
//
// Each case's parent tree is written with `git archive | tar -x` (supported sources, `.gitignore`s and the import
// settings files the engine reads: `tsconfig.json`, `package.json`, `go.mod`, `Cargo.toml`…) into one temp directory,
// so one fact cache serves every tree and unchanged files are not parsed again; the repository itself is only read. Everything is removed at the end.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type CodeMap, terms } from "../packages/fovea/src/engine/index.ts";
import { type Bm25Doc, Bm25Index, bm25Doc } from "./support/bm25.ts";
import { cachedCodeMap } from "./support/engine-internals.ts";
import { writeTree } from "./support/engine-tree.ts";
import { git } from "./support/git.ts";
import { recentCommits, sourceChanges, subjectCase } from "./support/localization/history-cases.ts";
import { scoreCase } from "./support/localization/metrics.ts";

const { values } = parseArgs({
	options: {
		repo: { type: "string" },
		limit: { type: "string" },
		json: { type: "boolean", default: false },
		"max-files": { type: "string", default: "20" },
	},
});

const MAX_CHANGED = Math.max(1, Number.parseInt(values["max-files"] ?? "20", 10) || 20);
const LIMIT =
	values.limit === undefined ? Number.POSITIVE_INFINITY : Math.max(1, Number.parseInt(values.limit, 10) || 1);

interface Case {
	commit: string;
	parent: string;
	subject: string;
	/** Supported source files the commit changes (any status). */
	changed: number;
	gold: string[];
}

type Skip = "no-source" | "too-many-files" | "added-only" | "gold-not-indexed" | "no-query-terms";

// ---------------------------------------------------------------- history

/** The newest cases (at most LIMIT) among the repository's non-merge commits, by `subjectCase`'s rules. */
async function collectCases(repo: string): Promise<{ cases: Case[]; skipped: Record<Skip, number>; scanned: number }> {
	const skipped: Record<Skip, number> = {
		"no-source": 0,
		"too-many-files": 0,
		"added-only": 0,
		"gold-not-indexed": 0,
		"no-query-terms": 0,
	};
	const cases: Case[] = [];
	let scanned = 0;
	for (const record of await recentCommits(repo, Number.isFinite(LIMIT) ? LIMIT * 25 + 400 : undefined)) {
		if (cases.length >= LIMIT) break;
		scanned++;
		const found = subjectCase(record, MAX_CHANGED);
		if (typeof found === "string") skipped[found as Exclude<Skip, "gold-not-indexed" | "no-query-terms">]++;
		else {
			const { commit, parent, subject } = record;
			cases.push({ commit, parent, subject, changed: sourceChanges(record).touched.size, gold: found.gold });
		}
	}
	return { cases, skipped, scanned };
}

// ---------------------------------------------------------------- scoring

interface Score {
	recallAt10: number;
	reciprocalRank: number;
	/** 1-based rank of each gold file within the first `DEPTH`, or null. */
	ranks: Record<string, number | null>;
	top: string[];
}

/** Recall@10, reciprocal rank, the rank of each gold file and the top 10, as `scoreCase` computes them. */
function score(ranking: readonly string[], gold: readonly string[]): Score {
	const { recall10, rr, ranks, top } = scoreCase(ranking, gold);
	return { recallAt10: recall10, reciprocalRank: rr, ranks, top };
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const round3 = (n: number) => Math.round(n * 1000) / 1000;

// ---------------------------------------------------------------- main

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(values.repo ?? (await git(here, ["rev-parse", "--show-toplevel"])).trim());
const head = (await git(repo, ["rev-parse", "HEAD"])).trim();
const started = performance.now();
const { cases, skipped, scanned } = await collectCases(repo);

const base = mkdtempSync(join(tmpdir(), "fovea-quality-"));
const tree = join(base, "tree");
const cacheDir = join(base, "cache");
const results: {
	commit: string;
	subject: string;
	files: number;
	gold: string[];
	goldDropped: string[];
	fovea: Score;
	bm25: Score;
}[] = [];
const timing = { materializeMs: 0, indexMs: 0, focusMs: 0, bm25Ms: 0 };
try {
	let last: { parent: string; map: CodeMap; bm25: Bm25Index; indexed: ReadonlySet<string> } | undefined;
	for (const c of cases) {
		if (terms(c.subject).length === 0) {
			skipped["no-query-terms"]++;
			continue;
		}
		if (last?.parent !== c.parent) {
			let t = performance.now();
			await writeTree(repo, c.parent, tree);
			timing.materializeMs += performance.now() - t;
			t = performance.now();
			const map = cachedCodeMap(tree, cacheDir);
			const { snapshot } = await map.refresh();
			await map.index.flush();
			timing.indexMs += performance.now() - t;
			t = performance.now();
			const docs: Bm25Doc[] = [...snapshot.files.keys()].map((path) =>
				bm25Doc(path, readFileSync(join(tree, path), "utf8")),
			);
			timing.bm25Ms += performance.now() - t;
			last = { parent: c.parent, map, bm25: new Bm25Index(docs), indexed: new Set(snapshot.files.keys()) };
		}
		const { map, bm25, indexed } = last;
		const gold = c.gold.filter((g) => indexed.has(g));
		const goldDropped = c.gold.filter((g) => !indexed.has(g));
		if (gold.length === 0) {
			skipped["gold-not-indexed"]++;
			continue;
		}
		let t = performance.now();
		const answer = await map.focus({ text: c.subject }, 1500, { paths: [] });
		timing.focusMs += performance.now() - t;
		t = performance.now();
		const lexical = bm25.search(c.subject);
		timing.bm25Ms += performance.now() - t;
		results.push({
			commit: c.commit.slice(0, 12),
			subject: c.subject,
			files: indexed.size,
			gold,
			goldDropped,
			fovea: score(
				answer.files.map((f) => f.file),
				gold,
			),
			bm25: score(lexical, gold),
		});
	}
} finally {
	rmSync(base, { recursive: true, force: true });
}

const summarize = (pick: (r: (typeof results)[number]) => Score) => ({
	recallAt10: round3(mean(results.map((r) => pick(r).recallAt10))),
	mrr: round3(mean(results.map((r) => pick(r).reciprocalRank))),
});
const fovea = summarize((r) => r.fovea);
const baseline = summarize((r) => r.bm25);
let wins = 0;
let losses = 0;
for (const r of results) {
	if (r.fovea.reciprocalRank > r.bm25.reciprocalRank) wins++;
	else if (r.fovea.reciprocalRank < r.bm25.reciprocalRank) losses++;
}
const report = {
	benchmark: "fovea git-history localization",
	repo,
	head: head.slice(0, 12),
	commitsScanned: scanned,
	cases: results.length,
	skipped,
	goldRule: "changed supported source files present in the parent (M, T, D, R-old); added files excluded",
	maxChangedFiles: MAX_CHANGED,
	fovea,
	bm25: baseline,
	heatBeatsBaseline: {
		recallAt10: results.length > 0 && fovea.recallAt10 > baseline.recallAt10,
		mrr: results.length > 0 && fovea.mrr > baseline.mrr,
	},
	perCaseMrr: { foveaBetter: wins, bm25Better: losses, tied: results.length - wins - losses },
	seconds: Math.round((performance.now() - started) / 100) / 10,
	timingMs: Object.fromEntries(Object.entries(timing).map(([k, v]) => [k, Math.round(v)])),
};

if (values.json === true) {
	process.stdout.write(`${JSON.stringify({ ...report, details: results }, null, 2)}\n`);
} else {
	const pad = (s: string, n: number) => s.padEnd(n);
	const lines = [
		`fovea git-history localization · ${repo} @ ${report.head}`,
		`${results.length} cases from ${scanned} non-merge commits (skipped: ${Object.entries(skipped)
			.filter(([, n]) => n > 0)
			.map(([k, n]) => `${k} ${n}`)
			.join(", ")})`,
		"",
		`${pad("ranker", 16)}${pad("Recall@10", 12)}MRR`,
		`${pad("fovea (heat)", 16)}${pad(fovea.recallAt10.toFixed(3), 12)}${fovea.mrr.toFixed(3)}`,
		`${pad("BM25", 16)}${pad(baseline.recallAt10.toFixed(3), 12)}${baseline.mrr.toFixed(3)}`,
		"",
		`heat beats BM25: Recall@10 ${report.heatBeatsBaseline.recallAt10}, MRR ${report.heatBeatsBaseline.mrr} (per case by reciprocal rank: fovea ${wins}, BM25 ${losses}, tied ${results.length - wins - losses})`,
		`${report.seconds} s (${Object.entries(report.timingMs)
			.map(([k, v]) => `${k} ${v}`)
			.join(", ")})`,
	];
	process.stdout.write(`${lines.join("\n")}\n`);
}
