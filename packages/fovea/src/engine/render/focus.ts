import type { CodeGraph, GraphNode } from "../graph/index.ts";
import type { CoverageGap, FileFacts, PartialFile } from "../model/index.ts";
import type { FocusResult, RankedNode } from "../rank/index.ts";
import { BudgetedText, budgetChars } from "./budget.ts";
import { countedNames, groupBy, withCount } from "./collapse.ts";
import { coverageFooter } from "./coverage.ts";
import { outlineNames } from "./file-outline.ts";

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
	/** Which tool answers: the header names it. Default `focus`. */
	title?: "focus" | "dwell";
	graph: CodeGraph;
	gaps: readonly CoverageGap[];
	/** Files mapped best effort (`IndexSnapshot.partial`). */
	partial: readonly PartialFile[];
	/** The walk stopped at a bound (`IndexSnapshot.truncated`): the footer says the map is partial. */
	truncated?: boolean;
	/** The files' facts: a file with no warm names to show is summarized by its outline (`file-outline.ts`). */
	files?: ReadonlyMap<string, FileFacts>;
	maxTokens: number;
}

/** A route the query named, as machines read it: the route, where it is declared, and its handler. */
export interface RouteItem {
	method: string;
	path: string;
	file: string;
	line: number;
	/** The handler's qualified name, or its file's path when the handler is the file or written inline. */
	handler: string;
	/** Where the handler is, `file:line`. */
	at: string;
	/** Why it ranked: `same route GET /users/:id`. */
	why: string;
}

/** The routes a focus query named, with their handlers. */
export function routeItems(result: FocusResult, graph: CodeGraph): RouteItem[] {
	return (result.routes ?? []).map(({ route, path }) => {
		const file = graph.nodes[route.file] as GraphNode;
		const handler = graph.nodes[route.handler] as GraphNode;
		return {
			method: route.method,
			path,
			file: file.path,
			line: route.line,
			handler: handler.kind === "file" ? handler.path : qualified(handler),
			at: `${handler.path}:${handler.kind === "file" ? route.line : handler.line}`,
			why: `same route ${route.method} ${path}`,
		};
	});
}

