/**
 * The shapes ranking shares: a graph prepared for queries and where a focus query starts. Apart from `focus.ts` so
 * the seed builders it calls (`seeds.ts`, `query-seeds.ts`) can name them without importing focus back.
 *
 * @module
 */
import type { CodeGraph, CoupledEdges } from "../graph/index.ts";
import type { BoundedDiffusion } from "./bounded-heat.ts";
import type { ContentIndex } from "./content-index.ts";
import type { FileRoles } from "./file-roles.ts";
import type { NormalizedGraph, ScratchVectors } from "./heat.ts";
import type { SeedVector } from "./seed-vector.ts";
import type { TermIndex } from "./term-index.ts";

/** A graph prepared for queries: normalized operator and term index, kept per graph generation. */
export interface PreparedGraph {
	graph: CodeGraph;
	operator: NormalizedGraph;
	/**
	 * The term index, built on first use: impact and dwell seed by node, not by words, and a process that only asks
	 * them (the `contour` CLI's exposure) never pays for it.
	 */
	readonly index: TermIndex;
	/** BM25 over the files' whole text, built on first use (as `index`). Empty for a graph prepared without facts. */
	readonly content: ContentIndex;
	/** The file node of every node (a file's own id for files); longer than the node count, to leave room for edits. */
	fileOf: Int32Array;
	/** Vectors reused by every query on this graph (`FOCUS_SLOTS`). */
	scratch: ScratchVectors;
	/** The diffusion's own vectors, reused by every query on this graph (and the graphs patched from it). */
	heat: BoundedDiffusion;
	/** A query's seeds, reused (as `heat`) by every query on this graph and the graphs patched from it. */
	seeds: SeedVector;
	/** The role of each file, kept by file id (and by the graphs patched from this one, whose files are the same). */
	roles: FileRoles;
}

/** Where a focus query starts: words, an optional path, and attention carried over from earlier turns. */
export interface FocusQuery {
	text: string;
	/** Root-relative paths to seed directly (a file and its symbols). */
	paths?: readonly string[];
	/** Extra seed mass per node id, e.g. decayed attention. */
	attention?: ReadonlyMap<number, number>;
	/** Restrict ranked symbols to these kinds. */
	kinds?: ReadonlySet<string>;
	/** Multiplies every diffusion timescale: above 1 spreads heat further from the seeds (a longer dwell). */
	timeScale?: number;
	/** The graph's coupled edges, as a prior: files that changed with the best-ranked ones gain a share of their score. */
	coupled?: CoupledEdges;
}
