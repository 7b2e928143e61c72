/**
 * The Fovea section appended to a native grep result: where the searched name is defined (signature, file:line),
 * who calls or imports it, and which tests reach it, from the root's code map and within the section's own token
 * budget. Loaded with the engine on the first hybrid grep, never at startup.
 *
 * @module
 */

import { relative, resolve } from "node:path";
import { printable } from "../cli/printable.ts";
import type { GraphNode } from "../engine/graph/index.ts";
import type { CodeMap, MapRefreshOptions } from "../engine/map/code-map.ts";
import { manyOf } from "../engine/model/index.ts";
import { BudgetedText } from "../engine/render/budget.ts";
import { qualified } from "../engine/render/focus.ts";
import { type ImpactItem, impactItems } from "../engine/render/impact.ts";
import { isTestPath } from "../engine/resolve/index.ts";
import type { GrepSubject } from "./grep-subject.ts";

/** Lines per list at most: the section is a pointer into the map, not a second answer. */
const PER_LIST = 6;

/** Where the grep ran, so a path subject can be read relative to it as well as to the root. */
export interface GrepPlace {
	root: string;
	cwd: string;
}

/**
 * The section for `subject` in `map`, or `undefined` when the map knows nothing of it (the native result then stays
 * exactly as it was). Throws what the map throws; the caller turns that into its one-line note.
 */
export async function grepSection(
	map: CodeMap,
	subject: GrepSubject,
	place: GrepPlace,
	maxTokens: number,
	refresh: MapRefreshOptions,
): Promise<string | undefined> {
	const first = await map.refresh(refresh);
	// A first index still running past the grep's patience: grep's result goes out now, with one line saying why
	// the map's section is not there yet (a later grep gets it).
	const indexing = first.snapshot.indexing;
	if (indexing !== undefined) {
		const done = `${indexing.indexed.toLocaleString("en-US")} of ${indexing.total.toLocaleString("en-US")}`;
		return printable(`[fovea: still indexing ${place.root} (${done} files); a later grep gets the code-map section]`);
	}
	if (subject.kind === "route") return routeSection(map, subject.text, place, maxTokens, refresh);
	const { graph } = first;
	const changed =
		subject.kind === "path"
			? { files: pathsOf(graph.graph.fileNode, subject.text, place), symbols: [] }
			: { files: [], symbols: [subject.text] };
	const definitions =
		subject.kind === "path"
			? changed.files.flatMap((file) => topSymbols(graph.graph.nodes, graph.graph.symbolIds.get(file) ?? []))
			: definitionsOf(graph.graph, subject.text);
	if (definitions.length === 0 && changed.files.length === 0) return undefined;
	await map.showSignatures(definitions, first.snapshot);
	const { reach, graph: reached } = await map.exposure(changed, refresh);
	const items = impactItems(reach, reached);
	const direct = (relation: string) => (item: ImpactItem) =>
		item.evidence?.relation === relation && item.evidence.hops === 1 && !isTestPath(item.file);
	const callers = [...items.symbols.filter(direct("calls")), ...items.files.filter(direct("imports"))];
	const tests = items.files.filter((item) => item.evidence?.relation === "tests" || isTestPath(item.file));
	const out = new BudgetedText(maxTokens);
	out.addRootHeader(`── fovea · ${subject.kind} ${subject.text} · `, place.root, " ──");
	list(out, "defined", definitions.map(definitionLine));
	list(
		out,
		"used by",
		callers.map((item) => `${item.file}:${item.line}  ${item.kind === "file" ? "imports it" : item.name}`),
	);
	list(
		out,
		"tests",
		tests.map((item) => `${item.file}:${item.line}`),
	);
	return out.toString();
}

/** A route: the map's best lexical and structural matches for it (a route is not a symbol). */
async function routeSection(
	map: CodeMap,
	route: string,
	place: GrepPlace,
	maxTokens: number,
	refresh: MapRefreshOptions,
): Promise<string | undefined> {
	const answer = await map.focus({ text: route }, maxTokens, refresh);
	const symbols = answer.symbols.slice(0, PER_LIST);
	if (symbols.length === 0) return undefined;
	const out = new BudgetedText(maxTokens);
	out.addRootHeader(`── fovea · route ${route} · `, place.root, " ──");
	list(
		out,
		"related",
		symbols.map((item) => `${item.file}:${item.line}  ${item.signature ?? `${item.kind} ${item.name}`}`),
	);
	return out.toString();
}

/** Symbols named `name` (simple, or qualified by its container as answers print it). */
function definitionsOf(graph: { nodes: readonly GraphNode[]; byName: ReadonlyMap<string, unknown> }, name: string) {
	const simple = name.slice(name.lastIndexOf(".") + 1);
	const ids = manyOf(graph.byName.get(simple) as Parameters<typeof manyOf<number>>[0]);
	const nodes = ids.map((id) => graph.nodes[id]).filter((node): node is GraphNode => node !== undefined);
	return simple === name ? nodes : nodes.filter((node) => qualified(node).endsWith(name));
}

/** A file's outermost symbols, in source order. */
function topSymbols(nodes: readonly GraphNode[], ids: readonly number[]): GraphNode[] {
	return ids
		.map((id) => nodes[id])
		.filter((node): node is GraphNode => node !== undefined && node.container === undefined);
}

/** The map's files a path pattern names: relative to the root, to the grep's cwd, or as a path suffix. */
function pathsOf(files: ReadonlyMap<string, number>, pattern: string, place: GrepPlace): string[] {
	if (files.has(pattern)) return [pattern];
	const fromCwd = relative(place.root, resolve(place.cwd, pattern));
	if (files.has(fromCwd)) return [fromCwd];
	const matches = [...files.keys()].filter((file) => file.endsWith(`/${pattern}`));
	return matches.length <= PER_LIST ? matches : [];
}

function definitionLine(node: GraphNode): string {
	return `${node.path}:${node.line}  ${node.signature ?? `${node.kind} ${qualified(node)}`}`;
}

/** A titled list, cut to PER_LIST lines and to what the budget still holds, saying how many were left out. */
function list(out: BudgetedText, title: string, lines: string[]): void {
	if (lines.length === 0) return;
	if (!out.add(`${title}:`)) return;
	let shown = 0;
	for (const line of lines.slice(0, PER_LIST)) {
		if (!out.add(`  ${line}`, 40)) break;
		shown++;
	}
	if (shown < lines.length) out.add(`  … ${lines.length - shown} more (fovea_focus or fovea_impact lists them)`);
}
