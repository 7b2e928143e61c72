import { BudgetedText } from "./budget.ts";
import type { CoverageGap, FileFacts } from "./facts.ts";
import type { CodeGraph, GraphNode } from "./graph.ts";
import { gapLine } from "./render-focus.ts";

/** What a sketch shows: the root's shape (directories, languages) and its most connected files. */
export interface SketchContext {
	root: string;
	graph: CodeGraph;
	files: ReadonlyMap<string, FileFacts>;
	gaps: readonly CoverageGap[];
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

/** An overview of a root within `maxTokens`: size, languages, directories, central files, coverage gaps. */
export function renderSketch(context: SketchContext): string {
	const { graph, files, gaps } = context;
	const out = new BudgetedText(context.maxTokens);
	const footer = gapLine(gaps);
	const reserve = footer.length + 80;
	const languages = new Map<string, number>();
	for (const facts of files.values()) languages.set(facts.language, (languages.get(facts.language) ?? 0) + 1);
	const languageList = [...languages]
		.sort((a, b) => b[1] - a[1])
		.map(([l, n]) => `${l} ${n}`)
		.join(", ");
	out.add(
		`fovea sketch · root ${context.root} · ${graph.fileCount} files (${languageList || "none"}), ${graph.nodes.length - graph.fileCount} symbols, ${graph.targets.length / 2} edges`,
	);
	const directories = new Map<string, string[]>();
	for (const path of files.keys()) {
		const slash = path.lastIndexOf("/");
		const dir = slash < 0 ? "." : path.slice(0, slash);
		directories.set(dir, [...(directories.get(dir) ?? []), path.slice(slash + 1)]);
	}
	const central = centralFiles(graph);
	out.add("Most connected files (symbols inside):", reserve);
	let shown = 0;
	for (const id of central.slice(0, 25)) {
		const path = (graph.nodes[id] as GraphNode).path;
		const names = (files.get(path)?.symbols ?? [])
			.filter((s) => s.exported !== false && s.container === undefined)
			.slice(0, 5)
			.map((s) => s.name);
		if (!out.add(`  ${path}${names.length > 0 ? ` — ${names.join(", ")}` : ""}`, reserve)) break;
		shown++;
	}
	out.add(`Directories (${directories.size}):`, reserve);
	const sortedDirs = [...directories].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
	let dirsShown = 0;
	for (const [dir, names] of sortedDirs) {
		if (
			!out.add(
				`  ${dir}/  ${names.length} files (${names.slice(0, 4).join(", ")}${names.length > 4 ? ", …" : ""})`,
				reserve,
			)
		)
			break;
		dirsShown++;
	}
	const hidden = central.length - shown + (sortedDirs.length - dirsShown);
	if (hidden > 0)
		out.add(`Beyond this: ${central.length - shown} more files, ${sortedDirs.length - dirsShown} more directories.`);
	if (footer) out.add(footer);
	return out.toString();
}
