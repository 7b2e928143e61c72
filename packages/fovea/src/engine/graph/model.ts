/**
 * The code graph as plain data: its nodes, why two nodes are linked (each file's edges, and who depends on whom), and
 * what the graph asks of import resolution.
 * Types only, so every module of the graph and the ranking can name them without loading the builders.
 */
import type { FileFacts, Ids, SymbolKind } from "../model/index.ts";
import type { CoChangeHistory, CoupledEdges } from "./coupled-edges.ts";
import type { SparseGraph } from "./sparse-graph.ts";

/**
 * Why two nodes are linked, by an edge a file's facts derive (owned by that file, see `FileEdges`). `route`: a file
 * declares a route its handler serves, or names a URL path a route of another file matches; `literal`: two files
 * share a rare string literal (`graph/anchor-index.ts`).
 */
export type FileEdgeKind = "contains" | "imports" | "calls" | "inherits" | "tests" | "route" | "literal";

/**
 * Why two nodes are linked: an edge of a file's facts, or `coupled`: two files changed together in the root's
 * history (`coupled-edges.ts`), an edge the history owns, kept in its own layer (`CodeGraph.coupled`).
 */
export type EdgeKind = FileEdgeKind | "coupled";

/** A route of the root linked to its handler: what a query naming the route or endpoint is answered with. */
export interface RouteAnchor {
	method: string;
	/** Normal form (`model/route-path.ts`). */
	path: string;
	/** The file declaring it (its node) and the line. */
	file: number;
	line: number;
	/** The handler's node: a symbol when the handler is named and found, else the declaring file. */
	handler: number;
}

/**
 * What a file's anchor edges say beyond their relation: its routes with their handlers, and for each node a route
 * or literal edge of the file points at, the route or literal it shares with it (`GET /users/:id`, `"x-request-id"`),
 * for evidence.
 */
export interface FileAnchors {
	routes: readonly RouteAnchor[];
	labels: ReadonlyMap<number, string>;
}

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
	/** The edges files' facts derive, by kind (the coupled edges are counted by `coupled().edges`). */
	edgeCounts: Record<FileEdgeKind, number>;
	/** The edges with their direction, which the symmetric rows lose: what impact follows. */
	directed: DirectedEdges;
	/**
	 * The coupled edges at the history's current head, built on first use after the graph was built or the history
	 * moved (never by asking Git); `undefined` when the root has no mined history (not Git, a shallow clone, not mined
	 * yet).
	 */
	coupled(): CoupledEdges | undefined;
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
	/** Every route of the root with its handler, in file order. */
	routes(): RouteAnchor[];
}

/**
 * How the graph learns which files an import or a test points at (resolution is language-specific), and where its
 * coupled edges come from: the root's mined history as it stands (`undefined` when there is none), and who counts
 * their builds.
 */
export interface GraphLinks {
	imports(file: FileFacts): readonly string[];
	subjects(path: string, file: FileFacts): readonly string[];
	history?: () => CoChangeHistory | undefined;
	coupledBuilt?: (edges: CoupledEdges) => void;
}

/**
 * The edges one file contributes to the graph, as parallel arrays. Every edge belongs to exactly one file (the
 * importer, the caller, the subclass, the test), so an edit re-derives the edges of the files it touches and keeps
 * everyone else's. An edge runs from the dependent `a` (importer, caller, subclass, test, container) to what it
 * depends on `b`, with its relation code `r` (`RELATION_CODE` in `edges.ts`); the rows of the graph use it both ways.
 */
export interface FileEdges {
	a: Int32Array;
	b: Int32Array;
	w: Float64Array;
	r: Uint8Array;
	/** Its routes and what its route and literal edges share, when it has any. */
	anchors?: FileAnchors;
}

/**
 * Incoming dependency edges per node in compressed-row form (built by `dependents.ts`): the entries of node `v` lie
 * in `[offsets[v], offsets[v + 1])`, each a dependent `sources[e]` that holds relation `relations[e]` (a
 * `RELATION_CODE`, `WEAK` set on a guessed link) to `v`, with `shares[e]` of a sure link (below 1 when a call's
 * name matched several definitions and was split between them). Containment is left out: it is membership.
 */
export interface Dependents {
	offsets: Int32Array;
	sources: Int32Array;
	relations: Uint8Array;
	shares: Float64Array;
}
