/**
 * Files that define what a change defines: the sibling implementations of one interface or method set (Go's
 * `render/json.go` and `render/xml.go` both define `Render` and `WriteContentType`; Java classes implementing one
 * interface; Python backends with the same methods). An API-wide edit changes them together, yet no edge links them:
 * neither imports nor calls the other, and their texts differ in all but those names.
 *
 * A file scores the summed weight (idf over the files that define the name) of the names it defines that the changed
 * production files define too, at any depth (top level or a member). A name defined by more than
 * `MAX_DEFINER_SHARE` of the files (`String`, `__init__`, `toString`) or none but the change tells no sibling apart;
 * private names (`_x`) are a file's own.
 */
import type { CodeGraph } from "../graph/index.ts";
import { manyOf } from "../model/index.ts";
import { fileRole } from "./file-role.ts";

/** Names kept per file as its evidence, rarest first. */
const EVIDENCE_NAMES = 3;
/**
 * A name defined by more than this share of the files is a convention (`String`, `__init__`, `setUp`), not a
 * contract that ties two files together.
 */
const MAX_DEFINER_SHARE = 0.05;

/** A file that defines names the change defines: their summed weight, and the rarest of them. */
export interface SiblingFile {
	id: number;
	score: number;
	/** Up to three of the shared names, rarest first: what `also defines …` says. */
	names: string[];
}

/**
 * The files (by node id) that define names the `changed` production files define (see the module comment), best
 * first, at most `limit`, the changed files left out. Pure over the graph.
 */
export function siblingDefinitions(graph: CodeGraph, changed: readonly number[], limit: number): SiblingFile[] {
	const leaveOut = new Set(changed);
	const names = new Set<string>();
	for (const file of changed) {
		const path = graph.nodes[file]?.path;
		if (path === undefined || fileRole(path) !== "production") continue;
		for (const id of graph.symbolIds.get(path) ?? []) {
			const node = graph.nodes[id];
			if (node !== undefined && node.removed !== true && !node.name.startsWith("_")) names.add(node.name);
		}
	}
	const files = Math.max(1, graph.fileCount);
	const weighed: { name: string; idf: number; definers: number[] }[] = [];
	for (const name of names) {
		const definers = new Set<number>();
		for (const id of manyOf(graph.byName.get(name))) {
			const file = graph.fileNode.get(graph.nodes[id]?.path ?? "");
			if (file !== undefined && !leaveOut.has(file)) definers.add(file);
		}
		if (definers.size === 0 || definers.size > files * MAX_DEFINER_SHARE) continue;
		weighed.push({ name, idf: Math.log(files / definers.size), definers: [...definers] });
	}
	weighed.sort((a, b) => b.idf - a.idf || (a.name < b.name ? -1 : 1));
	const found = new Map<number, SiblingFile>();
	for (const { name, idf, definers } of weighed) {
		for (const id of definers) {
			const seen = found.get(id) ?? { id, score: 0, names: [] };
			seen.score += idf;
			if (seen.names.length < EVIDENCE_NAMES) seen.names.push(name);
			found.set(id, seen);
		}
	}
	return [...found.values()].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
}
