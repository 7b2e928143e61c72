/**
 * `pi-fovea/engine`: extraction, graph, heat and rendering. Pure TypeScript over plain data and the filesystem of
 * the root it is given; it knows nothing of Pi. Contour reuses it, so there is one graph and heat engine.
 *
 * @module
 */

export { printable } from "../printable.ts";
export { BudgetedText, budgetChars, estimateTokens } from "./budget.ts";
export { isInside } from "./cache-location.ts";
export { CodeIndex, type CodeIndexOptions, type RefreshOptions, type SharedParse } from "./code-index.ts";
export { CodeMap, type CodeMapStats, type FocusAnswer } from "./code-map.ts";
export { countsContentTerms, useContentTerms } from "./content-terms.ts";
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
} from "./facts.ts";
// What a file is to the index (minified, generated, vendored or build output, too large): Contour classifies a
// change's files the same way, so both tools leave the same files out and name the same gaps.
export { classifyName } from "./file-classification.ts";
export { contentGap } from "./file-content.ts";
export { type FocusQuery, type FocusResult, focus, type PreparedGraph, prepareGraph } from "./focus.ts";
export {
	commonDirOf,
	type ForcedConfig,
	forcedConfigFrom,
	GUARDED_CONFIG_PATTERN,
	gitDirOf,
	hardenedGit,
	repositoryGuard,
	runGit,
} from "./git-hardening.ts";
export { useBaselineCompilerEverywhere } from "./grammar-compiler.ts";
export { buildGraph, type CodeGraph, type EdgeKind, type GraphNode } from "./graph.ts";
export { diffuse, normalizeGraph } from "./heat.ts";
export type { IndexSnapshot } from "./index-snapshot.ts";
export { languageOf } from "./languages.ts";
export { type Extractor, loadExtractor, withSyntaxTree } from "./parser.ts";
export { type PartialFile, type PartialReason, partialFileCount } from "./partial-coverage.ts";
export { PROGRESS_INTERVAL_MS, pacedProgress } from "./progress-pace.ts";
export { terms } from "./query-terms.ts";
export { coverageFooter } from "./render-coverage.ts";
export { type FocusItem, focusItems, renderFocus } from "./render-focus.ts";
export { renderSketch } from "./render-sketch.ts";
export { ResidentMaps } from "./residency.ts";
export { type ResolutionContext, resolveImport } from "./resolve-imports.ts";
export { RootGoneError } from "./root-presence.ts";
export { useExtractWorkerScript, useExtractWorkersFrom } from "./shared-extract-pool.ts";
export { skippedDirGap } from "./skip-dirs.ts";
export { isTestPath, testSubjects } from "./test-links.ts";
export { TimeSlice } from "./time-slice.ts";
