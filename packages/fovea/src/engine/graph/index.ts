/**
 * The code graph. Takes each file's facts and how its imports and tests resolve; gives the graph of files and
 * symbols with a weighted, symmetric compressed-row adjacency, built at once or edited file by file, its edges
 * with their direction (who depends on whom) for impact, and the coupled edges of the root's history.
 *
 * @module
 */
export { MAX_LITERAL_FILES } from "./anchor-index.ts";
export { buildGraph } from "./build.ts";
export {
	buildCoupledEdges,
	type CoChangeHistory,
	type CommitRows,
	type Coupled,
	type CoupledEdges,
	coupledWith,
} from "./coupled-edges.ts";
export { EDGE_WEIGHTS, RELATION_CODE, RELATIONS, type Relation, WEAK } from "./edges.ts";
export type {
	CodeGraph,
	Dependents,
	DirectedEdges,
	EdgeKind,
	FileAnchors,
	FileEdgeKind,
	FileEdges,
	GraphNode,
	RouteAnchor,
} from "./model.ts";
export { type SparseGraph, withCapacity } from "./sparse-graph.ts";
export { type GraphDelta, GraphStore } from "./store.ts";
