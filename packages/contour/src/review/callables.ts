/**
 * Per-callable metrics, as plain data, from one syntax walk: name, container, kind, lines, source lines (non-blank,
 * non-comment lines of the callable, nested callables included), decision points and cyclomatic complexity
 * (decisions + 1), and the fingerprints that recognize the callable elsewhere: `bodyHash` (its exact tokens minus
 * its own name, so a move or a rename keeps it) and the clone fingerprints of `clones.ts`.
 */

import { digest, encodeShingles, MIN_CLONE_TOKENS, shinglesOf, tokenHashes } from "./clones.ts";
import type { NeedlessRule } from "./needless-code.ts";
import type { CallableKind, RawCallable, SyntaxWalk } from "./syntax-walk.ts";

/** The metrics of one callable. `key` is unique within its file. */
export interface CallableMeasure {
	/** `container.name`, with `#2`, `#3`, … for later callables of the same name and container in the file. */
	key: string;
	name: string;
	container?: string;
	kind: CallableKind;
	/** 1-based line of the name (or of the callable's start when it has no name of its own). */
	line: number;
	endLine: number;
	sourceLines: number;
	decisions: number;
	/** Decisions + 1. */
	cyclomatic: number;
	/** Number of tokens (comments excluded). */
	tokens: number;
	/** Digest of the callable's token texts without its own name: equal after a move or a rename. */
	bodyHash: string;
	/**
	 * Digest of the token texts after its name (parameters, return type, body), or `bodyHash`'s texts when the name
	 * is not among its tokens, without what only says how it is declared (`coreTexts`): equal when a function became
	 * a method (an arrow function or a Python function too), or lost its `export` or `function` keyword.
	 */
	coreHash: string;
	/** Digest of the normalized tokens: equal for exact clones. */
	shapeHash: string;
	/** Shingles for near-clone search (see `clones.ts`); only for callables of at least `MIN_CLONE_TOKENS` tokens. */
	shingles?: string;
}

/** A needless-code hit in a file, placed in its callable. */
export interface NeedlessHit {
	rule: NeedlessRule;
	line: number;
	endLine: number;
	/** Key of the innermost callable around the hit, if any. */
	callable?: string;
	/** The matched code on one line (whitespace collapsed, at most 400 characters). */
	text: string;
}

/**
 * The callables and needless-code hits of a walk, with keys, source lines and fingerprints. A callable the walk
 * copied from an earlier walk (`RawCallable.copiedFrom`) takes its fingerprints from `earlier`, that walk's measures:
 * the same tokens give the same ones.
 */
export function measureCallables(
	walk: SyntaxWalk,
	earlier?: readonly CallableMeasure[],
): { callables: CallableMeasure[]; needless: NeedlessHit[] } {
	const rowsBefore = prefixSums(walk.codeRows);
	let hashes: Uint32Array | undefined;
	const hashesOf = (): Uint32Array => {
		hashes ??= tokenHashes(walk.tokens);
		return hashes;
	};
	const seen = new Map<string, number>();
	const callables = walk.callables.map((raw) => {
		const base = raw.container === undefined ? raw.name : `${raw.container}.${raw.name}`;
		const count = (seen.get(base) ?? 0) + 1;
		seen.set(base, count);
		const key = count === 1 ? base : `${base}#${count}`;
		const copied = raw.copiedFrom === undefined ? undefined : earlier?.[raw.copiedFrom];
		return copied === undefined
			? measureOne(raw, key, walk, rowsBefore, hashesOf)
			: moved(copied, raw, key, rowsBefore);
	});
	const needless = walk.needless.map((raw) => {
		const hit: NeedlessHit = { rule: raw.rule, line: raw.line, endLine: raw.endLine, text: raw.text };
		const owner = callables[raw.callable];
		if (owner !== undefined) hit.callable = owner.key;
		return hit;
	});
	return { callables, needless };
}

function measureOne(
	raw: RawCallable,
	key: string,
	walk: SyntaxWalk,
	rowsBefore: Uint32Array,
	hashes: () => Uint32Array,
): CallableMeasure {
	const texts = walk.texts.slice(raw.tokenStart, raw.tokenEnd);
	if (raw.nameToken >= raw.tokenStart && raw.nameToken < raw.tokenEnd) texts[raw.nameToken - raw.tokenStart] = "";
	const tokens = raw.tokenEnd - raw.tokenStart;
	const measure: CallableMeasure = {
		key,
		name: raw.name,
		kind: raw.kind,
		line: raw.line,
		endLine: raw.endLine,
		sourceLines: (rowsBefore[raw.endRow + 1] as number) - (rowsBefore[raw.startRow] as number),
		decisions: raw.decisions,
		cyclomatic: raw.decisions + 1,
		tokens,
		bodyHash: digest(texts),
		coreHash: digest(
			coreTexts(
				raw.nameToken >= raw.tokenStart && raw.nameToken < raw.tokenEnd
					? texts.slice(raw.nameToken - raw.tokenStart + 1)
					: texts,
			),
		),
		shapeHash: digest(walk.tokens.slice(raw.tokenStart, raw.tokenEnd)),
	};
	if (raw.container !== undefined) measure.container = raw.container;
	if (tokens >= MIN_CLONE_TOKENS) measure.shingles = encodeShingles(shinglesOf(hashes(), raw.tokenStart, raw.tokenEnd));
	return measure;
}

/** `copied`, measured in an earlier version, as it stands at `raw` in this one: its place and key are this one's. */
function moved(copied: CallableMeasure, raw: RawCallable, key: string, rowsBefore: Uint32Array): CallableMeasure {
	return {
		...copied,
		key,
		line: raw.line,
		endLine: raw.endLine,
		sourceLines: (rowsBefore[raw.endRow + 1] as number) - (rowsBefore[raw.startRow] as number),
	};
}

/** Parameter names that make a Python function a method (`def f(self, x)`), which a plain function lacks. */
const RECEIVERS = new Set(["self", "cls"]);

/**
 * A callable's texts after its name without the syntax that says only how it is declared, so a function written one
 * way matches the same function written another: a function expression's leading `function` keyword, an arrow's
 * first `=>` (`handle = (e) => {…}` against `handle(e) {…}`), and a Python method's `self` or `cls` parameter (a
 * function turned into a method gains it).
 */
export function coreTexts(texts: readonly string[]): string[] {
	const core = texts[0] === "function" ? texts.slice(1) : [...texts];
	const arrow = core.indexOf("=>");
	if (arrow >= 0) core.splice(arrow, 1);
	if (core[0] === "(" && RECEIVERS.has(core[1] ?? "")) core.splice(1, core[2] === "," ? 2 : 1);
	return core;
}

/** `sums[r]` = number of code rows before row `r`; one entry longer than `rows`. */
function prefixSums(rows: Uint8Array): Uint32Array {
	const sums = new Uint32Array(rows.length + 1);
	for (let r = 0; r < rows.length; r++) sums[r + 1] = (sums[r] as number) + (rows[r] as number);
	return sums;
}
