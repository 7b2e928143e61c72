/**
 * The root-wide tables that route and literal edges are derived from, kept file by file with the graph: which files
 * hold each name-like literal (a literal few files hold bridges them), and which files declare routes under each
 * first static path segment (where a URL path written in another file may find its route).
 *
 * Edits stay incremental: a literal an edit adds or removes re-derives the files holding it, found in the table
 * itself (`holdersOf`); a file refers to the route buckets its URL paths may find routes in (`referenceKeys`), and an
 * edit of a file declaring routes re-derives the files referring to its buckets, as a changed symbol name does for
 * its callers.
 */
import {
	addOne,
	countOf,
	dropOne,
	type FileFacts,
	handlerParts,
	isOptionLiteral,
	isParameter,
	isPathLiteral,
	manyOf,
	type OneOrMany,
	segmentsOf,
} from "../model/index.ts";

/** A literal held by more files than this is a common word of the root, not a bridge between a few of them. */
export const MAX_LITERAL_FILES = 4;

/** The prefix that keeps route bucket keys apart from symbol names in the graph's table of referred names. */
const SEGMENT_KEY = "\u0001route:";

/** The first static segment of a route path, lower case: the bucket its route is found under. */
function bucketOf(path: string): string | undefined {
	return segmentsOf(path)
		.find((segment) => !isParameter(segment))
		?.toLowerCase();
}

/** Root-wide literal holders and route buckets. */
export class AnchorIndex {
	readonly #literalFiles = new Map<string, OneOrMany<string>>();
	readonly #routeFiles = new Map<string, OneOrMany<string>>();
	/** Route buckets by handler name, one entry per route: a handler defined anew moves what its path links to. */
	readonly #handlerBuckets = new Map<string, OneOrMany<string>>();

	/** Takes in (`sign` 1) or lets go (-1) of what `file` holds. */
	apply(file: FileFacts, sign: 1 | -1): void {
		const edit = sign === 1 ? addOne : dropOne;
		for (const literal of nameLiterals(file)) edit(this.#literalFiles, literal, file.path);
		for (const bucket of routeBuckets(file)) edit(this.#routeFiles, bucket, file.path);
		for (const route of file.routes ?? []) {
			const bucket = bucketOf(route.path);
			if (route.handler !== undefined && bucket !== undefined)
				edit(this.#handlerBuckets, handlerParts(route.handler).name, bucket);
		}
	}

	/**
	 * The anchor keys an edit touching `names` (symbol names defined anew or removed) changes: the buckets of the
	 * routes those names handle, whose URL paths elsewhere resolve to the handlers.
	 */
	keysHandledBy(names: Iterable<string>): string[] {
		const keys: string[] = [];
		for (const name of names)
			for (const bucket of manyOf(this.#handlerBuckets.get(name))) keys.push(SEGMENT_KEY + bucket);
		return keys;
	}

	/** Files holding `literal`, when few enough do for it to bridge them (and more than one). */
	literalHolders(literal: string): readonly string[] {
		const holders = this.#literalFiles.get(literal);
		const count = countOf(holders);
		return count >= 2 && count <= MAX_LITERAL_FILES ? manyOf(holders) : [];
	}

	/** Every file holding `literal`, however many. */
	holdersOf(literal: string): readonly string[] {
		return manyOf(this.#literalFiles.get(literal));
	}

	/** How many files hold `literal`. */
	literalCount(literal: string): number {
		return countOf(this.#literalFiles.get(literal));
	}

	/** Files declaring a route whose first static segment is one of the static segments of `path`. */
	routeFilesFor(path: string): Set<string> {
		const files = new Set<string>();
		for (const segment of segmentsOf(path)) {
			if (isParameter(segment)) continue;
			for (const file of manyOf(this.#routeFiles.get(segment.toLowerCase()))) files.add(file);
		}
		return files;
	}
}

/** The name-like literals of a file (distinct, as extracted): neither URL paths nor command-line options. */
function nameLiterals(file: FileFacts): string[] {
	return (file.literals ?? []).filter((literal) => !isPathLiteral(literal) && !isOptionLiteral(literal));
}

/** The distinct buckets of a file's routes. */
function routeBuckets(file: FileFacts): Set<string> {
	const buckets = new Set<string>();
	for (const route of file.routes ?? []) {
		const bucket = bucketOf(route.path);
		if (bucket !== undefined) buckets.add(bucket);
	}
	return buckets;
}

/**
 * What an edit of a file changes of the anchors, from its facts before and after: the literals it gained or lost,
 * and the keys of every route bucket of either side, since the handler a URL path elsewhere links to is resolved
 * through the declaring file's own definitions and imports, which any edit may change.
 */
export function changedAnchors(before: FileFacts, after: FileFacts): { literals: string[]; keys: Set<string> } {
	const literals: string[] = [];
	const old = new Set(nameLiterals(before));
	for (const literal of nameLiterals(after)) if (!old.delete(literal)) literals.push(literal);
	for (const literal of old) literals.push(literal);
	const keys = new Set<string>();
	for (const bucket of routeBuckets(before)) keys.add(SEGMENT_KEY + bucket);
	for (const bucket of routeBuckets(after)) keys.add(SEGMENT_KEY + bucket);
	return { literals, keys };
}

/**
 * The keys and names `file`'s route edges are derived through: the static segments of its URL paths, and the handler
 * names of its routes. (Its literals are found through the table of holders, not referred by name: one entry less
 * per literal of the root.)
 */
export function referenceKeys(file: FileFacts): string[] {
	const keys: string[] = [];
	for (const literal of file.literals ?? []) {
		if (!isPathLiteral(literal)) continue;
		for (const segment of segmentsOf(literal))
			if (!isParameter(segment)) keys.push(SEGMENT_KEY + segment.toLowerCase());
	}
	for (const route of file.routes ?? []) if (route.handler !== undefined) keys.push(handlerParts(route.handler).name);
	return keys;
}
