import { BudgetedText } from "./budget.ts";
import type { CoverageGap } from "./facts.ts";
import type { FocusResult } from "./focus.ts";
import type { CodeGraph, GraphNode } from "./graph.ts";

/** A ranked item as machines read it: the file relative to the root and the 1-based line, in rank order. */
export interface FocusItem {
	file: string;
	line: number;
	kind: string;
	name: string;
	score: number;
	signature?: string;
}

/** What a rendering needs besides the ranking. */
export interface FocusContext {
	root: string;
	query: string;
	graph: CodeGraph;
	gaps: readonly CoverageGap[];
	maxTokens: number;
}

/** Machine-readable focus result: ranked files and symbols. */
export function focusItems(result: FocusResult, graph: CodeGraph): { files: FocusItem[]; symbols: FocusItem[] } {
	const item = (id: number, score: number): FocusItem => {
		const node = graph.nodes[id] as GraphNode;
		const out: FocusItem = {
			file: node.path,
			line: node.line,
			kind: node.kind,
			name: qualified(node),
			score: round(score),
		};
		if (node.signature !== undefined) out.signature = node.signature;
		return out;
	};
	return {
		files: result.files.map((r) => item(r.id, r.score)),
		symbols: result.symbols.map((r) => item(r.id, r.score)),
	};
}

/**
 * The focus result as text for the model, within `maxTokens`: a header naming the root; the hottest symbols with
 * exact signatures and locations; then the hottest files as one-line summaries with their hottest symbols; then
 * counts of what did not fit; and the coverage gaps, so nothing unmapped passes for "nothing relevant".
 */
export function renderFocus(result: FocusResult, context: FocusContext): string {
	const { graph, gaps } = context;
	const out = new BudgetedText(context.maxTokens);
	const footer = gapLine(gaps);
	const reserve = footer.length + 120;
	out.add(
		`fovea focus · root ${context.root} · "${truncate(context.query, 80)}" · ${graph.fileCount} files, ${graph.nodes.length - graph.fileCount} symbols`,
	);
	if (result.files.length === 0) {
		out.add(
			result.seededNodes === 0
				? `No file or symbol matches ${JSON.stringify(result.terms)}.`
				: "No heat reached any node.",
		);
		if (footer) out.add(footer);
		return out.toString();
	}
	const shownSymbols = new Set<number>();
	let symbolsShown = 0;
	if (result.symbols.length > 0) out.add("Hottest symbols (exact signature, file:line):", reserve);
	for (const ranked of result.symbols.slice(0, 12)) {
		const node = graph.nodes[ranked.id] as GraphNode;
		if (!out.add(`  ${node.path}:${node.line}  ${node.signature ?? `${node.kind} ${qualified(node)}`}`, reserve)) break;
		shownSymbols.add(ranked.id);
		symbolsShown++;
	}
	let filesShown = 0;
	out.add("Hottest files:", reserve);
	for (const ranked of result.files) {
		const node = graph.nodes[ranked.id] as GraphNode;
		const inside = result.symbols
			.filter((s) => graph.nodes[s.id]?.path === node.path && !shownSymbols.has(s.id))
			.slice(0, 4)
			.map((s) => qualified(graph.nodes[s.id] as GraphNode));
		const line = `  ${node.path}${inside.length > 0 ? ` — ${inside.join(", ")}` : ""}`;
		if (!out.add(line, reserve)) break;
		filesShown++;
	}
	const moreFiles = result.files.length - filesShown;
	const moreSymbols = result.symbols.length - symbolsShown;
	if (moreFiles > 0 || moreSymbols > 0)
		out.add(
			`Beyond this: ${moreFiles} more warm files, ${moreSymbols} more warm symbols (raise maxTokens to see them).`,
		);
	if (footer) out.add(footer);
	return out.toString();
}

/** One line summarizing the coverage gaps by reason, with a few examples. */
export function gapLine(gaps: readonly CoverageGap[]): string {
	if (gaps.length === 0) return "";
	const byReason = new Map<string, string[]>();
	for (const gap of gaps) byReason.set(gap.reason, [...(byReason.get(gap.reason) ?? []), gap.path]);
	const parts = [...byReason].map(
		([reason, paths]) => `${paths.length} ${reason} (${paths.slice(0, 2).join(", ")}${paths.length > 2 ? ", …" : ""})`,
	);
	return `Not mapped: ${gaps.length} files: ${parts.join("; ")}.`;
}

function qualified(node: GraphNode): string {
	return node.container !== undefined ? `${node.container}.${node.name}` : node.name;
}

function truncate(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function round(n: number): number {
	return Math.round(n * 1e6) / 1e6;
}
