import type { FileFacts, SymbolKind } from "../model/facts.ts";
import type { Ids } from "../model/one-or-many.ts";
import type { SparseGraph } from "../rank/heat.ts";
import { GraphStore } from "./store.ts";

export { EDGE_WEIGHTS } from "./edges.ts";

/** Why two nodes are linked. */
export type EdgeKind = "contains" | "imports" | "calls" | "inherits" | "tests";

/** A file or symbol node. Files come first: node `i < fileCount` is a file. */
export interface GraphNode {
	kind: "file" | SymbolKind;
	path: string;
	name: string;
	line: number;
	endLine: number;
	signature?: string;
	container?: string;
	/** Set on a symbol an edit removed: the node stays (ids are stable) but has no edges and no name. */
	removed?: boolean;
}

/** The code graph of one root: nodes, a symmetric weighted adjacency, and lookup tables. */
export interface CodeGraph extends SparseGraph {
	nodes: readonly GraphNode[];
	fileCount: number;
	/** Live symbol nodes (nodes beyond the files, minus removed ones). */
	symbolCount: number;
	fileNode: ReadonlyMap<string, number>;
	/** Live symbol nodes by simple name: one id, or a list when several symbols share the name (see `manyOf`). */
	byName: ReadonlyMap<string, Ids>;
	/** Live symbol nodes of each file, in source order. */
	symbolIds: ReadonlyMap<string, readonly number[]>;
	edgeCounts: Record<EdgeKind, number>;
}

/** How the graph learns which files an import or a test points at (resolution is language-specific). */
export interface GraphLinks {
	imports(file: FileFacts): readonly string[];
	subjects(path: string): readonly string[];
}

/**
 * Builds the graph of a root from its files' facts at once (see `GraphStore` for the edit-by-edit form and
 * `fileEdges` for which facts become which edges). Parallel edges merge by adding weights.
 */
export function buildGraph(files: readonly FileFacts[], links: GraphLinks): CodeGraph {
	return new GraphStore(files, links).graph();
}
