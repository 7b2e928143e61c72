/**
 * What a change exposes: the code that depends on it, found by following the graph's edges backwards from the
 * changed nodes (importers, callers, subclasses and implementers, tests), hop by hop with decay.
 *
 * Why not heat: heat diffuses over the symmetric rows, so a file's own imports and callees get as much heat as its
 * importers and callers, and `impact top.py` listed what top.py uses. Exposure has a direction: a change to `low.py`
 * can break `mid.py`, which imports it, and through it `top.py`; a change to `top.py` breaks neither.
 *
 * The reach: the strongest path, with decay per hop, at most `MAX_HOPS` hops from the change.
 * - A changed file is changed in all its symbols; a changed symbol in its members too. Their files are the change.
 * - A dependent `u` of a reached node `v` is reached with `score(v) × RELATION_DECAY[relation] × share` (the share is
 *   below 1 when a call's name matched several definitions and was split between them, and `WEAK_SHARE` when the
 *   link is a guess), and keeps the best such path: a score is how surely the change reaches it along its strongest
 *   chain of dependencies. Reasons do not add up into the score: summed (or or-ed) reasons let a test of an
 *   importer, which imports, calls and tests it, outrank the importer itself, two hops ahead of one. They break ties
 *   instead: among equally exposed nodes, the one with more distinct reasons (edges into the reach: more changed
 *   functions called) ranks first.
 * - A reached symbol reaches its file as much (a file is exposed through whichever of its symbols is), and both are
 *   followed further: the file's importers and tests, the symbol's callers and subclasses.
 * - Relaxation runs in rounds from what improved in the last one, so a longer but surer chain (a test of a caller)
 *   replaces a shorter, weaker one; nodes below `MIN_FOLLOWED` are ranked but not followed.
 *
 * The decays are priors on how surely a dependent breaks when what it depends on changes, not fitted to a corpus: a
 * test exists to exercise its subject; a subclass or an implementation inherits a contract; a caller depends on one
 * function's; an import alone may use any part of a module, or none of what changed.
 *
 * Each reached node keeps its strongest single reason as evidence (relation, what it depends on, which of its nodes
 * holds the relation, hops from the change), so an answer can say why it ranked.
 */
import type { CodeGraph, Relation } from "../graph/index.ts";
import { RELATION_CODE, RELATIONS, WEAK } from "../graph/index.ts";

/** A relation a dependent holds to what it depends on. */
export type Dependency = Exclude<Relation, "contains">;

/** How much of a change reaches a dependent along one edge, by the dependent's relation to the changed code. */
export const RELATION_DECAY: Readonly<Record<Dependency, number>> = {
	tests: 0.9,
	inherits: 0.8,
	implements: 0.8,
	calls: 0.7,
	imports: 0.5,
	route: 0.7,
	literal: 0.4,
};

/**
 * How much a guessed link (`WEAK`: `x.append()` meeting the one class that defines `append`; a Go test of another
 * file of the package) counts of a sure one: a guessed caller ranks below a file two explicit imports away
 * (0.7 × ⅓ < 0.5 × 0.5), a package's other tests below the changed file's importers (0.9 × ⅓ < 0.5).
 */
const WEAK_SHARE = 1 / 3;

/** Hops from the change followed at most. */
const MAX_HOPS = 4;
/** Nodes reached with less than this are ranked but not followed. */
const MIN_FOLLOWED = 0.05;

/** Why a node was reached: its strongest single reason. */
export interface ReachEvidence {
	relation: Dependency;
	/** The node depended on: a changed node (`hops` 1) or an exposed one the reach came through; -1 for a deleted file. */
	target: number;
	/** The node that holds the relation: the reached node itself, or for a file one of its symbols. */
	holder: number;
	/** Hops from the change: 1 when the holder depends on changed code directly. */
	hops: number;
}

