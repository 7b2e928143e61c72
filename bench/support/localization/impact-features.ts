// What impact knows about one candidate file, as numbers a learned fusion could weigh (`impact-fit.ts`): each
// signal's reciprocal-rank credit (the credits `rank/impact-fusion.ts` sums, so the engine's fusion is one weight
// vector, `ENGINE_WEIGHTS`), and what the path and the change's history say beside them. Built from dumped signals
// (FOVEA_BENCH_SIGNALS), so a new feature or weight can be judged offline in seconds, leaving one repository out.
import { fileRole, subjectStem } from "../../../packages/fovea/src/engine/rank/file-role.ts";

/** One signal's view of a candidate: its 1-based rank in the signal's list, how sure the signal is of it (0–1). */
export interface SignalRank {
	rank: number;
	sure: number;
	/** How strong its evidence is beside the signal's others, 0–1 (see `IMPACT_FEATURES`). */
	strength: number;
}

/** The signals that ranked one candidate file, by root-relative path. */
export interface CandidateSignals {
	path: string;
	reach?: SignalRank;
	coupling?: SignalRank;
	text?: SignalRank;
	named?: SignalRank;
}

/** What a case says about the change itself: its file, and its own history in the coupling window. */
export interface ChangeContext {
	changed: string;
	/** The share of the change's coupling weight that went to tests; undefined without history. */
	testShare: number | undefined;
	/** The change's commits in the window (the coupling weights' sum: each commit spreads one unit). */
	commits: number;
}

/** Reciprocal rank fusion's constant, the engine's (`rank/impact-fusion.ts`; `impact-fit.ts` checks they agree). */
const K = 5;

/**
 * The features, in the order of a feature vector and of a weight vector, with what each is:
 * reach, coupling, text, named — each signal's credit sure/(K + rank), as the engine's fusion sums them;
 * test — the candidate is a test (`fileRole`); ownTest — a test named for the changed file (`test_X.py` for `X.py`,
 * `X_test.go`, `X.spec.ts`, `XTest.java`); sameFolder — it sits in the changed file's folder;
 * textStrength — its BM25 score over text's best; couplingShare — the share of its own commits that were with the
 * change; direct — the reach's evidence is one hop; testHistory — a test, times the change's test share;
 * roleHistory — a test's fused credits times the change's test share; couplingDeep / textShallow — coupling's
 * credit times how deep the change's history is (16 commits or more: 1), text's times how shallow;
 * coupledTestHistory — a test that changed with the change, times the change's test share.
 */
export const IMPACT_FEATURES = [
	"reach",
	"coupling",
	"text",
	"named",
	"test",
	"ownTest",
	"sameFolder",
	"textStrength",
	"couplingShare",
	"direct",
	"testHistory",
	"roleHistory",
	"couplingDeep",
	"textShallow",
	"coupledTestHistory",
] as const;

/** The engine's fusion as weights of `IMPACT_FEATURES`: equal credits, a naming test's at half. */
export const ENGINE_WEIGHTS: readonly number[] = IMPACT_FEATURES.map((name) =>
	name === "named" ? 0.5 : ["reach", "coupling", "text"].includes(name) ? 1 : 0,
);

/** Features that scale a credit (searched as its multiples); the others are bonuses of a credit's size. */
export const CREDIT_FEATURES: ReadonlySet<string> = new Set([
	"reach",
	"coupling",
	"text",
	"named",
	"roleHistory",
	"couplingDeep",
	"textShallow",
]);

/** The share of `coupled`'s weight on tests: how much the change's own commits carried tests. */
export function testShareOf(coupled: readonly { path: string; weight: number }[]): number | undefined {
	let tests = 0;
	let all = 0;
	for (const c of coupled) {
		all += c.weight;
		if (fileRole(c.path) === "test") tests += c.weight;
	}
	return all > 0 ? tests / all : undefined;
}

function credit(signal: SignalRank | undefined): number {
	return signal === undefined ? 0 : signal.sure / (K + signal.rank);
}

function folderOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash < 0 ? "" : path.slice(0, slash);
}

/** The feature vector of `candidate` in `IMPACT_FEATURES`' order: credits in [0, 1/(K+1)], the rest in [0, 1]. */
export function impactFeatures(candidate: CandidateSignals, change: ChangeContext): number[] {
	const isTest = fileRole(candidate.path) === "test";
	const ownTest = isTest && subjectStem(candidate.path).toLowerCase() === subjectStem(change.changed).toLowerCase();
	const share = change.testShare;
	const deep = Math.min(1, change.commits / 16);
	const fused = ENGINE_WEIGHTS.slice(0, 4).reduce(
		(sum, w, k) => sum + w * credit([candidate.reach, candidate.coupling, candidate.text, candidate.named][k]),
		0,
	);
	return [
		credit(candidate.reach),
		credit(candidate.coupling),
		credit(candidate.text),
		credit(candidate.named),
		isTest ? 1 : 0,
		ownTest ? 1 : 0,
		folderOf(candidate.path) === folderOf(change.changed) ? 1 : 0,
		candidate.text?.strength ?? 0,
		candidate.coupling?.strength ?? 0,
		candidate.reach?.strength ?? 0,
		isTest ? (share ?? 0) : 0,
		isTest && share !== undefined ? fused * share : 0,
		credit(candidate.coupling) * deep,
		credit(candidate.text) * (1 - deep),
		isTest && candidate.coupling !== undefined ? (share ?? 0) : 0,
	];
}
