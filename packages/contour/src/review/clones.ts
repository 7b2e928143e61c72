/**
 * Duplicate callables. Each callable's normalized token sequence (identifiers → `ID`, literals → `LIT`, keywords and
 * operators as written) gives two fingerprints:
 *
 * - `shapeHash`, a digest of the whole sequence: two callables with the same shape hash are **exact clones** —
 *   the same code up to names and literal values.
 * - `shingles`, the sorted multiset of 16-bit hashes of every run of `SHINGLE_TOKENS` consecutive tokens: two
 *   callables whose shingle multisets have a (weighted) Jaccard similarity of at least `NEAR_CLONE_SIMILARITY` are
 *   **near clones**, e.g. a copy with renamed identifiers and a statement changed. A multiset rather than a set,
 *   so that a function of two similar `if`s and one of nine are not alike just because repetition collapses.
 *
 * Thresholds: `MIN_CLONE_TOKENS` (40 normalized tokens, about five short lines) keeps one-line getters and
 * delegating wrappers, which are alike by nature, out of clone search; shingles of `SHINGLE_TOKENS` = 5 tokens are
 * long enough that two unrelated callables share few of them; `NEAR_CLONE_SIMILARITY` = 0.7 accepts one changed
 * statement in a callable of ten or so statements and rejects callables that only share a skeleton. Similarity is
 * computed exactly on the multisets (no MinHash estimate), after a size filter: two multisets whose sizes differ by
 * more than the threshold allows cannot reach it.
 *
 * Storage: a measure is cached as JSON per file, so shingles are kept as base64 of little-endian 16-bit values
 * (under 3 characters each, against 11 for a decimal 32-bit number). 16 bits are enough: two unrelated callables of
 * 300 shingles share about one hash by chance, which moves their similarity by well under 1%.
 */
import { hash } from "node:crypto";

/** Callables with fewer normalized tokens are left out of clone search. */
export const MIN_CLONE_TOKENS = 40;
/** Tokens per shingle. */
export const SHINGLE_TOKENS = 5;
/** Shingle similarity from which two callables are near clones. */
export const NEAR_CLONE_SIMILARITY = 0.7;
/**
 * Candidates one review compares at most. Every new callable compared with the whole pool is quadratic, and a
 * generated file of thousands of look-alike functions would hold a review for minutes; half a million comparisons
 * stay well under a second. A search cut short is a coverage gap of its file, never a complete search claimed.
 */
export const MAX_CLONE_COMPARISONS = 500_000;
/** Candidates one callable is compared with at most (its share of `MAX_CLONE_COMPARISONS` may be less). */
export const MAX_CLONE_COMPARISONS_PER_CALLABLE = 5_000;

/** What clone search needs of a callable (a `CallableMeasure` has it). */
export interface CloneFingerprint {
	key: string;
	line: number;
	endLine: number;
	tokens: number;
	shapeHash: string;
	/** Sorted 16-bit shingle hashes, repeats kept, as base64 (`encodeShingles`); absent below `MIN_CLONE_TOKENS`. */
	shingles?: string;
}

/** A callable of some file, as a clone-search candidate. */
export interface CloneCandidate<C extends CloneFingerprint = CloneFingerprint> {
	file: string;
	callable: C;
}

/** A clone of a target callable: which one, how alike, and whether exactly. */
export interface CloneMatch<C extends CloneFingerprint = CloneFingerprint> {
	kind: "exact" | "near";
	similarity: number;
	other: CloneCandidate<C>;
}

/** Thresholds and bounds of clone search (defaults above). */
export interface CloneOptions {
	minTokens?: number;
	nearSimilarity?: number;
	/** Candidates one review compares at most, shared among its callables (see `cloneFindings`). */
	maxComparisons?: number;
	/** Candidates one callable is compared with at most. */
	maxComparisonsPerCallable?: number;
}

/** What one search found, what it cost, and whether it compared every candidate that could be a clone. */
export interface CloneSearch<C extends CloneFingerprint = CloneFingerprint> {
	/** Most similar first. */
	matches: CloneMatch<C>[];
	/** Candidates compared: each of the target's shape, and each other one of a size a near clone could have. */
	comparisons: number;
	/** False when the budget ran out first: clones among the candidates left are not known. */
	complete: boolean;
}

/**
 * Hex digest (16 characters of sha256) of a token sequence, each token followed by a separator that cannot occur in
 * a token. The tokens are joined first: one update per token and separator would cost a native call each, and
 * nested callables hash their tokens again; the bytes hashed are the same.
 */
export function digest(parts: readonly string[]): string {
	// One call, without a Hash object per callable (three digests each).
	return hash("sha256", parts.length > 0 ? `${parts.join("\0")}\0` : "", "hex").slice(0, 16);
}

