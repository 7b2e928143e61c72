// Route queries against a lexical baseline on real repositories, side by side in one run (issue 31, "Routes and
// shared literals"): a query naming a route (`GET /users/:id`, as the code writes it) should find the file defining
// its handler first.
//
//   node bench/fovea-routes.bench.ts [--corpus DIR] [--repos express,examples,...] [--limit N]
//
// Cases are derived mechanically from each repository's HEAD tree, by patterns of the bench's own
// (`support/routes/route-cases.ts`), not by the engine's route extractors: every route declaration found in
// application code (not tests) is a query `METHOD path`; its gold is the file defining the handler. Each query goes to
// Fovea's `focus` and to BM25 over the same files (the engine's own tokenizer), and each is scored by Acc@1 (a gold
// file first) and MRR (1 / rank of the best-ranked gold file within the first 50). The output is JSON: per
// repository the case count, both rankers' Acc@1 and MRR with their ratio, and every case's ranks.
//
// --corpus: where the repositories are, as `<owner>+<name>/repo` Git directories (default $FOVEA_BENCH_CORPUS or
// /work/.mirror); a missing one is reported as not measured. The repositories are only read (`git archive`); the
// temp directories are removed at the end.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { git } from "./support/git.ts";
import { corpusPath } from "./support/localization/corpora.ts";
import { scoreCase } from "./support/localization/metrics.ts";
import { MAX_TOKENS } from "./support/localization/text-case.ts";
import { TreeStates } from "./support/localization/tree-states.ts";
import { makeWorkDir, removeWorkDir } from "./support/localization/work-dirs.ts";
import { routeCases } from "./support/routes/route-cases.ts";

/** The repositories measured: real applications and examples of four languages and seven frameworks. */
const REPOS = [
	{ repo: "expressjs/express", language: "JavaScript", frameworks: "Express" },
	{ repo: "gin-gonic/examples", language: "Go", frameworks: "Gin" },
	{ repo: "tiangolo/full-stack-fastapi-template", language: "Python", frameworks: "FastAPI" },
	{ repo: "pallets/flask", language: "Python", frameworks: "Flask" },
	{ repo: "spring-projects/spring-petclinic", language: "Java", frameworks: "Spring" },
] as const;

const { values } = parseArgs({
	options: {
		corpus: { type: "string" },
		repos: { type: "string" },
		limit: { type: "string", default: "200" },
	},
});
const corpus = values.corpus ?? process.env.FOVEA_BENCH_CORPUS ?? "/work/.mirror";
const limit = Number(values.limit);
if (!Number.isInteger(limit) || limit <= 0) {
	process.stderr.write("fovea-routes: --limit must be a positive integer\n");
	process.exit(2);
}
const wanted = values.repos?.split(",").filter((s) => s !== "");
const selected = REPOS.filter(
	(r) => wanted === undefined || wanted.some((w) => r.repo === w || r.repo.endsWith(`/${w}`)),
);

interface Scores {
	acc1: number;
	mrr: number;
}

const round = (n: number) => Math.round(n * 1000) / 1000;
const summary = (rrs: readonly number[]): Scores => ({
	acc1: round(rrs.filter((rr) => rr === 1).length / Math.max(1, rrs.length)),
	mrr: round(rrs.reduce((s, rr) => s + rr, 0) / Math.max(1, rrs.length)),
});
const ratio = (x: number, y: number) => (y === 0 ? null : round(x / y));

const results: unknown[] = [];
const pooled = { fovea: [] as number[], bm25: [] as number[] };
for (const { repo, language, frameworks } of selected) {
	const path = corpusPath(corpus, repo);
	if (path === undefined) {
		results.push({ repo, language, measured: false, reason: `no mirror under ${corpus}` });
		continue;
	}
	const workDir = makeWorkDir();
	const states = new TreeStates(path, workDir);
	try {
		const head = (await git(path, ["rev-parse", "HEAD^{commit}"])).trim();
		const state = await states.at(head);
		const files = new Map<string, string>();
		for (const file of state.indexed) files.set(file, readFileSync(join(workDir, "tree", file), "utf8"));
		const cases = routeCases(files)
			.map((c) => ({ ...c, gold: c.gold.filter((g) => state.indexed.has(g)) }))
			.filter((c) => c.gold.length > 0)
			.slice(0, limit);
		const detail = [];
		const rr = { fovea: [] as number[], bm25: [] as number[] };
		for (const c of cases) {
			const answer = await state.map.focus({ text: c.query }, MAX_TOKENS, { paths: [] });
			const fovea = scoreCase(
				answer.files.map((f) => f.file),
				c.gold,
			);
			const bm25 = scoreCase(state.bm25.search(c.query), c.gold);
			rr.fovea.push(fovea.rr);
			rr.bm25.push(bm25.rr);
			detail.push({
				query: c.query,
				gold: c.gold,
				fovea: fovea.ranks,
				bm25: bm25.ranks,
				foveaTop: fovea.top.slice(0, 3),
			});
		}
		pooled.fovea.push(...rr.fovea);
		pooled.bm25.push(...rr.bm25);
		const fovea = summary(rr.fovea);
		const bm25 = summary(rr.bm25);
		results.push({
			repo,
			language,
			frameworks,
			commit: head,
			files: state.indexed.size,
			cases: cases.length,
			fovea,
			bm25,
			ratio: { acc1: ratio(fovea.acc1, bm25.acc1), mrr: ratio(fovea.mrr, bm25.mrr) },
			detail,
		});
	} finally {
		states.close();
		removeWorkDir(workDir);
	}
}
const fovea = summary(pooled.fovea);
const bm25 = summary(pooled.bm25);
process.stdout.write(
	`${JSON.stringify(
		{
			benchmark: "fovea-routes",
			metric: "Acc@1 (a gold file first) and MRR of focus against BM25 for route queries METHOD path",
			pooled: {
				cases: pooled.fovea.length,
				fovea,
				bm25,
				ratio: { acc1: ratio(fovea.acc1, bm25.acc1), mrr: ratio(fovea.mrr, bm25.mrr) },
			},
			repos: results,
		},
		null,
		2,
	)}\n`,
);