/** A reached node with its score (0–1: its strongest path's), how many edges lead it into the reach, its evidence. */
export interface ReachedNode {
	id: number;
	score: number;
	reasons: number;
	/** How the graph reaches it; absent for a file only change coupling or text likeness ranks (`impact-fusion.ts`). */
	evidence?: ReachEvidence;
	/** How often it changed with the change, in how many of the newest commits (change coupling). */
	coupling?: { count: number; window: number };
	/** Its text is like the changed file's: the rare words it shares with it (`similar-files.ts`). */
	similar?: { shared: string[] };
	/** It is a test that names what the change defines: the rarest of those names (`tests-naming.ts`). */
	named?: { names: string[] };
}

/** A file the change depends on itself: shown apart, never ranked as exposure. */
export interface Dependee {
	id: number;
	relation: Dependency;
	/** The node of the dependee the change's edge points at (the file itself, or one of its symbols). */
	target: number;
}

/** The outcome of a reach: exposed files and symbols, best first, and the change's own dependencies. */
export interface Reach {
	files: ReachedNode[];
	symbols: ReachedNode[];
	/** Files the changed files depend on directly (one hop forwards), not exposure. */
	dependsOn: Dependee[];
	/** Changed nodes the reach started from (the changed files' symbols included); 0 when nothing named is mapped. */
	seededNodes: number;
}

/** What changed: nodes (files or symbols) and files that imported a file now deleted (they have no edge left to it). */
export interface ReachSeeds {
	changed: Iterable<number>;
	importersOfGone?: Iterable<number>;
}

/**
 * The nodes that depend on the changed nodes, transitively, with decay (see the module comment); `limit` files and
 * symbols each.
 */
export function dependentReach(graph: CodeGraph, seeds: ReachSeeds, limit = 50): Reach {
	const size = graph.nodes.length;
	const changed = changedNodes(graph, seeds.changed);
	const changedFiles = new Set<number>();
	for (const id of changed) changedFiles.add(fileOf(graph, id));
	changedFiles.delete(-1);
	const score = new Float64Array(size);
	const reasons = new Int32Array(size);
	const relation = new Uint8Array(size);
	const target = new Int32Array(size);
	const holder = new Int32Array(size);
	const hops = new Uint8Array(size);
	const expanded = new Uint8Array(size);
	let improved = new Set<number>();
	const offer = (id: number, c: number, code: number, on: number, by: number, hop: number, first: boolean): void => {
		if (changed.has(id) || (id < graph.fileCount && changedFiles.has(id))) return;
		if (first) reasons[id] = (reasons[id] as number) + 1;
		if (!(c > (score[id] as number))) return;
		score[id] = c;
		relation[id] = code;
		target[id] = on;
		holder[id] = by;
		hops[id] = hop;
		improved.add(id);
	};
	const reach = (id: number, c: number, code: number, on: number, hop: number, first: boolean): void => {
		offer(id, c, code, on, id, hop, first);
		if (id >= graph.fileCount) {
			const file = fileOf(graph, id);
			if (file >= 0) offer(file, c, code, on, id, hop, first);
		}
	};
	for (const id of seeds.importersOfGone ?? []) reach(id, RELATION_DECAY.imports, RELATION_CODE.imports, -1, 1, true);
	const dependents = graph.directed.dependents();
	let frontier: Iterable<number> = [...changed, ...improved];
	improved = new Set();
	for (let round = 1; round <= MAX_HOPS; round++) {
		for (const v of frontier) {
			const from = changed.has(v) ? 1 : (score[v] as number);
			if (from < MIN_FOLLOWED) continue;
			const first = expanded[v] === 0;
			expanded[v] = 1;
			const hop = changed.has(v) ? 1 : (hops[v] as number) + 1;
			const end = dependents.offsets[v + 1] ?? 0;
			for (let e = dependents.offsets[v] ?? 0; e < end; e++) {
				const flagged = dependents.relations[e] as number;
				const code = flagged & ~WEAK;
				// A shared literal bridges its holders only: a dependent's literals are no path from the change.
				if (code === RELATION_CODE.literal && !changed.has(v)) continue;
				const share = (dependents.shares[e] as number) * (flagged === code ? 1 : WEAK_SHARE);
				const decay = RELATION_DECAY[RELATIONS[code] as Dependency];
				reach(dependents.sources[e] as number, from * decay * share, code, v, hop, first);
			}
		}
		if (improved.size === 0) break;
		frontier = improved;
		improved = new Set();
	}
	const ranked = (from: number, to: number): ReachedNode[] => {
		const out: ReachedNode[] = [];
		for (let id = from; id < to; id++) {
			if (!((score[id] as number) > 0) || graph.nodes[id]?.removed === true) continue;
			const evidence = {
				relation: RELATIONS[relation[id] as number] as Dependency,
				target: target[id] as number,
				holder: holder[id] as number,
				hops: hops[id] as number,
			};
			out.push({ id, score: score[id] as number, reasons: reasons[id] as number, evidence });
		}
		return out.sort((a, b) => b.score - a.score || b.reasons - a.reasons || a.id - b.id).slice(0, limit);
	};
	return {
		files: ranked(0, graph.fileCount),
		symbols: ranked(graph.fileCount, size),
		dependsOn: dependees(graph, changedFiles, limit),
		seededNodes: changed.size,
	};
}