/** 32-bit FNV-1a of a string. */
function fnv1a(text: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	return hash >>> 0;
}

/** The 32-bit FNV-1a hash of each token, for {@link shinglesOf}: computed once per file, read by every callable. */
export function tokenHashes(tokens: readonly string[]): Uint32Array {
	const hashes = new Uint32Array(tokens.length);
	// A file's normalized tokens are few distinct strings (`ID`, `LIT`, keywords, operators) repeated.
	const known = new Map<string, number>();
	for (let i = 0; i < tokens.length; i++) {
		const token = tokens[i] as string;
		let hash = known.get(token);
		if (hash === undefined) {
			hash = fnv1a(token);
			known.set(token, hash);
		}
		hashes[i] = hash;
	}
	return hashes;
}

/**
 * Sorted 16-bit hashes (repeats kept) of every `SHINGLE_TOKENS`-token run of the tokens `[start, end)` (one if
 * shorter), given `tokenHashes` of the tokens (nested callables share one file's hashes).
 */
export function shinglesOf(tokens: Uint32Array, start: number, end: number): Uint16Array {
	const length = Math.max(0, end - start);
	const count = length === 0 ? 0 : Math.max(1, length - SHINGLE_TOKENS + 1);
	const out = new Uint16Array(count);
	for (let i = 0; i < count; i++) {
		let hash = 0x811c9dc5;
		for (let j = start + i; j < Math.min(start + i + SHINGLE_TOKENS, end); j++) {
			hash = Math.imul(hash ^ (tokens[j] as number), 0x01000193) >>> 0;
		}
		out[i] = (hash ^ (hash >>> 16)) & 0xffff;
	}
	return out.sort();
}

/** Typed arrays are in the platform's byte order: little-endian ones copy whole, others go value by value. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Shingles as stored in a measure: base64 of the little-endian 16-bit values. */
export function encodeShingles(shingles: Uint16Array): string {
	if (LITTLE_ENDIAN) return Buffer.from(shingles.buffer, shingles.byteOffset, shingles.byteLength).toString("base64");
	const bytes = Buffer.alloc(shingles.length * 2);
	for (let i = 0; i < shingles.length; i++) bytes.writeUInt16LE(shingles[i] as number, i * 2);
	return bytes.toString("base64");
}

const decoded = new Map<string, Uint16Array>();
const MAX_DECODED = 4096;

/** The shingles of a stored string (a small cache spares decoding the same callable once per comparison). */
export function decodeShingles(text: string): Uint16Array {
	let values = decoded.get(text);
	if (values === undefined) {
		const bytes = Buffer.from(text, "base64");
		values = new Uint16Array(bytes.length >> 1);
		if (LITTLE_ENDIAN) new Uint8Array(values.buffer).set(bytes.subarray(0, values.byteLength));
		else for (let i = 0; i < values.length; i++) values[i] = bytes.readUInt16LE(i * 2);
		if (decoded.size >= MAX_DECODED) decoded.clear();
		decoded.set(text, values);
	}
	return values;
}

/** Weighted Jaccard similarity of two sorted number multisets: shared count over union count. */
export function jaccard(a: ArrayLike<number>, b: ArrayLike<number>): number {
	if (a.length === 0 && b.length === 0) return 1;
	let i = 0;
	let j = 0;
	let shared = 0;
	while (i < a.length && j < b.length) {
		const x = a[i] as number;
		const y = b[j] as number;
		if (x === y) {
			shared++;
			i++;
			j++;
		} else if (x < y) i++;
		else j++;
	}
	return shared / (a.length + b.length - shared);
}

/** How alike two callables are: 1 for the same shape, else the Jaccard similarity of their shingles (0 if either is too small). */
export function similarity(a: CloneFingerprint, b: CloneFingerprint, options: CloneOptions = {}): number {
	const minTokens = options.minTokens ?? MIN_CLONE_TOKENS;
	if (a.tokens < minTokens || b.tokens < minTokens) return 0;
	if (a.shapeHash === b.shapeHash) return 1;
	if (a.shingles === undefined || b.shingles === undefined) return 0;
	return jaccard(decodeShingles(a.shingles), decodeShingles(b.shingles));
}

/**
 * The clones of `target` among `pool`, most similar first. The target itself and callables nested in it (or it in
 * them) are never its clones. For many targets, index the pool once in a `ClonePool`.
 */
export function findClones<C extends CloneFingerprint>(
	target: CloneCandidate<C>,
	pool: Iterable<CloneCandidate<C>>,
	options: CloneOptions = {},
): CloneMatch<C>[] {
	return new ClonePool(pool, options).search(target).matches;
}

