// A learned fusion of impact's signals, fit offline from dumped signals (FOVEA_BENCH_SIGNALS, `run-history.ts`): each
// case's candidates become feature vectors (`impact-features.ts`), weights are learned from some repositories'
// cases (by coordinate search on Recall@10 + MRR, or a pairwise logistic ranker), and each repository is judged only
// by the weights learned without it (leave one repository out).
import { readFileSync } from "node:fs";
import {
	type CandidateSignals,
	CREDIT_FEATURES,
	IMPACT_FEATURES,
	impactFeatures,
	testShareOf,
} from "./impact-features.ts";
import type { ImpactSignals } from "./impact-signals.ts";

/** One dumped impact case: its repository, query file, gold files, the four rankings and the signals. */
export interface DumpedCase {
	repo: string;
	id: string;
	query: string;
	gold: string[];
	ranked: Record<string, string[]>;
	signals: ImpactSignals;
}

/** A case ready to rank: candidate paths, their feature vectors, which are gold. */
export interface FitCase {
	repo: string;
	id: string;
	paths: string[];
	features: number[][];
	gold: Set<string>;
	goldCount: number;
	ranked: Record<string, string[]>;
}

/** The dumped cases of `files` (JSON lines), the first `limit` of each repository, in file order. */
export function readDumps(files: readonly string[], limit: number): DumpedCase[] {
	const perRepo = new Map<string, number>();
	const cases: DumpedCase[] = [];
	for (const file of files) {
		for (const line of readFileSync(file, "utf8").split("\n")) {
			if (line.trim() === "") continue;
			const c = JSON.parse(line) as DumpedCase;
			const seen = perRepo.get(c.repo) ?? 0;
			if (seen >= limit) continue;
			perRepo.set(c.repo, seen + 1);
			cases.push(c);
		}
	}
	return cases;
}

/**
 * The candidates of a dumped case as the engine's fusion sees them: every file a signal ranked, the query left out,
 * text's files that the query itself depends on left out unless another signal found them.
 */
export function candidatesOf(c: DumpedCase): CandidateSignals[] {
	const byPath = new Map<string, CandidateSignals>();
	const at = (path: string) => {
		const found = byPath.get(path) ?? { path };
		byPath.set(path, found);
		return found;
	};
	const s = c.signals;
	s.reach.forEach((r, i) => {
		if (r.path !== c.query)
			at(r.path).reach = { rank: i + 1, sure: Math.min(1, r.score), strength: r.hops === 1 ? 1 : 0 };
	});
	s.coupling
		.filter((r) => r.score > 0 && r.path !== c.query)
		.forEach((r, i) => {
			const strength = r.score / Math.max(r.score, r.commits ?? 0);
			at(r.path).coupling = { rank: i + 1, sure: 1 - 0.5 ** r.score, strength };
		});
	const found = new Set(byPath.keys());
	const upstream = new Set(s.upstream);
	const text = s.text.filter((r) => r.path !== c.query && (found.has(r.path) || !upstream.has(r.path)));
	const topText = text[0]?.score ?? 1;
	text.forEach((r, i) => {
		at(r.path).text = { rank: i + 1, sure: 1, strength: topText > 0 ? r.score / topText : 0 };
	});
	s.named
		.filter((r) => r.path !== c.query)
		.forEach((r, i) => {
			at(r.path).named = { rank: i + 1, sure: 1, strength: 1 };
		});
	return [...byPath.values()];
}

/** Each dumped case with its candidates' feature vectors. */
export function fitCases(dumps: readonly DumpedCase[]): FitCase[] {
	return dumps.map((c) => {
		const candidates = candidatesOf(c);
		const coupled = c.signals.coupling.filter((r) => r.path !== c.query);
		const change = {
			changed: c.query,
			testShare: testShareOf(coupled.map((r) => ({ path: r.path, weight: r.weight ?? 0 }))),
			commits: coupled.reduce((sum, r) => sum + (r.weight ?? 0), 0),
		};
		return {
			repo: c.repo.split("/").slice(-2, -1)[0] ?? c.repo,
			id: c.id,
			paths: candidates.map((x) => x.path),
			features: candidates.map((x) => impactFeatures(x, change)),
			gold: new Set(c.gold),
			goldCount: c.gold.length,
			ranked: c.ranked,
		};
	});
}

/** A case's candidates ranked by `weights` (ties by path), at most 50. */
export function rankCase(c: FitCase, weights: readonly number[]): string[] {
	const scored = c.paths.map((path, i) => ({ path, score: dot(weights, c.features[i] ?? []) }));
	scored.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
	return scored.slice(0, 50).map((x) => x.path);
}

function dot(a: readonly number[], b: readonly number[]): number {
	let sum = 0;
	for (let i = 0; i < a.length; i++) sum += (a[i] ?? 0) * (b[i] ?? 0);
	return sum;
}

/** Recall@10 and reciprocal rank of `ranking` against the case's gold. */
export function scoreRanking(c: FitCase, ranking: readonly string[]): { recall10: number; rr: number } {
	let hits = 0;
	let first = 0;
	ranking.forEach((p, i) => {
		if (!c.gold.has(p)) return;
		if (i < 10) hits++;
		if (first === 0) first = i + 1;
	});
	return { recall10: hits / c.goldCount, rr: first === 0 ? 0 : 1 / first };
}

/** Options of the pairwise fit. */
export interface FitOptions {
	/** Only non-gold candidates within this rank of the starting weights' ranking make pairs (the top is what counts). */
	depth: number;
	/** L2 penalty toward the starting weights. */
	l2: number;
	iterations: number;
}

