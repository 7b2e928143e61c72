/**
 * Ranking. Takes the graph and a focus query (seeds from attention, a path or symbol, words); gives nodes ranked
 * by heat diffused over the graph, blended with the lexical ranking of names and file text. Takes changed nodes;
 * gives what depends on them (impact, exposure), reached backwards along the graph's directed edges, with evidence.
 *
 * @module
 */

export {
	type Dependee,
	type Dependency,
	dependentReach,
	RELATION_DECAY,
	type Reach,
	type ReachEvidence,
	type ReachedNode,
	type ReachSeeds,
} from "./dependent-reach.ts";
export { type FileRole, fileRole } from "./file-role.ts";
export {
	type FocusQuery,
	type FocusResult,
	focus,
	type PreparedGraph,
	patchPreparedGraph,
	prepareGraph,
	type RankedNode,
} from "./focus.ts";
export { diffuse, normalizeGraph } from "./heat.ts";
export {
	byCoupling,
	type CouplingEvidence,
	couplingText,
	type FusionSignals,
	fuseImpact,
	namingText,
	similarText,
} from "./impact-fusion.ts";
export { type RouteMatch, type RouteSeeds, routeSeeds } from "./route-seeds.ts";
export { dwellQuery, impactSeeds } from "./seeds.ts";
export { type SimilarFile, similarFiles } from "./similar-files.ts";
export { type NamingTest, testsNaming } from "./tests-naming.ts";
