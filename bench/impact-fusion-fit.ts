// Learns weights for impact's fused signals and more features (`support/localization/impact-features.ts`) from dumped
// signals and judges them leaving one repository out: each repository is scored only by the weights learned from the
// others, beside the engine's fusion (`ENGINE_WEIGHTS`, which must give the engine's own answers: the script counts
// the cases where it does not) and the best of the three baselines of the same cases.
//
//   FOVEA_BENCH_SIGNALS=/tmp/signals.jsonl node bench/fovea-localization.bench.ts --tasks impact --limit 80
//   FOVEA_BENCH_SIGNALS=/tmp/signals.jsonl node bench/fovea-localization.bench.ts --tasks impact --limit 80 \
//       --histories pallets/flask,expressjs/express,…
//   node bench/impact-fusion-fit.ts /tmp/signals.jsonl… [--limit 80] [--from 0] [--only f1,f2] [--maximin]
//                                   [--method search|pairwise] [--depth 30] [--l2 0.01] [--iterations 400]
//
// --from: judge only each repository's cases after its first N (learning still reads all of the others').
// --only: the features the search may move from the engine's weights. --maximin: learn for the worst repository's
// smaller gain (a change is kept only if no corpus loses) instead of the mean gain.
import { parseArgs } from "node:util";
import { ENGINE_WEIGHTS, IMPACT_FEATURES } from "./support/localization/impact-features.ts";
import {
	type FitCase,
	fitCases,
	fitWeights,
	rankCase,
	readDumps,
	scoreRanking,
	searchWeights,
} from "./support/localization/impact-fit.ts";

const { values, positionals } = parseArgs({
	allowPositionals: true,
	options: {
		limit: { type: "string", default: "80" },
		from: { type: "string", default: "0" },
		depth: { type: "string", default: "30" },
		l2: { type: "string", default: "0.01" },
		iterations: { type: "string", default: "400" },
		start: { type: "string" },
		method: { type: "string", default: "search" },
		only: { type: "string" },
		maximin: { type: "boolean", default: false },
	},
});
if (positionals.length === 0) {
	console.error(
		"usage: node bench/impact-fusion-fit.ts <signals.jsonl>… [--limit 80] [--from 0] [--depth 30] [--l2 0.01]",
	);
	process.exit(2);
}
const from = Number(values.from);
const all = fitCases(readDumps(positionals, Number(values.limit)));
const options = { depth: Number(values.depth), l2: Number(values.l2), iterations: Number(values.iterations) };
const HAND = ENGINE_WEIGHTS;
// --only reach,coupling,…: the features the search may move (the others keep their start).
const movable = values.only === undefined ? IMPACT_FEATURES : values.only.split(",");
const fixed = new Set(IMPACT_FEATURES.flatMap((name, k) => (movable.includes(name) ? [] : [k])));
const start = values.start === undefined ? HAND : values.start.split(",").map(Number);
/** Weights learned from `cases`, by the chosen method. */
const learn = (cases: readonly FitCase[]) =>
	values.method === "pairwise" ? fitWeights(cases, start, options) : searchWeights(cases, start, fixed, values.maximin);

const repos = [...new Set(all.map((c) => c.repo))];
const index = new Map<string, number>();
const judged = all.filter((c) => {
	const at = index.get(c.repo) ?? 0;
	index.set(c.repo, at + 1);
	return at >= from;
});

/** Mean Recall@10 and MRR of one ranker over cases. */
function mean(cases: readonly FitCase[], rank: (c: FitCase) => readonly string[]): [number, number] {
	let r = 0;
	let m = 0;
	for (const c of cases) {
		const s = scoreRanking(c, rank(c));
		r += s.recall10;
		m += s.rr;
	}
	return [r / Math.max(1, cases.length), m / Math.max(1, cases.length)];
}

const f = (x: number) => x.toFixed(3);
const rows: string[] = [];
const totals = { hand: [0, 0], loro: [0, 0], bar: [0, 0] };
let worst = { r: Infinity, m: Infinity };
for (const repo of repos) {
	const test = judged.filter((c) => c.repo === repo);
	if (test.length === 0) continue;
	// Trained on the other repositories' cases, all of them (the held-out half of this one never reaches the fit).
	const weights = learn(all.filter((c) => c.repo !== repo));
	const hand = mean(test, (c) => rankCase(c, HAND));
	const loro = mean(test, (c) => rankCase(c, weights));
	const baselines = ["bm25-mlt", "same-folder", "co-change"].map((b) => mean(test, (c) => c.ranked[b] ?? []));
	const bar: [number, number] = [Math.max(...baselines.map((b) => b[0])), Math.max(...baselines.map((b) => b[1]))];
	worst = { r: Math.min(worst.r, loro[0] - hand[0]), m: Math.min(worst.m, loro[1] - hand[1]) };
	for (const [key, v] of [
		["hand", hand],
		["loro", loro],
		["bar", bar],
	] as const) {
		totals[key][0] = (totals[key][0] ?? 0) + v[0] * test.length;
		totals[key][1] = (totals[key][1] ?? 0) + v[1] * test.length;
	}
	rows.push(
		`${repo.padEnd(28)} ${String(test.length).padStart(3)}  engine ${f(hand[0])}/${f(hand[1])}  ` +
			`loro ${f(loro[0])}/${f(loro[1])}  best baseline ${f(bar[0])}/${f(bar[1])}  ratio ${(loro[0] / bar[0]).toFixed(2)}/${(loro[1] / bar[1]).toFixed(2)}`,
	);
}
console.log(rows.join("\n"));
const n = judged.length;
const t = (v: number[]) => `${f((v[0] ?? 0) / n)}/${f((v[1] ?? 0) / n)}`;
console.log(`pooled ${n} cases: engine ${t(totals.hand)}  loro ${t(totals.loro)}  best baseline ${t(totals.bar)}`);
console.log(`worst per-repository change, leave-one-out against the engine: recall10 ${f(worst.r)}, mrr ${f(worst.m)}`);
const differ = all.filter((c) => rankCase(c, HAND).slice(0, 10).join() !== (c.ranked.fovea ?? []).slice(0, 10).join());
console.log(`engine weights against the engine's own answers: ${differ.length} of ${all.length} top tens differ`);
const full = learn(all);
console.log(
	`weights fit on all cases: ${IMPACT_FEATURES.map((name, k) => `${name} ${(full[k] ?? 0).toFixed(4)}`).join(", ")}`,
);
