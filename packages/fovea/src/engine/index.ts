/**
 * `pi-fovea/engine`: extraction, graph, heat and rendering. Pure TypeScript over plain data and the filesystem of
 * the root it is given; it knows nothing of Pi. Contour reuses it, so there is one graph and heat engine.
 *
 * @module
 */

export { printable } from "../cli/printable.ts";
export { isInside } from "./cache-location.ts";
export {
	type ForcedConfig,
	forcedConfigFrom,
	GUARDED_CONFIG_PATTERN,
	hardenedGit,
	repositoryGuard,
	runGit,
} from "./git-hardening.ts";
export { buildGraph } from "./graph/build.ts";
export type { CodeGraph, EdgeKind, GraphNode } from "./graph/model.ts";
export { CodeMap, type CodeMapStats, type FocusAnswer } from "./map/code-map.ts";
export {
	type CallSites,
	type CoverageGap,
	callList,
	callSitesOf,
	EXTRACTOR_VERSION,
	type FileFacts,
	type LanguageId,
	noCalls,
	type SymbolFact,
} from "./model/facts.ts";
export { languageOf } from "./model/languages.ts";
export { type PartialFile, type PartialReason, partialFileCount } from "./model/partial-coverage.ts";
export { PROGRESS_INTERVAL_MS, pacedProgress } from "./pace/progress.ts";
export { TimeSlice } from "./pace/time-slice.ts";
export { useBaselineCompilerEverywhere } from "./parse/grammar-compiler.ts";
export { type Extractor, loadExtractor, withSyntaxTree } from "./parse/parser.ts";
export { type FocusQuery, type FocusResult, focus, type PreparedGraph, prepareGraph } from "./rank/focus.ts";
export { diffuse, normalizeGraph } from "./rank/heat.ts";
export { CodeIndex, type CodeIndexOptions, type RefreshOptions, type SharedParse } from "./refresh/code-index.ts";
export type { IndexSnapshot } from "./refresh/snapshot.ts";
export { BudgetedText, budgetChars, estimateTokens } from "./render/budget.ts";
export { coverageFooter } from "./render/coverage.ts";
export { type FocusItem, focusItems, renderFocus } from "./render/focus.ts";
export { renderSketch } from "./render/sketch.ts";
export { ResidentMaps } from "./residency.ts";
export { type ResolutionContext, resolveImport } from "./resolve/imports.ts";
export { isTestPath, testSubjects } from "./resolve/test-links.ts";
export { RootGoneError } from "./scan/root-presence.ts";
export { useExtractWorkerScript, useExtractWorkersFrom } from "./shared-extract-pool.ts";
export { countsContentTerms, useContentTerms } from "./terms/content.ts";
export { terms } from "./terms/query.ts";
