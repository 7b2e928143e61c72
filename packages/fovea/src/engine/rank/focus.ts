import type { CodeGraph, GraphDelta, GraphNode } from "../graph/index.ts";
import { withCapacity } from "../graph/index.ts";
import type { FileFacts } from "../model/index.ts";
import { hasBody, readQuery, terms, withoutBoilerplate } from "../terms/index.ts";
import { BoundedDiffusion, type BoundedHeatStats, HEAT_BUDGET } from "./bounded-heat.ts";
import { applyMessagePrior } from "./commit-messages.ts";
import { ContentIndex } from "./content-index.ts";
import { applyCouplingPrior } from "./coupling-prior.ts";
import { FileRoles } from "./file-roles.ts";
import { admitLexicalTests } from "./focus-lexical-tests.ts";
import { normalizeGraph, renormalizeRows, ScratchVectors, withHeadroom } from "./heat.ts";
import type { FocusQuery, PreparedGraph } from "./prepared-graph.ts";
import { expandQuery } from "./query-expansion.ts";
import { type NamedSeeds, namedSeeds } from "./query-seeds.ts";
import {
	addNamedBonus,
	blendHeats,
	blendTextRank,
	type RankedNode,
	scoreFiles,
	sumOf,
	topK,
	topKAmong,
} from "./ranking.ts";
import { applyRecencyPrior } from "./recency-prior.ts";
import { applyRevertedCommit } from "./reverted-commit.ts";
import { applyRolePrior, rolesAsked } from "./role-prior.ts";
import { promoteRoutes, type RouteMatch, routeSeeds } from "./route-seeds.ts";
import { SeedVector } from "./seed-vector.ts";
import { TermIndex } from "./term-index.ts";
import { followSubjects } from "./test-follows-subject.ts";

/** Timescales of the diffusion and how much each contributes: local context first, neighbourhood second. */
const TIMES = [0.5, 2, 6] as const;
const TIME_WEIGHTS = [0.5, 0.3, 0.2] as const;
/**
 * The series stops once every timescale's remaining coefficient mass is below this share of the seed mass: a
 * ranking needs no more: a tighter tolerance costs more sparse products on the longest timescale and ranks the
 * changed files of `bench/fovea-quality.bench.ts` no differently.
 */
const HEAT_TOLERANCE = 1e-3;
/**
 * How a query's words rank files. Heat is seeded from the nodes whose names and paths the words match
 * (`NAME_SEEDS` of the seed mass) and from the files whose text they match, by BM25 (the rest); a file's rank blends
 * its text's BM25 (`TEXT_RANK`, relative to the best) with its heat (relative to the hottest file). Chosen on this
 * repository's history (`bench/fovea-quality.bench.ts`, 123 commits): heat seeded by names alone found 39% of the
 * changed files in the top ten, BM25 alone 68%, this blend 71%; every neighbour with the same text rank (name seeds
 * 0.3–0.7, shorter timescales) found 70–72% with a better MRR than BM25's.
 */
const NAME_SEEDS = 0.7;
const TEXT_RANK = 0.7;
/**
 * What the query names precisely (a traceback's paths and lines, names in backticks, imports in code blocks:
 * `query-seeds.ts`) takes this share of the seed mass from its words, and a file it names gains up to
 * `NAMED_BONUS` of the best file's score: a file a traceback runs through is where to look, whatever its words
 * (at 0.6 the innermost frame's file outranks any file that only matches the prose; both values are round priors,
 * checked on several corpora of `bench/fovea-localization.bench.ts`, not fitted to one).
 */
const NAMED_SHARE = 0.5;
const NAMED_BONUS = 0.6;

/** Scratch slots of a focus query (the diffusion keeps its own vectors, `BoundedDiffusion`, and the seeds theirs). */
const FOCUS_SLOTS = {
	score: 0,
	roleFactor: 1,
	beforeRoles: 2,
	hottest: 3,
	text: 4,
	expanded: 5,
} as const;