/** Machine-readable focus result: ranked files and symbols, and the routes the query named when it named any. */
export function focusItems(
	result: FocusResult,
	graph: CodeGraph,
): { files: FocusItem[]; symbols: FocusItem[]; routes?: RouteItem[] } {
	const item = ({ id, score }: RankedNode): FocusItem => {
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
	const routes = routeItems(result, graph);
	return {
		files: result.files.map(item),
		symbols: result.symbols.map(item),
		...(routes.length === 0 ? {} : { routes }),
	};
}

/**
 * The focus result as text for the model, within `maxTokens`. By priority: a header naming the root, the coverage
 * gaps (so nothing unmapped passes for "nothing relevant"), room for the paths of the top three files, the hottest
 * symbols with exact signatures and locations, the hottest files as one-line summaries (a top file's names give way
 * before its path does), and a count of what did not fit. A heading is only written with at least one line under it.
 */
export function renderFocus(result: FocusResult, context: FocusContext): string {
	const { graph } = context;
	const out = new BudgetedText(context.maxTokens);
	out.addRootHeader(
		`fovea ${context.title ?? "focus"} · root `,
		context.root,
		` · "${truncate(context.query, 80)}" · ${graph.fileCount} files, ${graph.symbolCount} symbols`,
	);
	const footer = coverageFooter(context.gaps, context.partial, Math.max(0, out.remaining - 1), context.truncated);
	const reserve = footer.length === 0 ? 0 : budgetChars(footer) + 1;
	if (result.files.length === 0) {
		out.add(emptyAnswer(result, context.title ?? "focus", context.query), reserve);
		if (footer) out.addLines(footer);
		return out.toString();
	}
	const beyondReserve = reserve + BEYOND_LINE_CHARS;
	const routeLines = routeItems(result, graph)
		.slice(0, MAX_ROUTE_LINES)
		.map((r) => {
			const declared = `${r.file}:${r.line}`;
			const handler = r.handler === r.file ? declared : `${r.at}  ${r.handler}`;
			return `  ${r.method} ${r.path} → ${handler}${r.at === declared ? "" : ` (declared at ${declared})`}`;
		});
	out.addSection(ROUTES_HEADING, routeLines, beyondReserve);
	// The top files are the answer to "where do I look": a small budget spent on signatures alone left none.
	const keptFiles = result.files
		.slice(0, KEPT_FILES)
		.map((ranked) => `  ${(graph.nodes[ranked.id] as GraphNode).path}`);
	const fileReserve = keptFiles.length === 0 ? 0 : FILES_HEADING.length + 1 + roomFor(keptFiles);
	// Overloads and look-alikes (one name, one kind) are one line, at the best-ranked one, with their count.
	const symbolGroups = groupBy(result.symbols, (ranked) => {
		const node = graph.nodes[ranked.id] as GraphNode;
		return `${node.kind} ${qualified(node)}`;
	}).slice(0, 12);
	const symbolLines = symbolGroups.map(({ first, members }) => {
		const node = graph.nodes[first.id] as GraphNode;
		const line = `  ${node.path}:${node.line}  ${node.signature ?? `${node.kind} ${qualified(node)}`}`;
		const files = new Set(members.map((m) => graph.nodes[m.id]?.path)).size;
		return withCount(line, members.length) + (files > 1 ? ` (in ${files} files)` : "");
	});
	const symbolsShown = out.addSection(SYMBOLS_HEADING, symbolLines, beyondReserve + fileReserve);
	const shownSymbols = new Set(symbolGroups.slice(0, symbolsShown).flatMap((g) => g.members.map((r) => r.id)));
	const fileLines = result.files.map((ranked) => {
		const node = graph.nodes[ranked.id] as GraphNode;
		const warm = countedNames(
			result.symbols
				.filter((s) => graph.nodes[s.id]?.path === node.path && !shownSymbols.has(s.id))
				.map((s) => qualified(graph.nodes[s.id] as GraphNode)),
		).slice(0, 4);
		const inside = warm.length > 0 ? warm : countedNames(outlineNames(context.files?.get(node.path), 12)).slice(0, 3);
		return `  ${node.path}${inside.length > 0 ? ` — ${inside.join(", ")}` : ""}`;
	});
	// A kept file's bare path stands in for its line when its names would take the room of the kept files after it.
	const filesShown = out.addSection(FILES_HEADING, fileLines, beyondReserve, {
		shorter: keptFiles,
		held: (rank) => roomFor(keptFiles.slice(rank + 1)),
	});
	const moreFiles = result.files.length - filesShown;
	const moreSymbols = result.symbols.length - shownSymbols.size;
	if (moreFiles > 0 || moreSymbols > 0) {
		out.add(
			`Beyond this: ${moreFiles} more warm files, ${moreSymbols} more warm symbols (raise maxTokens to see them).`,
			reserve,
		);
	}
	if (footer) out.addLines(footer);
	return out.toString();
}

/** Why an answer lists nothing, in the words of the tool that asked. */
function emptyAnswer(result: FocusResult, title: NonNullable<FocusContext["title"]>, query: string): string {
	if (result.seededNodes === 0) {
		return title === "focus"
			? result.terms.length === 0
				? `No file or symbol matches "${truncate(query, 80)}": it holds no word or name to search for.`
				: `No file or symbol matches "${truncate(query, 80)}" (searched for ${result.terms.join(", ")}).`
			: "None of the files or symbols named is in this root's map (check the paths, relative to the root, and the names).";
	}
	return "No heat reached any node.";
}

/** Characters `lines` take, each with its separator. */
function roomFor(lines: readonly string[]): number {
	return lines.reduce((n, line) => n + budgetChars(line) + 1, 0);
}

/** Room kept for the "Beyond this" line while items are added. */
const BEYOND_LINE_CHARS = 100;
/** Files whose paths are kept room for before any symbol is shown. */
const KEPT_FILES = 3;
const SYMBOLS_HEADING = "Hottest symbols (exact signature, file:line):";
/** Routes the query names, listed at most. */
const MAX_ROUTE_LINES = 5;
const ROUTES_HEADING = "Routes named (same route → handler file:line):";
const FILES_HEADING = "Hottest files:";

/** A symbol as answers print it: `Container.name`, or its bare name at the top level. */
export function qualified(node: GraphNode): string {
	return node.container !== undefined ? `${node.container}.${node.name}` : node.name;
}

function truncate(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function round(n: number): number {
	return Math.round(n * 1e6) / 1e6;
}