/**
 * Weights that make each gold candidate outscore the other candidates of its case (pairwise logistic loss, each case
 * weighing the same, features scaled to unit spread while fitting), starting from and shrunk toward `start`.
 */
export function fitWeights(cases: readonly FitCase[], start: readonly number[], options: FitOptions): number[] {
	const n = IMPACT_FEATURES.length;
	const pairs: { diff: number[]; weight: number }[] = [];
	for (const c of cases) {
		const top = new Set(rankCase(c, start).slice(0, options.depth));
		const goldAt = c.paths.flatMap((p, i) => (c.gold.has(p) ? [i] : []));
		const otherAt = c.paths.flatMap((p, i) => (!c.gold.has(p) && top.has(p) ? [i] : []));
		const count = goldAt.length * otherAt.length;
		for (const g of goldAt)
			for (const o of otherAt) {
				const fg = c.features[g] ?? [];
				const fo = c.features[o] ?? [];
				pairs.push({ diff: fg.map((v, k) => v - (fo[k] ?? 0)), weight: 1 / count });
			}
	}
	const scale = Array.from({ length: n }, (_, k) => {
		const mean = pairs.reduce((s, p) => s + Math.abs(p.diff[k] ?? 0), 0) / Math.max(1, pairs.length);
		return mean > 0 ? mean : 1;
	});
	// Fit in scaled units: w' = w * scale.
	const w = start.map((v, k) => v * (scale[k] ?? 1));
	const w0 = [...w];
	const total = pairs.reduce((s, p) => s + p.weight, 0);
	let rate = 1;
	for (let it = 0; it < options.iterations; it++) {
		const grad = new Array<number>(n).fill(0);
		for (const p of pairs) {
			let m = 0;
			for (let k = 0; k < n; k++) m += (w[k] ?? 0) * ((p.diff[k] ?? 0) / (scale[k] ?? 1));
			const g = -p.weight / (1 + Math.exp(m));
			for (let k = 0; k < n; k++) grad[k] = (grad[k] ?? 0) + g * ((p.diff[k] ?? 0) / (scale[k] ?? 1));
		}
		for (let k = 0; k < n; k++) {
			const step = (grad[k] ?? 0) / total + options.l2 * ((w[k] ?? 0) - (w0[k] ?? 0));
			w[k] = (w[k] ?? 0) - rate * step;
		}
		if (it % 100 === 99) rate *= 0.7;
	}
	return w.map((v, k) => v / (scale[k] ?? 1));
}

/** Each repository's mean Recall@10 and MRR under `weights`. */
export function perRepository(cases: readonly FitCase[], weights: readonly number[]): Map<string, [number, number]> {
	const sums = new Map<string, { r: number; m: number; n: number }>();
	for (const c of cases) {
		const s = scoreRanking(c, rankCase(c, weights));
		const at = sums.get(c.repo) ?? { r: 0, m: 0, n: 0 };
		at.r += s.recall10;
		at.m += s.rr;
		at.n++;
		sums.set(c.repo, at);
	}
	return new Map([...sums].map(([repo, s]) => [repo, [s.r / s.n, s.m / s.n]]));
}

/**
 * How good `weights` are on `cases`, against the `reference` weights: the mean over repositories of the gain in
 * Recall@10 plus MRR (every repository weighs the same), or with `maximin` the worst repository's smaller gain first
 * (a tenth of the mean gain breaks ties), since a change is kept only if no corpus loses.
 */
export function objective(
	cases: readonly FitCase[],
	weights: readonly number[],
	reference: Map<string, [number, number]>,
	maximin: boolean,
): number {
	const gains = [...perRepository(cases, weights)].map(([repo, [r, m]]) => {
		const [r0, m0] = reference.get(repo) ?? [0, 0];
		return [r - r0, m - m0] as const;
	});
	const mean = gains.reduce((s, [r, m]) => s + r + m, 0) / Math.max(1, gains.length);
	if (!maximin) return mean;
	return Math.min(...gains.map(([r, m]) => Math.min(r, m))) + 0.1 * mean;
}

/**
 * Weights found by coordinate search on the benchmark's own measure (`objective`), from `start`: each weight in turn
 * takes the best of a few values (credits scaled from 0 to 3 times, path features small bonuses or penalties against a
 * credit's 1/6 at most), the reach's weight fixed at 1 (only ratios rank), a few passes.
 */
export function searchWeights(
	cases: readonly FitCase[],
	start: readonly number[],
	fixed: ReadonlySet<number> = new Set(),
	maximin = false,
	passes = 2,
): number[] {
	const reference = perRepository(cases, start);
	const credits = [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3];
	const bonuses = [-0.16, -0.08, -0.04, -0.02, -0.01, 0, 0.01, 0.02, 0.04, 0.08, 0.16];
	const w = [...start];
	let best = objective(cases, w, reference, maximin);
	for (let pass = 0; pass < passes; pass++) {
		let moved = false;
		for (let k = 1; k < w.length; k++) {
			const values = CREDIT_FEATURES.has(IMPACT_FEATURES[k] ?? "") ? credits : bonuses;
			if (fixed.has(k)) continue;
			for (const v of values) {
				const trial = [...w];
				trial[k] = v;
				const score = objective(cases, trial, reference, maximin);
				if (score > best + 1e-9) {
					best = score;
					w[k] = v;
					moved = true;
				}
			}
		}
		if (!moved) break;
	}
	return w;
}
