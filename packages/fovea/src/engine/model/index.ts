/**
 * The engine's plain data, which every stage shares: the facts of one file and its language, compact shared
 * identifiers, root-relative paths, values kept one-or-many, counts, partial coverage and attention keys. Takes
 * nothing and imports no other stage: types and pure helpers only.
 *
 * @module
 */
export { type AttentionTarget, attentionKey, attentionTarget, describeAttention } from "./attention-keys.ts";
export { compactFacts, compactImports, forgetSharedNames, SLICE_MIN_LENGTH } from "./compact-facts.ts";
export { isCount } from "./count.ts";
export {
	addCall,
	type CallSites,
	type CoverageGap,
	callSitesOf,
	EXTRACTOR_VERSION,
	type FileFacts,
	type ImportFact,
	type InheritFact,
	isCallSites,
	type LanguageId,
	noCalls,
	type RouteFact,
	type SymbolFact,
	type SymbolKind,
	symbolFact,
} from "./facts.ts";
export { isLanguageId, LANGUAGES, languageOf } from "./languages.ts";
export { addOne, countOf, dropOne, firstOf, type Ids, manyOf, type OneOrMany, trimMany } from "./one-or-many.ts";
export {
	isPagedOut,
	keepPagedSignature,
	MAX_PAGED,
	PAGED_OUT,
	pagedSignatureCount,
	signatureOf,
} from "./paged-signatures.ts";
export {
	isPartial,
	type PartialFile,
	type PartialReason,
	partialEntries,
	partialFileCount,
} from "./partial-coverage.ts";
export { basenameOf, dirnameOf, type FileIndex, fileIndex, firstExisting, joinPath } from "./project-paths.ts";
export {
	HTTP_METHODS,
	handlerParts,
	httpMethod,
	isOptionLiteral,
	isParameter,
	isPathLiteral,
	joinRoute,
	MOUNT,
	normalizeRoutePath,
	routeKey,
	routeMatches,
	segmentsOf,
} from "./route-path.ts";
export { signatureDigest } from "./signature-digest.ts";
