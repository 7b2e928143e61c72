/**
 * `pi-contour/checkpoint`: the review pipeline of one Git root — snapshot, content cache, import graphs, findings,
 * exposure from Fovea's heat — ending in an immutable report kept in a bounded store. Explicit checkpoints, the
 * background observer and the CLI all review through `reviewRoot`.
 *
 * @module
 */
export { type CloneCandidates, MAX_CLONE_FILE_BYTES, MAX_CLONE_FILES } from "./clone-candidates.ts";
export { contourCacheDir, DiskCache, MEASURES_ON_DISK, REPORTS_ON_DISK } from "./disk-cache.ts";
export { EXPOSED_FILES_SHOWN, exposureOf, MAX_EXPOSURE_QUERIES, REACH_SHARE } from "./exposure.ts";
export {
	DEFAULT_MEASURE_CACHE_BYTES,
	type ImportFacts,
	MeasureCache,
	type MeasureCacheEntry,
	type MeasureCacheStats,
} from "./measure-cache.ts";
export { loadPolicyFile, MAX_POLICY_BYTES, type PolicySource, ROOT_POLICY_PATH, rootPolicy } from "./policy-file.ts";
export { ReviewCache, type ReviewCacheOptions } from "./review-cache.ts";
export {
	DEFAULT_REVIEW_TOKENS,
	parseReviewRequest,
	REVIEW_TOKEN_RANGE,
	type ReviewRequest,
} from "./review-request.ts";
export { type ReviewRootOptions, reviewRoot } from "./review-root.ts";
export { type CloneTarget, MAX_DISTANT_CLONE_FILES, similarCallableFiles } from "./similar-callables.ts";
export { analysisKey, type SnapshotIdentity } from "./snapshot-key.ts";