/**
 * Clone candidates indexed once for many searches, so a search compares only what could be a clone: the callables
 * of the target's shape (exact clones), then those of a shingle count the similarity threshold allows (near clones),
 * nearest count first, up to a budget of comparisons.
 */
export class ClonePool<C extends CloneFingerprint> {
	readonly #byShape = new Map<string, PoolEntry<C>[]>();
	/** Ascending by shingle count; equal counts in pool order. */
	readonly #bySize: PoolEntry<C>[] = [];
	readonly #minTokens: number;
	readonly #threshold: number;
	readonly #options: CloneOptions;

	constructor(pool: Iterable<CloneCandidate<C>>, options: CloneOptions = {}) {
		this.#options = options;
		this.#minTokens = options.minTokens ?? MIN_CLONE_TOKENS;
		this.#threshold = options.nearSimilarity ?? NEAR_CLONE_SIMILARITY;
		let index = 0;
		for (const candidate of pool) {
			const callable = candidate.callable;
			if (callable.tokens < this.#minTokens) continue;
			const entry = { candidate, index: index++, size: shingleCount(callable) };
			const same = this.#byShape.get(callable.shapeHash);
			if (same === undefined) this.#byShape.set(callable.shapeHash, [entry]);
			else same.push(entry);
			this.#bySize.push(entry);
		}
		this.#bySize.sort((a, b) => a.size - b.size);
	}

	/** The clones of `target` among the pool, comparing at most `budget` candidates. */
	search(target: CloneCandidate<C>, budget = Number.POSITIVE_INFINITY): CloneSearch<C> {
		const t = target.callable;
		const found: { match: CloneMatch<C>; index: number }[] = [];
		let comparisons = 0;
		// Equally similar matches keep the pool's order within a file, whichever way the search came upon them.
		const done = (complete: boolean): CloneSearch<C> => ({
			matches: found
				.sort(
					(a, b) =>
						b.match.similarity - a.match.similarity ||
						a.match.other.file.localeCompare(b.match.other.file) ||
						a.index - b.index,
				)
				.map((entry) => entry.match),
			comparisons,
			complete,
		});
		if (t.tokens < this.#minTokens) return done(true);
		const itself = (other: CloneCandidate<C>): boolean => {
			const o = other.callable;
			return other.file === target.file && (o.key === t.key || nested(o, t) || nested(t, o));
		};
		for (const { candidate: other, index } of this.#byShape.get(t.shapeHash) ?? []) {
			if (itself(other)) continue;
			if (comparisons >= budget) return done(false);
			comparisons++;
			found.push({ match: { kind: "exact", similarity: 1, other }, index });
		}
		// Two shingle multisets whose sizes differ by more than the threshold allows cannot reach it: only the window
		// around the target's size is compared, walking outwards from it.
		const size = shingleCount(t);
		const sizes = this.#bySize;
		let right = lowerBound(sizes, size);
		let left = right - 1;
		for (;;) {
			const leftSize = left >= 0 ? (sizes[left] as PoolEntry<C>).size : -1;
			const rightSize = right < sizes.length ? (sizes[right] as PoolEntry<C>).size : -1;
			const leftOk = leftSize >= 0 && leftSize >= this.#threshold * size;
			const rightOk = rightSize >= 0 && size >= this.#threshold * rightSize;
			if (!leftOk && !rightOk) break;
			const fromRight = rightOk && (!leftOk || rightSize - size <= size - leftSize);
			const { candidate: other, index } = sizes[fromRight ? right++ : left--] as PoolEntry<C>;
			if (other.callable.shapeHash === t.shapeHash || itself(other)) continue;
			if (comparisons >= budget) return done(false);
			comparisons++;
			const score = similarity(t, other.callable, this.#options);
			if (score >= this.#threshold) found.push({ match: { kind: "near", similarity: score, other }, index });
		}
		return done(true);
	}
}

/** A candidate of a pool, with its place in the pool and its shingle count. */
interface PoolEntry<C extends CloneFingerprint> {
	candidate: CloneCandidate<C>;
	index: number;
	size: number;
}

/** The first index of `sorted` whose size is at least `size`. */
function lowerBound(sorted: readonly { size: number }[], size: number): number {
	let lo = 0;
	let hi = sorted.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if ((sorted[mid] as { size: number }).size < size) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** Whether `inner` lies within the lines of `outer`. */
function nested(inner: CloneFingerprint, outer: CloneFingerprint): boolean {
	return inner.line >= outer.line && inner.endLine <= outer.endLine;
}

/** Number of shingles of a callable, read from the stored length without decoding. */
function shingleCount(callable: CloneFingerprint): number {
	const text = callable.shingles;
	if (text === undefined) return 0;
	const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
	return ((text.length / 4) * 3 - padding) >> 1;
}