/** Prepares `graph` for focus queries; `files` (the facts it was built from) feed the ranking by text. */
export function prepareGraph(graph: CodeGraph, files?: ReadonlyMap<string, FileFacts>): PreparedGraph {
	const fileOf = new Int32Array(withHeadroom(graph.nodes.length));
	graph.nodes.forEach((node, id) => {
		fileOf[id] = id < graph.fileCount ? id : (graph.fileNode.get(node.path) ?? -1);
	});
	const scratch = new ScratchVectors(fileOf.length);
	const roles = new FileRoles(graph.nodes, graph.fileCount);
	const operator = normalizeGraph(graph);
	const prepared = { graph, operator, fileOf, scratch, heat: new BoundedDiffusion(), seeds: new SeedVector(), roles };
	return withIndexes(prepared, files, {});
}

/** The term and content indexes of each prepared graph that built them. */
const builtIndexes = new WeakMap<PreparedGraph, TermIndex>();
const builtContent = new WeakMap<PreparedGraph, ContentIndex>();

/** Whether `prepared`'s term index has been built (read, or carried over from the graph it was patched from). */
export function hasTermIndex(prepared: PreparedGraph): boolean {
	return builtIndexes.has(prepared);
}

/** Whether `prepared`'s content index has been built (read, or carried over from the graph it was patched from). */
export function hasContentIndex(prepared: PreparedGraph): boolean {
	return builtContent.has(prepared);
}

/**
 * `prepared` with its `index` and `content`: those `built` when given, else made when first read (the term index
 * from the graph's nodes, the content index from `files`).
 */
function withIndexes(
	prepared: Omit<PreparedGraph, "index" | "content">,
	files: ReadonlyMap<string, FileFacts> | undefined,
	built: { index?: TermIndex | undefined; content?: ContentIndex | undefined },
): PreparedGraph {
	const out: PreparedGraph = {
		...prepared,
		get index(): TermIndex {
			let index = builtIndexes.get(out);
			if (index === undefined) {
				index = new TermIndex(prepared.graph.nodes);
				builtIndexes.set(out, index);
			}
			return index;
		},
		get content(): ContentIndex {
			let content = builtContent.get(out);
			if (content === undefined) {
				content = new ContentIndex(contentEntries(prepared.graph, files));
				builtContent.set(out, content);
			}
			return content;
		},
	};
	if (built.index !== undefined) builtIndexes.set(out, built.index);
	if (built.content !== undefined) builtContent.set(out, built.content);
	return out;
}

/** The files of `graph` in `files`, as content index entries. */
function* contentEntries(
	graph: CodeGraph,
	files: ReadonlyMap<string, FileFacts> | undefined,
): Generator<[number, FileFacts]> {
	if (files === undefined) return;
	for (const [path, facts] of files) {
		const id = graph.fileNode.get(path);
		if (id !== undefined) yield [id, facts];
	}
}

/**
 * Prepares the next generation of a graph that `GraphStore.update` patched: the operator's degrees are computed again
 * for the rows the update changed (all of them when it assembled the rows anew), the term index and the file of
 * each node are patched for the removed and added nodes only, and the content index for the `changed` paths of
 * `files`. The previous `PreparedGraph` shares the indexes and the operator's arrays and must not be used afterwards.
 */
export function patchPreparedGraph(
	previous: PreparedGraph,
	graph: CodeGraph,
	delta: GraphDelta,
	files?: ReadonlyMap<string, FileFacts>,
	changed: readonly string[] = [],
): PreparedGraph {
	// An index not built yet has nothing to patch: it will be made from the nodes as they are then.
	const index = builtIndexes.get(previous);
	for (const id of delta.removed) index?.remove(id, graph.nodes[id] as GraphNode);
	const fileOf = withCapacity(previous.fileOf, graph.nodes.length, withHeadroom(graph.nodes.length));
	for (const id of delta.added) {
		const node = graph.nodes[id] as GraphNode;
		index?.add(id, node);
		fileOf[id] = graph.fileNode.get(node.path) ?? -1;
	}
	const scratch = previous.scratch.size >= graph.nodes.length ? previous.scratch : new ScratchVectors(fileOf.length);
	const operator =
		delta.rows === undefined ? normalizeGraph(graph) : renormalizeRows(previous.operator, graph, delta.rows);
	const content = builtContent.get(previous);
	for (const path of changed) {
		const id = graph.fileNode.get(path);
		if (content === undefined || id === undefined) continue;
		const facts = files?.get(path);
		if (facts === undefined) content.remove(id);
		else content.add(id, facts);
	}
	const { heat, seeds, roles } = previous;
	return withIndexes({ graph, operator, fileOf, scratch, heat, seeds, roles }, files, { index, content });
}

