/**
 * `pi-fovea/engine`: extraction, graph, heat and rendering. Pure TypeScript over plain data and the filesystem of
 * the root it is given; it knows nothing of Pi. Contour reuses it, so there is one graph and heat engine.
 *
 * @module
 */

export { writeAtomic } from "./atomic-write.ts";
export { isInside } from "./cache-location.ts";
// Contour's cold review hands the files its change reaches to the parsing threads while it measures the change.
export {
	type ExtractJob,
	type ExtractOptions,
	extractMany,
	registerTreeVisitor,
	startExtractThreads,
	type TreeVisitor,
} from "./extract/index.ts";
export {
	commonDirOf,
	type ForcedConfig,
	forcedConfigFrom,
	GUARDED_CONFIG_PATTERN,
	gitDirOf,
	hardenedGit,
	repositoryGuard,
	runGit,
} from "./git/index.ts";
export type { CodeGraph, EdgeKind, GraphNode, Relation } from "./graph/index.ts";
export { buildGraph } from "./graph/index.ts";
export { CodeMap, type CodeMapOptions, type CodeMapStats, type FocusAnswer, type ImpactAnswer } from "./map/index.ts";
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
export {
	type Extractor,
	hashOf,
	loadExtractor,
	useBaselineCompilerEverywhere,
	withSyntaxTree,
	withSyntaxTrees,
} from "./parse/index.ts";
export {
	type Dependee,
	dependentReach,
	diffuse,
	type FileRole,
	type FocusQuery,
	type FocusResult,
	fileRole,
	focus,
	normalizeGraph,
	type PreparedGraph,
	prepareGraph,
	type Reach,
	type ReachEvidence,
	type ReachedNode,
	type ReachSeeds,
} from "./rank/index.ts";
export type { IndexSnapshot } from "./refresh/index.ts";
export { CodeIndex, type CodeIndexOptions, type RefreshOptions, type SharedParse } from "./refresh/index.ts";
export {
	BudgetedText,
	budgetChars,
	type DependeeItem,
	estimateTokens,
	type FocusItem,
	type ImpactItem,
	renderFocus,
	renderSketch,
} from "./render/index.ts";
export { ResidentMaps, sharedResidentMaps } from "./residency.ts";
export { isTestPath, type ResolutionContext, readResolutionSettings, resolveImport } from "./resolve/index.ts";
// What a file is to the index (minified, generated, vendored or build output, too large): Contour classifies a
// change's files the same way, so both tools leave the same files out and name the same gaps.
export { classifyName, contentGap, RootGoneError, readBoundedSync, scanRoot, skippedDirGap } from "./scan/index.ts";
export { useExtractWorkerScript, useExtractWorkersFrom } from "./shared-extract-pool.ts";
export { terms } from "./terms/index.ts";
