/**
 * The code graph as plain data: its nodes, why two nodes are linked, and what the graph asks of import resolution.
 * Types only, so every module of the graph and the ranking can name them without loading the builders.
 */
import type { FileFacts, Ids, SymbolKind } from "../model/index.ts";
import type { Dependents } from "./dependents.ts";
import type { FileEdges } from "./edges.ts";
import type { SparseGraph } from "./sparse-graph.ts";

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
	/** The edges with their direction, which the symmetric rows lose: what impact follows. */
	directed: DirectedEdges;
}

/**
 * The graph's edges as their owners derived them: from a dependent (importer, caller, subclass, test) to what it
 * depends on. Read by impact only, so focus and edits never pay for the reversed index.
 */
export interface DirectedEdges {
	/** Who depends on each node, built on first use per generation of the graph. */
	dependents(): Dependents;
	/** The edges `path`'s facts contribute (what it depends on), if it is in the graph. */
	edgesOf(path: string): FileEdges | undefined;
}

/** How the graph learns which files an import or a test points at (resolution is language-specific). */
export interface GraphLinks {
	imports(file: FileFacts): readonly string[];
	subjects(path: string): readonly string[];
}