export type { FocusQuery, PreparedGraph } from "./prepared-graph.ts";
export type { RankedNode } from "./ranking.ts";

/** The outcome of a focus query. */
export interface FocusResult {
	terms: string[];
	seededNodes: number;
	files: RankedNode[];
	symbols: RankedNode[];
	/** Ids the symbols' selection read: the nodes the diffusion reached and the routes promoted, not every node. */
	symbolsRead?: number;
	stats: BoundedHeatStats;
	/** Routes the query names (`rank/route-seeds.ts`), best first; their handlers rank first. */
	routes?: RouteMatch[];
}

/**
 * Ranks the files and symbols of a root for a query: lexical matches (terms weighted by rarity, exact identifier
 * matches boosted) seed heat, heat diffuses over the code graph at three timescales, and a node's score is its
 * blended heat, normalized by the square root of its degree so that hubs do not win by being hubs. A file's score
 * adds the heat of its own symbols, so a file whose functions are relevant ranks even if its name is not.
 */
export function focus(prepared: PreparedGraph, query: FocusQuery, limit = 50): FocusResult {
	const { graph, operator, fileOf } = prepared;
	const seedVector = prepared.seeds;
	const seeds = seedVector.reset(graph.nodes.length);
	// A query by attention or path (impact, dwell) has no text: nothing to split. An issue's template and version
	// listings say nothing about where to look (`terms/issue-boilerplate.ts`).
	const said = withoutBoilerplate(query.text);
	const queryTerms = said === "" ? [] : [...new Set(terms(said))];
	// Read only for words: the getter builds the index on first use, which a query by attention or path never needs.
	const words = said === "" ? [] : said.split(/[^A-Za-z0-9_$\u0080-\uffff]+/).filter((word) => word.length >= 3);
	const index = queryTerms.length > 0 || words.length > 0 ? prepared.index : undefined;
	if (index !== undefined) {
		for (const term of queryTerms) seedVector.addEach(index.postings(term), index.idf(term));
		for (const word of words) seedVector.addEach(index.exact(word, graph.nodes), 3 * index.idf(word.toLowerCase()));
	}
	for (const path of query.paths ?? []) {
		const fileId = graph.fileNode.get(path);
		if (fileId !== undefined) seedVector.add(fileId, 5);
	}
	for (const [id, mass] of query.attention ?? []) if (id < seeds.length) seedVector.add(id, mass);
	const routes = routeSeeds(graph, said);
	for (const [id, mass] of routes.seeds) seedVector.add(id, mass);
	const stats: BoundedHeatStats = { products: 0 };
	const text = prepared.scratch.vector(FOCUS_SLOTS.text, graph.fileCount);
	const bestText = queryTerms.length > 0 ? prepared.content.score(queryTerms, text) : 0;
	const reading = said === "" ? undefined : readQuery(said);
	const named = reading === undefined ? undefined : namedSeeds(prepared, reading);
	const seededNodes = mixNamedSeeds(seedVector, mixSeeds(seedVector, text, bestText), named);
	if (seededNodes === 0) return { terms: queryTerms, seededNodes: 0, files: [], symbols: [], stats };

	const scale = query.timeScale !== undefined && query.timeScale > 0 ? Math.min(query.timeScale, 20) : 1;
	const times = TIMES.map((t) => t * scale);
	const { heats, touched } = prepared.heat.run(
		operator,
		seeds,
		times,
		HEAT_TOLERANCE,
		HEAT_BUDGET,
		stats,
		seedVector.nonzero(),
	);
	const score = prepared.scratch.vector(FOCUS_SLOTS.score, seeds.length);
	blendHeats(score, heats as [Float64Array, Float64Array, Float64Array], TIME_WEIGHTS, operator.scale, touched);
	const fileScore = prepared.scratch.vector(FOCUS_SLOTS.hottest, graph.fileCount);
	scoreFiles(fileScore, score, fileOf, graph.fileCount, touched);
	if (bestText > 0) blendTextRank(fileScore, text, bestText, TEXT_RANK);
	if (named !== undefined) addNamedBonus(fileScore, named.files, NAMED_BONUS);
	if (bestText > 0 && !hasBody(query.text)) {
		expandQuery(
			prepared.content,
			fileScore,
			queryTerms,
			prepared.scratch.vector(FOCUS_SLOTS.expanded, graph.fileCount),
		);
	}
	if (reading !== undefined) {
		const asked = rolesAsked(reading.about, named?.paths ?? []);
		const factor = prepared.scratch.vector(FOCUS_SLOTS.roleFactor, graph.fileCount, false);
		const role = (id: number) => prepared.roles.of(id);
		applyRolePrior(fileScore, score, fileOf, role, asked, factor, touched);
		const before = prepared.scratch.vector(FOCUS_SLOTS.beforeRoles, graph.fileCount, false);
		followSubjects(graph, fileOf, fileScore, factor, before, role);
		if (query.coupled !== undefined) applyCouplingPrior(graph, fileScore, factor, query.coupled);
		if (bestText > 0 && !hasBody(query.text) && reading.paths.length === 0) admitLexicalTests(fileScore, text, factor);
		if (query.coupled !== undefined) {
			applyRecencyPrior(fileScore, factor, query.coupled.recency);
			// A subject is matched against subjects; an issue's prose would match every subject of its many words.
			if (!hasBody(query.text)) applyMessagePrior(fileScore, factor, query.coupled.commits, queryTerms);
			// A revert names the commit it undoes: that commit's files are the answer, whatever the words found.
			applyRevertedCommit(fileScore, query.coupled.commits, said);
		}
	}
	promoteRoutes(fileScore, routes, 0, graph.fileCount);
	promoteRoutes(score, routes, graph.fileCount, graph.nodes.length);
	const files = topK(fileScore, 0, graph.fileCount, limit, seeds);
	const selection = { read: 0 };
	// Symbols score only where the diffusion reached (`touched`) and at the routes promoted since.
	const symbols = topKAmong(
		score,
		touched,
		routes.ranked,
		graph.fileCount,
		graph.nodes.length,
		limit,
		seeds,
		query.kinds === undefined
			? undefined
			: (id) => query.kinds?.has((graph.nodes[id] as { kind: string }).kind) === true,
		selection,
	);
	const routesNamed = routes.matches.length > 0 ? { routes: routes.matches } : {};
	return { terms: queryTerms, seededNodes, files, symbols, symbolsRead: selection.read, stats, ...routesNamed };
}

