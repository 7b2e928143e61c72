/**
 * Where dwell and impact start on the prepared graph. Dwell seeds heat from retained attention (files, line ranges
 * and symbols) and spreads further; impact starts its reach from the changed nodes. Pure, over the graph's node
 * tables.
 */
import { relativeInside } from "../../workspace/path-inside.ts";
import type { CodeGraph } from "../graph/index.ts";
import { attentionTarget, manyOf } from "../model/index.ts";
import type { ReachSeeds } from "./dependent-reach.ts";
import type { FocusQuery, PreparedGraph } from "./prepared-graph.ts";

/** Seed mass per file node for root-relative paths (unknown paths are ignored). */
export function fileSeeds(
	graph: PreparedGraph,
	weighted: ReadonlyArray<readonly [string, number]>,
): Map<number, number> {
	const seeds = new Map<number, number>();
	for (const [path, weight] of weighted) {
		const id = graph.graph.fileNode.get(path);
		if (id !== undefined && weight > 0) seeds.set(id, (seeds.get(id) ?? 0) + weight);
	}
	return seeds;
}

/** Heat seeded from attention (weighted `model/attention-keys.ts` keys), spread `factor` times further than a focus. */
export function dwellQuery(
	graph: PreparedGraph,
	attention: ReadonlyArray<readonly [string, number]>,
	factor: number,
): FocusQuery {
	return { text: "", attention: attentionSeeds(graph, attention), timeScale: factor };
}

/**
 * Seed mass per node for weighted attention keys: a file's node; for a range of its lines, half on the file and half
 * shared by the symbols the range shows (`symbolsShown`; all of it on the file when it shows none); for a symbol
 * name, the live symbols of that name in the path (a file, or a directory and everything below it; `.` for the
 * root). What no longer resolves (a file gone, a symbol renamed) seeds nothing.
 */
export function attentionSeeds(
	graph: PreparedGraph,
	weighted: ReadonlyArray<readonly [string, number]>,
): Map<number, number> {
	const seeds = new Map<number, number>();
	const add = (id: number, mass: number): void => {
		seeds.set(id, (seeds.get(id) ?? 0) + mass);
	};
	for (const [key, weight] of weighted) {
		if (!(weight > 0)) continue;
		const target = attentionTarget(key);
		if ("symbol" in target) {
			const inScope = manyOf(graph.graph.byName.get(target.symbol)).filter(
				(id) => relativeInside(target.path, graph.graph.nodes[id]?.path ?? "") !== undefined,
			);
			for (const id of inScope) add(id, weight / inScope.length);
			continue;
		}
		const file = graph.graph.fileNode.get(target.path);
		if (file === undefined) continue;
		if (!("lines" in target)) {
			add(file, weight);
			continue;
		}
		const shown = symbolsShown(graph.graph, graph.graph.symbolIds.get(target.path) ?? [], target.lines);
		add(file, shown.length === 0 ? weight : weight / 2);
		for (const id of shown) add(id, weight / 2 / shown.length);
	}
	return seeds;
}

/**
 * The symbols among `ids` that lines `first`–`last` show: those lying wholly inside the range, else the innermost
 * ones the range overlaps (a few lines of a method attend the method, not its class as well).
 */
function symbolsShown(graph: CodeGraph, ids: readonly number[], [first, last]: readonly [number, number]): number[] {
	const spans = ids.flatMap((id) => {
		const node = graph.nodes[id];
		return node !== undefined && node.line <= last && node.endLine >= first
			? [{ id, line: node.line, end: node.endLine }]
			: [];
	});
	const inside = spans.filter((span) => span.line >= first && span.end <= last);
	if (inside.length > 0) return inside.map((span) => span.id);
	const holdsAnother = (outer: (typeof spans)[number]) =>
		spans.some((inner) => inner !== outer && inner.line >= outer.line && inner.end <= outer.end);
	return spans.filter((span) => !holdsAnother(span)).map((span) => span.id);
}

/**
 * Where an impact's reach starts (`dependent-reach.ts`): the changed files' nodes and the live symbols the changed
 * names name; `importersOfGone` are the files importing changed files that have no node any more (deleted, or no
 * longer mapped), which a deletion exposes first of all.
 */
export function impactSeeds(
	graph: PreparedGraph,
	changed: { files: readonly string[]; symbols: readonly string[] },
	importersOfGone: readonly string[] = [],
): ReachSeeds {
	const nodes = [
		...fileSeeds(
			graph,
			changed.files.map((path) => [path, 1] as const),
		).keys(),
	];
	for (const name of changed.symbols) nodes.push(...symbolsNamed(graph, name));
	const changedFiles = new Set(changed.files);
	const gone = importersOfGone.filter((path) => !changedFiles.has(path));
	return {
		changed: nodes,
		importersOfGone: fileSeeds(
			graph,
			gone.map((path) => [path, 1] as const),
		).keys(),
	};
}

/**
 * The live symbols `name` names: a simple name (`greet`), or one qualified by its container as answers print it
 * (`Greeter.greet`; Rust's `Type::method` too), which names the symbols of that name in that container only.
 */
export function symbolsNamed(graph: Pick<PreparedGraph, "graph">, name: string): number[] {
	const simple = manyOf(graph.graph.byName.get(name));
	if (simple.length > 0) return [...simple];
	const at = Math.max(name.lastIndexOf("."), name.lastIndexOf("::"));
	if (at <= 0) return [];
	const container = name.slice(0, at);
	const member = name.slice(name.startsWith("::", at) ? at + 2 : at + 1);
	return manyOf(graph.graph.byName.get(member)).filter((id) => graph.graph.nodes[id]?.container === container);
}
