import type { CodeGraph, GraphNode } from "../graph/index.ts";
import type { CoverageGap, FileFacts, PartialFile } from "../model/index.ts";
import { BudgetedText, budgetChars } from "./budget.ts";
import { countedNames } from "./collapse.ts";
import { coverageFooter } from "./coverage.ts";
import { outlineNames } from "./file-outline.ts";

/** What a sketch shows: the root's shape (directories, languages) and its most connected files. */
export interface SketchContext {
	root: string;
	graph: CodeGraph;
	files: ReadonlyMap<string, FileFacts>;
	gaps: readonly CoverageGap[];
	/** Files mapped best effort (`IndexSnapshot.partial`). */
	partial: readonly PartialFile[];
	/** The walk stopped at a bound (`IndexSnapshot.truncated`): the footer says the map is partial. */
	truncated?: boolean;
	maxTokens: number;
}

/** The most connected files first: weighted degree of the file and of the symbols it contains. */
export function centralFiles(graph: CodeGraph): number[] {
	const weight = new Float64Array(graph.fileCount);
	for (let id = 0; id < graph.nodes.length; id++) {
		const fileId = id < graph.fileCount ? id : graph.fileNode.get((graph.nodes[id] as GraphNode).path);
		if (fileId === undefined) continue;
		for (let e = graph.offsets[id] as number; e < (graph.offsets[id + 1] as number); e++) {
			const other = graph.targets[e] as number;
			const otherFile = other < graph.fileCount ? other : graph.fileNode.get((graph.nodes[other] as GraphNode).path);
			if (otherFile !== fileId) weight[fileId] = (weight[fileId] as number) + (graph.weights[e] as number);
		}
	}
	return [...weight.keys()].sort((a, b) => (weight[b] as number) - (weight[a] as number) || a - b);
}

/**
 * An overview of a root within `maxTokens`. By priority: the header naming the root, the coverage gaps, the most
 * connected files, the directories, and a count of what did not fit.
 */
export function renderSketch(context: SketchContext): string {
	const { graph, files } = context;
	const out = new BudgetedText(context.maxTokens);
	const languages = new Map<string, number>();
	for (const facts of files.values()) languages.set(facts.language, (languages.get(facts.language) ?? 0) + 1);
	const languageList = [...languages]
		.sort((a, b) => b[1] - a[1])
		.map(([l, n]) => `${l} ${n}`)
		.join(", ");
	out.addRootHeader(
		"fovea sketch · root ",
		context.root,
		` · ${graph.fileCount} files (${languageList || "none"}), ${graph.symbolCount} symbols, ${graph.targets.length / 2} edges`,
	);
	const footer = coverageFooter(context.gaps, context.partial, Math.max(0, out.remaining - 1), context.truncated);
	const reserve = (footer.length === 0 ? 0 : budgetChars(footer) + 1) + 80;
	const central = centralFiles(graph).slice(0, 25);
	const centralLines = central.map((id) => {
		const path = (graph.nodes[id] as GraphNode).path;
		// Overloads (one name several times) are one name with their count.
		const names = countedNames(outlineNames(files.get(path), 20)).slice(0, 5);
		return `  ${path}${names.length > 0 ? ` — ${names.join(", ")}` : ""}`;
	});
	const shown = out.addSection("Most connected files (symbols inside):", centralLines, reserve);
	const directories = new Map<string, string[]>();
	for (const path of files.keys()) {
		const slash = path.lastIndexOf("/");
		const dir = slash < 0 ? "." : path.slice(0, slash);
		directories.set(dir, [...(directories.get(dir) ?? []), path.slice(slash + 1)]);
	}
	const sortedDirs = [...directories].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
	const dirLines = sortedDirs.map(
		([dir, names]) =>
			`  ${dir}/  ${names.length} files (${names.slice(0, 4).join(", ")}${names.length > 4 ? ", …" : ""})`,
	);
	const dirsShown = out.addSection(`Directories (${directories.size}):`, dirLines, reserve);
	const moreFiles = graph.fileCount - shown;
	const moreDirs = sortedDirs.length - dirsShown;
	if (moreFiles > 0 || moreDirs > 0) {
		out.add(`Beyond this: ${moreFiles} more files, ${moreDirs} more directories.`, reserve - 80);
	}
	if (footer) out.addLines(footer);
	return out.toString();
}