/**
 * Makes `seeds` (name, path and attention mass per node) one distribution with the files' text scores: `NAME_SEEDS`
 * of the mass from the names, the rest from the text, either all of it when the other has none. Returns how many
 * nodes are seeded.
 */
function mixSeeds(seeds: SeedVector, text: Float64Array, bestText: number): number {
	const named = seeds.normalize();
	if (bestText === 0) return named;
	const nameShare = named === 0 ? 0 : NAME_SEEDS;
	seeds.addTextShare(text, nameShare, sumOf(text));
	seeds.scaleFrom(text.length, nameShare);
	return seeds.countPositive();
}

/**
 * Gives the named seeds `NAMED_SHARE` of the seed mass (all of it when nothing else is seeded), in place; `seeded`
 * is how many nodes the words and attention seed. Returns how many nodes are seeded.
 */
function mixNamedSeeds(seeds: SeedVector, seeded: number, named: NamedSeeds | undefined): number {
	if (named === undefined || named.nodes.size === 0) return seeded;
	let total = 0;
	for (const mass of named.nodes.values()) total += mass;
	const share = seeded === 0 ? 1 : NAMED_SHARE;
	seeds.scaleFrom(0, 1 - share);
	for (const [id, mass] of named.nodes) if (id < seeds.size) seeds.add(id, (share * mass) / total);
	return seeds.countPositive();
}
