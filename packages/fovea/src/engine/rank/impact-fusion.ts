/**
 * Where impact's signals meet: the graph's reach (what depends on the change), change coupling (what changed with it
 * in the root's history) and text likeness (what reads like it, `similar-files.ts`). Each ranks files its own way and
 * none is right alone: the reach misses the test that exercises a module through its package's entry point, history
 * misses a file too new to have changed with it, text misses the caller that shares no rare word. They are fused by
 * reciprocal rank (Cormack et al., SIGIR 2009): a file scores Σ 1/(K + its rank in each signal), so a file near the
 * top of two signals beats one first in a single one, and no signal's scale (a reach score, a commit count, a BM25
 * score) has to be made comparable with another's. Equal weights: none was tuned against another on any corpus.
 *
 * Each credit is weighed by how sure its own signal is of that file, in its own terms, so a signal's first file with
 * thin evidence does not count as much as another's first file with strong evidence: the reach's score (how surely the
 * change reaches it along its strongest chain: 0.9 for its test, 0.25 two imports away), and for change coupling
 * 1 − 2^−count (one co-change is as likely chance as not; each more halves the doubt). Text likeness has no such
 * measure that means the same from one file to the next (a BM25 score depends on the query's length), so it counts
 * whole. On the localization benchmark's impact task (60 cases of each of six histories, replayed from the signals)
 * it raised Recall@10 on vuejs/core, ripgrep and this repository (+2.5–10%) and lowered none by more than 1.1%.
 *
 * `K` is small (5, where web search uses 60): an impact answer is read in its first ten files, and a large K
 * flattens the difference between a signal's first and tenth file. Scores are divided by the best a file could
 * reach (first in every signal that ranked anything), so they lie in (0, 1]. With no other signal (no history, no
 * text asked) the reach is returned as it is.
 *
 * Change coupling ranks by weight, then count; among files coupled with the change equally (same weight and count,
 * common where one commit changed them all), the one that changed in fewer of the window's commits comes first: more of
 * its changes were with the change, so the co-change says more about it (a file that changes with everything says
 * little about any one change). On the benchmark's impact task (six histories, 80 cases each replayed from the
 * signals, and 40 each run) this ordering of ties lowered no corpus on Recall@10 or MRR and raised five.
 *
 * A fourth list, the tests that name what the change defines (`tests-naming.ts`), finds the test no edge links (it
 * reaches the module through a package's entry point or a fixture); a name match is a guess, as likely chance as not,
 * so its credits count half. On the benchmark's impact task (six histories, 80 cases each, the first and the last 40
 * apart) it raised Recall@10 or MRR on five histories on both halves and cost this repository's MRR 0.01 (tests
 * pushing a production file one place down). A changed test gives it no names: they are its cases, not an API.
 *
 * Each file keeps the evidence of every signal that ranked it: the reach's relation, how often it changed with the
 * change, the rare words it shares, the names it holds. The change's own dependencies are not exposure: text likeness never brings them in on
 * its own (nor what they depend on in turn), history does when they changed with it (and says so). Symbols are left as the reach ranked them.
 */
import type { CodeGraph } from "../graph/index.ts";
import { type Reach, type ReachedNode, upstreamFiles } from "./dependent-reach.ts";
import type { SimilarFile } from "./similar-files.ts";
import type { NamingTest } from "./tests-naming.ts";

/**
 * A file (node id) coupled with the changed ones by the graph's coupled edges: how often, and how much (commits
 * weighted by their size), it changed with them.
 */
export interface CouplingEvidence {
	id: number;
	count: number;
	weight: number;
	/** The window's commits that changed this file (with the change or not): fewer is more specific to the change. */
	commits: number;
}

/** What fusion takes beside the reach: coupled files and similar files (by node id), the coupling window. */
export interface FusionSignals {
	coupled?: readonly CouplingEvidence[];
	/** Commits the coupling was mined from, said in its evidence. */
	window?: number;
	similar?: readonly SimilarFile[];
	/** Tests that name what the changed files define (`tests-naming.ts`). */
	named?: readonly NamingTest[];
}

/** Reciprocal rank fusion's constant (see the module comment). */
const K = 5;
/** How sure a test's naming of the change's definitions is: a name match is a guess, as likely chance as not. */
const NAMING_SURE = 0.5;

