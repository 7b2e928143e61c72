/**
 * The code graph. Takes each file's facts and how its imports and tests resolve; gives the graph of files and
 * symbols with a weighted, symmetric compressed-row adjacency, built at once or edited file by file.
 *
 * @module
 */
export { buildGraph } from "./build.ts";
export type { CodeGraph, EdgeKind, GraphNode } from "./model.ts";
export { type SparseGraph, withCapacity } from "./sparse-graph.ts";
export { type GraphDelta, GraphStore } from "./store.ts";
