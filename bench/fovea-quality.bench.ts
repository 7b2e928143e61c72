// Fovea's ranking quality on real history: git-history file localization. For each first-parent commit that changes
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
// are left out, and a commit that only adds files is skipped. Merges and the root commit are skipped; so are commits
// changing more than 20 supported source files (imports, vendored drops, mass renames), which no query localizes.
// Gold files the engine does not index (ignored, too large, in skipped directories) are dropped from the gold set,
// since neither ranker sees them; a case with no indexed gold file is skipped.
//
// Each case's parent tree is written with `git archive | tar -x` (supported sources, `.gitignore`s, `tsconfig.json`
// and `go.mod` only) into the same temp directory, so one fact cache serves every tree and unchanged files are not
// parsed again; the repository itself is only read. Everything is removed at the end.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { FactCache } from "../packages/fovea/src/engine/cache/fact-cache.ts";
import { CodeMap, languageOf, terms } from "../packages/fovea/src/engine/index.ts";
import { git, materialize } from "./support/git.ts";

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
const TOP = 10;
/** How deep both rankings go for MRR: `focus` returns at most 50 files. */
const DEPTH = 50;
const CONFIG_FILES = new Set([".gitignore", "tsconfig.json", "go.mod"]);

interface Case {
	commit: string;
	parent: string;
	subject: string;
	/** Supported source files the commit changes (any status). */
	changed: number;
	gold: string[];
}

type Skip = "merge-or-root" | "no-source" | "too-many-files" | "added-only" | "gold-not-indexed" | "no-query-terms";

// ---------------------------------------------------------------- history

async function collectCases(repo: string): Promise<{ cases: Case[]; skipped: Record<Skip, number>; scanned: number }> {
	const skipped: Record<Skip, number> = {
		"merge-or-root": 0,
		"no-source": 0,
		"too-many-files": 0,
		"added-only": 0,
		"gold-not-indexed": 0,
		"no-query-terms": 0,
	};
	const log = await git(repo, ["log", "--first-parent", "-z", "--format=%H%x09%P%x09%s", "HEAD"]);
	const cases: Case[] = [];
	let scanned = 0;
	for (const record of log.split("\0")) {
		if (record.trim() === "" || cases.length >= LIMIT) continue;
		scanned++;
		const [commit = "", parents = "", subject = ""] = record.replace(/^\n/, "").split("\t");
		const parentList = parents.split(" ").filter((p) => p !== "");
		if (parentList.length !== 1) {
			skipped["merge-or-root"]++;
			continue;
		}
		const parent = parentList[0] as string;
		const diff = await git(repo, ["diff-tree", "-r", "-z", "--no-commit-id", "--name-status", "-M", parent, commit]);
		const fields = diff.split("\0");
		const changed = new Set<string>();
		const gold = new Set<string>();
		for (let i = 0; i < fields.length; ) {
			const status = fields[i++] ?? "";
			if (status === "") continue;
			const kind = status.charAt(0);
			const first = fields[i++] ?? "";
			const second = kind === "R" || kind === "C" ? (fields[i++] ?? "") : undefined;
			for (const path of second === undefined ? [first] : [first, second]) {
				if (languageOf(path) !== undefined) changed.add(path);
			}
			if (languageOf(first) === undefined) continue;
			if (kind === "M" || kind === "T" || kind === "D" || kind === "R") gold.add(first);
		}
		if (changed.size === 0) skipped["no-source"]++;
		else if (changed.size > MAX_CHANGED) skipped["too-many-files"]++;
		else if (gold.size === 0) skipped["added-only"]++;
		else cases.push({ commit, parent, subject, changed: changed.size, gold: [...gold].sort() });
	}
	return { cases, skipped, scanned };
}

