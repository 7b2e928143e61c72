/**
 * Ranking. Takes the graph and a focus query (seeds from attention, a path or symbol, words); gives nodes ranked
 * by heat diffused over the graph, blended with the lexical ranking of names and file text.
 *
 * @module
 */
export { blendCoupling, type CouplingEvidence } from "./coupling-blend.ts";
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
export { dwellQuery, impactQuery } from "./seeds.ts";
