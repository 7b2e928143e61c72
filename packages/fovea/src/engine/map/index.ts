/**
 * One root's code map, what a host uses. Takes a root; gives `CodeMap`: refresh, graph, focus, impact and sketch answers,
 * kept current by a watch, with the import settings its graph was built with.
 *
 * @module
 */
export { CodeMap, type CodeMapOptions, type CodeMapStats, type FocusAnswer, type ImpactAnswer } from "./code-map.ts";
