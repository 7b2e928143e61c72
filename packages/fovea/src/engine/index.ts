/**
 * `pi-fovea/engine`: extraction, graph, heat and rendering. Pure TypeScript over plain data and the filesystem of
 * the root it is given; it knows nothing of Pi. Contour reuses it, so there is one graph and heat engine.
 *
 * @module
 */

export { writeAtomic } from "./atomic-write.ts";
export { isInside } from "./cache-location.ts";
export {
	type ForcedConfig,
	forcedConfigFrom,
	GUARDED_CONFIG_PATTERN,
	hardenedGit,
	repositoryGuard,
	runGit,
} from "./git/index.ts";
export type { CodeGraph, EdgeKind, GraphNode } from "./graph/index.ts";
export { buildGraph } from "./graph/index.ts";
export { CodeMap, type CodeMapOptions, type CodeMapStats, type FocusAnswer } from "./map/index.ts";
export {
	type CallSites,
	type CoverageGap,
	callSitesOf,
	EXTRACTOR_VERSION,
	type FileFacts,
	type LanguageId,
	languageOf,
	type PartialFile,
	type PartialReason,
	type SymbolFact,
} from "./model/index.ts";
export { pacedProgress, TimeSlice } from "./pace/index.ts";
export { type Extractor, loadExtractor, useBaselineCompilerEverywhere, withSyntaxTree } from "./parse/index.ts";
export {
	diffuse,
	type FocusQuery,
	type FocusResult,
	focus,
	normalizeGraph,
	type PreparedGraph,
	prepareGraph,
} from "./rank/index.ts";
export type { IndexSnapshot } from "./refresh/index.ts";
export { CodeIndex, type CodeIndexOptions, type RefreshOptions, type SharedParse } from "./refresh/index.ts";
export {
	BudgetedText,
	budgetChars,
	estimateTokens,
	type FocusItem,
	renderFocus,
	renderSketch,
} from "./render/index.ts";
export { ResidentMaps, sharedResidentMaps } from "./residency.ts";
export { isTestPath, type ResolutionContext, resolveImport } from "./resolve/index.ts";
export { RootGoneError } from "./scan/index.ts";
export { useExtractWorkerScript, useExtractWorkersFrom } from "./shared-extract-pool.ts";
export { terms, useContentTerms } from "./terms/index.ts";
