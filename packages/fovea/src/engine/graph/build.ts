import type { FileFacts } from "../model/index.ts";
import type { CodeGraph, GraphLinks } from "./model.ts";
import { GraphStore } from "./store.ts";

/**
 * Builds the graph of a root from its files' facts at once (see `GraphStore` for the edit-by-edit form and
 * `fileEdges` for which facts become which edges). Parallel edges merge by adding weights.
 */
export function buildGraph(files: readonly FileFacts[], links: GraphLinks): CodeGraph {
	return new GraphStore(files, links).graph();
}