/** Writes the parts of `parent`'s tree the engine reads into `into` (emptied first). */
async function writeTree(repo: string, parent: string, into: string): Promise<void> {
	rmSync(into, { recursive: true, force: true });
	mkdirSync(into, { recursive: true });
	const listing = await git(repo, ["ls-tree", "-r", "-z", "--name-only", parent]);
	const patterns = new Set<string>();
	for (const path of listing.split("\0")) {
		if (path === "") continue;
		const name = path.slice(path.lastIndexOf("/") + 1);
		if (CONFIG_FILES.has(name)) patterns.add(`:(literal)${path}`);
		else if (languageOf(path) !== undefined) patterns.add(`*${name.slice(name.lastIndexOf("."))}`);
	}
	if (patterns.size > 0) await materialize(repo, parent, into, [...patterns]);
}

// ---------------------------------------------------------------- BM25 baseline

const K1 = 1.2;
const B = 0.75;

interface Doc {
	path: string;
	tf: Map<string, number>;
	length: number;
}

/** Term frequencies by content, so a file unchanged between trees is tokenized once. */
const tokenized = new Map<string, { tf: Map<string, number>; length: number }>();

function document(path: string, content: string): Doc {
	const key = createHash("sha1").update(path).update("\0").update(content).digest("hex");
	let entry = tokenized.get(key);
	if (entry === undefined) {
		const tf = new Map<string, number>();
		let length = 0;
		for (const term of [...terms(content), ...terms(path)]) {
			tf.set(term, (tf.get(term) ?? 0) + 1);
			length++;
		}
		entry = { tf, length };
		if (tokenized.size > 100_000) tokenized.clear();
		tokenized.set(key, entry);
	}
	return { path, ...entry };
}

/** BM25 (k1 = 1.2, b = 0.75, idf = ln(1 + (N − df + ½)/(df + ½))) over `docs`; files with a positive score, best first. */
function bm25(docs: readonly Doc[], query: string): string[] {
	const queryTerms = [...new Set(terms(query))];
	const n = docs.length;
	if (n === 0 || queryTerms.length === 0) return [];
	const avgdl = docs.reduce((sum, d) => sum + d.length, 0) / n;
	const idf = new Map<string, number>();
	for (const term of queryTerms) {
		let df = 0;
		for (const d of docs) if (d.tf.has(term)) df++;
		idf.set(term, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
	}
	const scored: { path: string; score: number }[] = [];
	for (const d of docs) {
		let score = 0;
		for (const term of queryTerms) {
			const f = d.tf.get(term);
			if (f === undefined) continue;
			score += ((idf.get(term) as number) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avgdl));
		}
		if (score > 0) scored.push({ path: d.path, score });
	}
	scored.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
	return scored.map((s) => s.path);
}

// ---------------------------------------------------------------- scoring

interface Score {
	recallAt10: number;
	reciprocalRank: number;
	/** 1-based rank of each gold file within the first `DEPTH`, or null. */
	ranks: Record<string, number | null>;
	top: string[];
}

function score(ranking: readonly string[], gold: readonly string[]): Score {
	const within = ranking.slice(0, DEPTH);
	const ranks: Record<string, number | null> = {};
	for (const g of gold) {
		const at = within.indexOf(g);
		ranks[g] = at < 0 ? null : at + 1;
	}
	const found = Object.values(ranks).filter((r): r is number => r !== null);
	return {
		recallAt10: found.filter((r) => r <= TOP).length / gold.length,
		reciprocalRank: found.length === 0 ? 0 : 1 / Math.min(...found),
		ranks,
		top: within.slice(0, TOP),
	};
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
	let last: { parent: string; map: CodeMap; docs: Doc[]; indexed: ReadonlySet<string> } | undefined;
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
			const map = new CodeMap(tree, { cache: new FactCache(tree, { cacheDir }) });
			const { snapshot } = await map.refresh();
			await map.index.flush();
			timing.indexMs += performance.now() - t;
			t = performance.now();
			const docs = [...snapshot.files.keys()].map((path) => document(path, readFileSync(join(tree, path), "utf8")));
			timing.bm25Ms += performance.now() - t;
			last = { parent: c.parent, map, docs, indexed: new Set(snapshot.files.keys()) };
		}
		const { map, docs, indexed } = last;
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
		const lexical = bm25(docs, c.subject);
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
		`${results.length} cases from ${scanned} first-parent commits (skipped: ${Object.entries(skipped)
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