/**
 * `reach` with its files ranked by the fused signals (see the module comment), at most `limit` (default 50), the
 * files of `changed` left out; each file carries the evidence of every signal that ranked it. Pure.
 */
export function fuseImpact(
	reach: Reach,
	graph: CodeGraph,
	signals: FusionSignals,
	options: { changed: ReadonlySet<string>; limit?: number },
): Reach {
	const limit = options.limit ?? 50;
	const coupled = (signals.coupled ?? []).filter(
		(c) => c.count > 0 && c.id < graph.fileCount && !options.changed.has(graph.nodes[c.id]?.path ?? ""),
	);
	// What the change itself relies on is not exposure: text likeness never brings it in on its own (a file that also
	// depends on the change, or changed with it, keeps its likeness: Go files of one package call each other).
	const changedIds = [...options.changed].map((f) => graph.fileNode.get(f)).filter((id) => id !== undefined);
	const upstream = (signals.similar?.length ?? 0) > 0 ? upstreamFiles(graph, changedIds) : new Set<number>();
	const found = new Set([...reach.files.map((r) => r.id), ...coupled.map((c) => c.id)]);
	const similar = (signals.similar ?? []).filter(
		(s) => !options.changed.has(graph.nodes[s.id]?.path ?? "") && (found.has(s.id) || !upstream.has(s.id)),
	);
	const named = (signals.named ?? []).filter((t) => !options.changed.has(graph.nodes[t.id]?.path ?? ""));
	// The reach alone keeps its own scores: how surely the change reaches each file.
	if (coupled.length === 0 && similar.length === 0 && named.length === 0) return reach;
	const used =
		[reach.files.length, coupled.length, similar.length].filter((n) => n > 0).length +
		(named.length > 0 ? NAMING_SURE : 0);
	const fused = new Map<number, ReachedNode>();
	const credit = (id: number, rank: number, sure: number): ReachedNode => {
		const node = fused.get(id) ?? { id, score: 0, reasons: 0 };
		node.score += sure / (K + rank);
		fused.set(id, node);
		return node;
	};
	reach.files.forEach((file, at) => {
		const node = credit(file.id, at + 1, Math.min(1, file.score));
		node.reasons = file.reasons;
		if (file.evidence !== undefined) node.evidence = file.evidence;
	});
	[...coupled].sort(byCoupling).forEach((c, at) => {
		const node = credit(c.id, at + 1, 1 - 0.5 ** c.count);
		node.coupling = { count: c.count, window: signals.window ?? 0 };
	});
	similar.forEach((s, at) => {
		const node = credit(s.id, at + 1, 1);
		node.similar = { shared: s.shared };
	});
	named.forEach((t, at) => {
		const node = credit(t.id, at + 1, NAMING_SURE);
		node.named = { names: t.names };
	});
	const best = used / (K + 1);
	for (const node of fused.values()) node.score /= best;
	const files = [...fused.values()].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
	return { ...reach, files };
}

/**
 * How change coupling ranks its files, most surely coupled first: by weight, then count, then fewer commits of the
 * file's own (see the module comment), then node id.
 */
export function byCoupling(a: CouplingEvidence, b: CouplingEvidence): number {
	return weightKey(b.weight) - weightKey(a.weight) || b.count - a.count || a.commits - b.commits || a.id - b.id;
}

/**
 * A coupling weight to compare by: weights are sums of shares (1/10 + 1/10 + 1/10 and 3/10 may differ in the last
 * bit), so weights equal to nine places count as a tie.
 */
function weightKey(weight: number): number {
	return Math.round(weight * 1e9);
}

/** How a coupled file's evidence reads: `changed with it 14 times in the last 1000 commits`. */
export function couplingText(coupling: { count: number; window: number }): string {
	const times = coupling.count === 1 ? "once" : `${coupling.count} times`;
	return `changed with it ${times} in the last ${coupling.window} commits`;
}

/**
 * How a naming test's evidence reads: `holds the words of createRenderer, RendererOptions`. The index matches a name
 * by its words, not as one identifier, and the evidence says no more than that.
 */
export function namingText(named: { names: readonly string[] }): string {
	return `holds the words of ${named.names.join(", ")}`;
}

/** How a similar file's evidence reads: `similar text (rare word stems: hydrat, vnode)`; terms are stems. */
export function similarText(similar: { shared: readonly string[] }): string {
	return similar.shared.length === 0 ? "similar text" : `similar text (rare word stems: ${similar.shared.join(", ")})`;
}
