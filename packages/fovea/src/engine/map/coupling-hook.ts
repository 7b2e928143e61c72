/**
 * The one place impact's reach takes in its other signals, apart from the reach so each changes alone: the files that
 * changed with the changed files in the root's history and the files whose text is like theirs, fused with the reach
 * by rank (see `rank/impact-fusion.ts`).
 */
import type { ChangeCoupling, Coupled } from "../history/index.ts";
import {
	type CouplingEvidence,
	type FocusQuery,
	type FusionSignals,
	fuseImpact,
	type PreparedGraph,
	type Reach,
	type SimilarFile,
	similarFiles,
} from "../rank/index.ts";

/** Similar files taken per changed file: as deep as an answer goes. */
const SIMILAR_FILES = 50;

/**
 * The reach fused with change coupling (the files that changed with the changed files, summed over them) and with
 * the files most like them by text; when the root has no history, a note says why and the other signals still count.
 */
export function withCoupling(
	reach: Reach,
	prepared: PreparedGraph,
	coupling: ChangeCoupling,
	changedFiles: readonly string[],
): { reach: Reach; note?: string } {
	const graph = prepared.graph;
	const status = coupling.status;
	const signals: FusionSignals = {};
	if (status.available === true) {
		const found = new Map<string, CouplingEvidence>();
		for (const file of changedFiles)
			for (const c of coupling.coupledWith(file)) {
				const seen = found.get(c.file);
				if (seen === undefined) found.set(c.file, { file: c.file, count: c.count, weight: c.weight });
				else {
					seen.count += c.count;
					seen.weight += c.weight;
				}
			}
		signals.coupled = [...found.values()];
		signals.window = status.commits;
	}
	signals.similar = similarToAll(prepared, changedFiles);
	const fused = fuseImpact(reach, graph, signals, { changed: new Set(changedFiles) });
	if (status.available === false) return { reach: fused, note: `Change coupling: none (${status.reason}).` };
	return { reach: fused };
}

/** The files most like any of `files` by text, their scores summed over them, best first. */
function similarToAll(prepared: PreparedGraph, files: readonly string[]): SimilarFile[] {
	const ids = files.map((f) => prepared.graph.fileNode.get(f)).filter((id): id is number => id !== undefined);
	const leaveOut = new Set(ids);
	const merged = new Map<number, SimilarFile>();
	for (const id of ids) {
		for (const s of similarFiles(prepared.content, id, SIMILAR_FILES, leaveOut)) {
			const seen = merged.get(s.id);
			if (seen === undefined) merged.set(s.id, { ...s });
			else seen.score += s.score;
		}
	}
	return [...merged.values()].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, SIMILAR_FILES);
}

/** Files whose coupling is remembered per root and mined head; past this the memory starts over. */
const MAX_REMEMBERED = 2_000;
/** Each root's coupling lookups at the head they were mined at: a warm focus asks again for the same top files. */
const remembered = new WeakMap<ChangeCoupling, { head: string; byPath: Map<string, Coupled[]> }>();

/** Drops the coupling lookups remembered for `coupling` (its root is paged out). */
export function forgetCouplingLookups(coupling: ChangeCoupling): void {
	remembered.delete(coupling);
}

/** `query` with the root's change coupling as its prior (`rank/coupling-prior.ts`), when the root has history. */
export function withCouplingPrior(query: FocusQuery, coupling: ChangeCoupling): FocusQuery {
	const status = coupling.status;
	if (status.available !== true) return query;
	let memo = remembered.get(coupling);
	if (memo?.head !== status.head) {
		memo = { head: status.head, byPath: new Map() };
		remembered.set(coupling, memo);
	}
	const byPath = memo.byPath;
	return {
		...query,
		coupledWith: (path) => {
			let found = byPath.get(path);
			if (found === undefined) {
				if (byPath.size >= MAX_REMEMBERED) byPath.clear();
				found = coupling.coupledWith(path);
				byPath.set(path, found);
			}
			return found;
		},
	};
}