/** The changed nodes: each seed, a file's symbols with it, a symbol's members (its container's name is its own). */
function changedNodes(graph: CodeGraph, seeds: Iterable<number>): Set<number> {
	const changed = new Set<number>();
	for (const id of seeds) {
		const node = graph.nodes[id];
		if (node === undefined || node.removed === true) continue;
		changed.add(id);
		const symbols = graph.symbolIds.get(node.path) ?? [];
		for (const symbol of symbols) {
			if (id < graph.fileCount || graph.nodes[symbol]?.container === node.name) changed.add(symbol);
		}
	}
	return changed;
}

/** The file node of `id` (itself for a file), or -1. */
function fileOf(graph: CodeGraph, id: number): number {
	if (id < graph.fileCount) return id;
	const path = graph.nodes[id]?.path;
	return path === undefined ? -1 : (graph.fileNode.get(path) ?? -1);
}

/** Files the changed files depend on directly, by their strongest relation (in `RELATION_DECAY` order), by path. */
function dependees(graph: CodeGraph, changedFiles: ReadonlySet<number>, limit: number): Dependee[] {
	const found = new Map<number, Dependee>();
	for (const file of changedFiles) {
		forEachDependee(graph, file, (dependee) => {
			if (changedFiles.has(dependee.id)) return;
			const seen = found.get(dependee.id);
			if (seen === undefined || RELATION_DECAY[dependee.relation] > RELATION_DECAY[seen.relation])
				found.set(dependee.id, dependee);
		});
	}
	const path = (id: number) => graph.nodes[id]?.path ?? "";
	return [...found.values()].sort((a, b) => (path(a.id) < path(b.id) ? -1 : 1)).slice(0, limit);
}

/**
 * Every file the `changed` files depend on, transitively (their dependencies' dependencies, at most `MAX_HOPS`
 * away), the changed files left out: what a change relies on, which no signal may present as what it exposes.
 */
export function upstreamFiles(graph: CodeGraph, changed: Iterable<number>): Set<number> {
	const start = new Set(changed);
	const seen = new Set<number>();
	let frontier = [...start];
	for (let hop = 0; hop < MAX_HOPS && frontier.length > 0; hop++) {
		const next: number[] = [];
		for (const file of frontier)
			forEachDependee(graph, file, ({ id }) => {
				if (start.has(id) || seen.has(id)) return;
				seen.add(id);
				next.push(id);
			});
		frontier = next;
	}
	return seen;
}

/** Each file `file` depends on through a sure edge (guesses are left out), with the relation and the node it points at. */
function forEachDependee(graph: CodeGraph, file: number, each: (dependee: Dependee) => void): void {
	const path = graph.nodes[file]?.path;
	const edges = path === undefined ? undefined : graph.directed.edgesOf(path);
	if (edges === undefined) return;
	for (let i = 0; i < edges.b.length; i++) {
		const code = edges.r[i] as number;
		if (code === RELATION_CODE.contains || (code & WEAK) !== 0) continue;
		const on = edges.b[i] as number;
		const id = fileOf(graph, on);
		if (id >= 0 && id !== file) each({ id, relation: RELATIONS[code] as Dependency, target: on });
	}
}
