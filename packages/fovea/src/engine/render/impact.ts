/**
 * An impact answer: what depends on a change, each item with why it ranked (`imports it`, `calls applyTax`, `tests
 * it`, `subclass of Base`, `implements Shape`, and for what the reach passed through, `via mid.py (imports it)`),
 * as text within a token budget and as items for machines. The change's own dependencies are listed apart, labelled
 * as not exposure.
 */
import type { CodeGraph, GraphNode } from "../graph/index.ts";
import {
	couplingText,
	type Dependee,
	namingText,
	type Reach,
	type ReachEvidence,
	type ReachedNode,
	similarText,
} from "../rank/index.ts";
import { BudgetedText, budgetChars } from "./budget.ts";
import { coverageFooter } from "./coverage.ts";
import type { FocusContext, FocusItem } from "./focus.ts";
import { qualified } from "./focus.ts";

/** An exposed file or symbol as machines read it: a focus item with why it ranked. */
export interface ImpactItem extends FocusItem {
	/** Why it ranked, as the text answer says it. */
	why: string;
	/** How often it changed with the change, in how many of the newest commits (change coupling). */
	coupling?: { count: number; window: number };
	/** The rare words its text shares with the changed file's, when it reads like it. */
	similar?: { shared: string[] };
	/** It is a test that names what the change defines: the rarest of those names. */
	named?: { names: string[] };
	/** How the graph reaches it; absent for a file only change coupling or text likeness ranks. */
	evidence?: {
		relation: ReachEvidence["relation"];
		/** What it depends on: a changed or exposed symbol's qualified name, a file's path, or `(deleted file)`. */
		on: string;
		/** The route (`GET /users/:id`) or literal (`"x-request-id"`) a route or literal edge shares. */
		shares?: string;
		/** The file the reach came through, when it is not the change itself. */
		via?: string;
		hops: number;
	};
}

/** A file the change itself depends on (not exposure). */
export interface DependeeItem {
	file: string;
	relation: Dependee["relation"];
	on: string;
}

/** Items of a reach: exposed files and symbols with their evidence, and what the change depends on. */
export function impactItems(
	reach: Reach,
	graph: CodeGraph,
): { files: ImpactItem[]; symbols: ImpactItem[]; dependsOn: DependeeItem[] } {
	const item = (ranked: ReachedNode): ImpactItem => {
		const node = graph.nodes[ranked.id] as GraphNode;
		const { evidence } = ranked;
		const out: ImpactItem = {
			file: node.path,
			line: node.line,
			kind: node.kind,
			name: qualified(node),
			score: Math.round(ranked.score * 1e6) / 1e6,
			why: whyRanked(graph, ranked),
		};
		if (evidence !== undefined) {
			const on = nameOf(graph, evidence.target);
			const via = evidence.hops > 1 ? graph.nodes[evidence.target]?.path : undefined;
			const shares = anchorLabel(graph, evidence);
			out.evidence = {
				relation: evidence.relation,
				on,
				...(shares === undefined ? {} : { shares }),
				...(via === undefined ? {} : { via }),
				hops: evidence.hops,
			};
		}
		if (ranked.coupling !== undefined) out.coupling = ranked.coupling;
		if (ranked.similar !== undefined) out.similar = ranked.similar;
		if (ranked.named !== undefined) out.named = ranked.named;
		if (node.signature !== undefined) out.signature = node.signature;
		return out;
	};
	return {
		files: reach.files.map(item),
		symbols: reach.symbols.map(item),
		dependsOn: reach.dependsOn.map((d) => ({
			file: graph.nodes[d.id]?.path ?? "",
			relation: d.relation,
			on: nameOf(graph, d.target),
		})),
	};
}

/**
 * Why a reached node ranked: the graph's reason, change coupling's, text likeness's, each that applies (`imports it;
 * changed with it 3 times …; similar text ("vnode")`).
 */
export function whyRanked(graph: CodeGraph, ranked: ReachedNode): string {
	const reasons: string[] = [];
	if (ranked.evidence !== undefined) reasons.push(whyOf(graph, ranked.evidence));
	if (ranked.coupling !== undefined) reasons.push(couplingText(ranked.coupling));
	if (ranked.similar !== undefined) reasons.push(similarText(ranked.similar));
	if (ranked.named !== undefined) reasons.push(namingText(ranked.named));
	return reasons.join("; ");
}

/** Why a node ranked, in a few words: `calls applyTax`, `tests it`, `via src/mid.py (imports it)`. */
export function whyOf(graph: CodeGraph, evidence: ReachEvidence): string {
	if (evidence.target < 0) return `${VERB[evidence.relation]} a deleted file`;
	const target = graph.nodes[evidence.target] as GraphNode;
	const object = anchorLabel(graph, evidence) ?? (target.kind === "file" ? "it" : qualified(target));
	const reason = `${VERB[evidence.relation]} ${object}`;
	return evidence.hops > 1 ? `via ${target.path} (${reason})` : reason;
}

const VERB: Readonly<Record<ReachEvidence["relation"], string>> = {
	imports: "imports",
	calls: "calls",
	tests: "tests",
	inherits: "subclass of",
	implements: "implements",
	route: "same route",
	literal: "shares the literal",
};

