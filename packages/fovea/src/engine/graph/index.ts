/**
 * The code graph. Takes each file's facts and how its imports and tests resolve; gives the graph of files and
 * symbols with a weighted, symmetric compressed-row adjacency, built at once or edited file by file, and its edges
 * with their direction (who depends on whom) for impact.
 *
 * @module
 */
export { buildGraph } from "./build.ts";
export { EDGE_WEIGHTS, RELATION_CODE, RELATIONS, type Relation, WEAK } from "./edges.ts";
export type {
	CodeGraph,
	Dependents,
	DirectedEdges,
	EdgeKind,
	FileAnchors,
	FileEdges,
	GraphNode,
	RouteAnchor,
} from "./model.ts";
export { type SparseGraph, withCapacity } from "./sparse-graph.ts";
export { type GraphDelta, GraphStore } from "./store.ts";
