/**
 * Contour's review engine: per-file measures, before↔after callable deltas, and findings with witnesses, review
 * questions and (filled in by the integrator) modelled exposure. Pure TypeScript over plain data; the only I/O is
 * loading tree-sitter grammars through `pi-fovea/engine`.
 *
 * @module
 */
export {
	analyzeChange,
	analyzeMeasured,
	type ChangeFile,
	type ChangeInput,
	type ChangeReview,
	type FileCallables,
	type FileDelta,
	type MeasuredSide,
	type ReviewGap,
	type ReviewOptions,
} from "./analyze.ts";
export type { CallableMeasure, NeedlessHit } from "./callables.ts";
export { DEFAULT_COMPLEXITY_JUMP, DEFAULT_COMPLEXITY_THRESHOLD } from "./change-findings.ts";
export {
	type CloneOptions,
	ClonePool,
	type CloneSearch,
	findClones,
	MAX_CLONE_COMPARISONS,
	MAX_CLONE_COMPARISONS_PER_CALLABLE,
	MIN_CLONE_TOKENS,
	NEAR_CLONE_SIMILARITY,
	SHINGLE_TOKENS,
	similarity,
} from "./clones.ts";
export { type CallableDelta, type CallableSide, type DeltaStatus, matchCallables } from "./deltas.ts";
export { type ClassGap, contentClassGap, pathGap } from "./file-class.ts";
export {
	type Exposure,
	type Finding,
	type FindingKind,
	type MeasuredValue,
	rankFindings,
	type Witness,
} from "./findings.ts";
export { type ImportChange, type ImportChanges, importChanges, MAX_IMPORT_CHANGES } from "./import-changes.ts";
export { type ImportEdge, type ImportEdges, importCycles, newImportCycles, newImportEdges } from "./import-cycles.ts";
export {
	DEFAULT_MAX_BYTES,
	emptyMeasure,
	ensureMeasureLanguages,
	type FactsOptions,
	type FileMeasure,
	MEASURE_VERSION,
	type MeasuredWithFacts,
	type MeasureGapReason,
	type MeasureOptions,
	measureFile,
	measureSyntaxTree,
	measureVersionsWithFacts,
	measureWithFacts,
	type ParsedSource,
} from "./measure.ts";
export type { NeedlessRule } from "./needless-code.ts";
export { type ForbidRule, type PolicyRegion, parsePolicy, type ReviewPolicy, validatePolicy } from "./policy.ts";
export { matchesPattern, regionChanges, regionOf, regionsOf } from "./regions.ts";
export type { CallableKind } from "./syntax-walk.ts";
export { isTestCallable, isTestFile } from "./test-code.ts";