/**
 * What a route or literal edge shares with its target, as its holder's file recorded it (`GET /users/:id`,
 * `"x-request-id"`); `undefined` for other relations.
 */
export function anchorLabel(graph: CodeGraph, evidence: ReachEvidence): string | undefined {
	if (evidence.relation !== "route" && evidence.relation !== "literal") return undefined;
	const holder = graph.nodes[evidence.holder];
	if (holder === undefined) return undefined;
	return graph.directed.edgesOf(holder.path)?.anchors?.labels.get(evidence.target);
}

/** A node as evidence names it: a symbol's qualified name, a file's path, `(deleted file)` for none. */
function nameOf(graph: CodeGraph, id: number): string {
	if (id < 0) return "(deleted file)";
	const node = graph.nodes[id] as GraphNode;
	return node.kind === "file" ? node.path : qualified(node);
}

/**
 * The impact answer as text for the model, within `maxTokens`. By priority: the header, the coverage footer's room,
 * the exposed files with why, the exposed symbols with their signatures and why, the change's own dependencies on
 * one line labelled as not exposure, a count of what did not fit, and `note` (what the answer could not use).
 */
export function renderImpact(reach: Reach, context: Omit<FocusContext, "title"> & { note?: string }): string {
	const { graph } = context;
	const out = new BudgetedText(context.maxTokens);
	out.addRootHeader(
		"fovea impact · root ",
		context.root,
		` · "${truncate(context.query, 80)}" · ${graph.fileCount} files, ${graph.symbolCount} symbols`,
	);
	const footer = coverageFooter(context.gaps, context.partial, Math.max(0, out.remaining - 1), context.truncated);
	// A note on what the answer could not use (no change coupling: not a Git repository) keeps its room too.
	const note = context.note ?? "";
	const noteChars = note === "" ? 0 : budgetChars(note) + 1;
	const reserve = (footer.length === 0 ? 0 : budgetChars(footer) + 1) + noteChars + BEYOND_LINE_CHARS;
	if (!reach.files.some((r) => r.evidence !== undefined)) {
		out.add(
			reach.seededNodes === 0
				? "None of the files or symbols named is in this root's map (check the paths, relative to the root, and the names)."
				: "Nothing in this root depends on the change: no importer, caller, subclass or test of it was found.",
			reserve,
		);
	}
	const dependsLine = dependsOnLine(reach, graph);
	const held = reserve + (dependsLine === "" ? 0 : budgetChars(dependsLine) + 1);
	const fileLines = reach.files
		.slice(0, MAX_FILE_LINES)
		.map((r) => `  ${graph.nodes[r.id]?.path} — ${whyRanked(graph, r)}`);
	const filesShown = out.addSection(FILES_HEADING, fileLines, held);
	const symbolLines = reach.symbols.slice(0, MAX_SYMBOL_LINES).map((r) => {
		const node = graph.nodes[r.id] as GraphNode;
		const shown = node.signature ?? `${node.kind} ${qualified(node)}`;
		return `  ${node.path}:${node.line}  ${shown} — ${whyRanked(graph, r)}`;
	});
	const symbolsShown = out.addSection(SYMBOLS_HEADING, symbolLines, held);
	if (dependsLine !== "") out.add(dependsLine, reserve);
	const moreFiles = reach.files.length - filesShown;
	const moreSymbols = reach.symbols.length - symbolsShown;
	if (moreFiles > 0 || moreSymbols > 0) {
		out.add(
			`Beyond this: ${moreFiles} more exposed files, ${moreSymbols} more exposed symbols, each less exposed.`,
			reserve - BEYOND_LINE_CHARS,
		);
	}
	if (note !== "") out.add(note, reserve - BEYOND_LINE_CHARS - noteChars);
	if (footer) out.addLines(footer);
	return out.toString();
}

/**
 * The change's own dependencies on one line: the first `DEPENDS_SHOWN` by path and how many more. Its room is kept
 * while exposure is written, so a long answer never hides what the change relies on.
 */
function dependsOnLine(reach: Reach, graph: CodeGraph): string {
	if (reach.dependsOn.length === 0) return "";
	const names = reach.dependsOn.slice(0, DEPENDS_SHOWN).map((d) => `${graph.nodes[d.id]?.path} (${d.relation})`);
	const more = reach.dependsOn.length - names.length;
	return `${DEPENDS_HEADING} ${names.join(", ")}${more > 0 ? `, ${more} more` : ""}`;
}

/** Exposed files and symbols written at most: the files answer first, the symbols say where inside them. */
const MAX_FILE_LINES = 25;
const MAX_SYMBOL_LINES = 12;
/** Files the change depends on named at most on its line. */
const DEPENDS_SHOWN = 6;
/** Room kept for the "Beyond this" line while items are added. */
const BEYOND_LINE_CHARS = 100;
const FILES_HEADING = "Exposed files (what depends on it, changed with it or reads like it; most first; why):";
const SYMBOLS_HEADING = "Exposed symbols (exact signature, file:line; why):";
const DEPENDS_HEADING = "It depends on (not exposure):";

function truncate(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
