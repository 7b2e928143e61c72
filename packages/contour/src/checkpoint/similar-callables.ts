/**
 * Where in the whole project a copy of changed code could come from, chosen from the code map's facts alone, without
 * reading or parsing a file: clone search can only afford to measure a few files beyond the changed files'
 * neighbours, and copy-paste travels across directories too.
 *
 * A file is a candidate when it holds a function or method whose line span is close to that of a new or changed
 * callable (a copy keeps its length; a near copy changes a statement or two) and that calls mostly the same names (a
 * copied body calls what the original calls): at least half of the names the two call together. Candidates rank by
 * the number of names they share, then by that share and by closeness of span, whichever target they resemble.
 * Length alone says little (a project has many functions of any length), so a callable that calls fewer than two
 * names chooses no distant file: its copies can only be found among the neighbours.
 */
import type { FileFacts } from "pi-fovea/engine";
import { type CallableMeasure, MIN_CLONE_TOKENS } from "../review/index.ts";

/** Files chosen from the whole project for clone search, at most (beyond the changed files' neighbours). */
export const MAX_DISTANT_CLONE_FILES = 16;
/**
 * A neighbouring file is worth measuring only if one of its callables spans at least this share of a target's (and
 * the reverse): clones have about the same number of tokens, so about the same number of lines. Looser than for
 * distant files, since neighbours are not chosen by their called names.
 */
const NEIGHBOUR_SPAN = 0.5;
/** A callable is a candidate when its span is at least this share of the target's (and the reverse). */
export const SPAN_CLOSENESS = 0.75;
/** …and when the names both call are at least this share of all the names either calls. */
export const SHARED_NAMES = 0.5;
/** A target calling fewer names chooses no distant file: one name or none in common is no evidence of a copy. */
const MIN_NAMES = 2;
const CALLABLE_KINDS = new Set(["function", "method"]);

/** A new or changed callable of the change, searched for copies. */
export interface CloneTarget {
	/** Its file (after path). */
	file: string;
	callable: Pick<CallableMeasure, "line" | "endLine" | "tokens">;
}

/** The targets clone search can find copies of: callables of at least `MIN_CLONE_TOKENS` tokens. */
export function searchedTargets(targets: readonly CloneTarget[]): CloneTarget[] {
	return targets.filter((target) => target.callable.tokens >= MIN_CLONE_TOKENS);
}

/** Whether a file whose facts are `facts` holds a function or method of a span like one of `targets`'. */
export function holdsSimilarSpan(facts: FileFacts, targets: readonly CloneTarget[]): boolean {
	return facts.symbols.some((symbol) => {
		if (!CALLABLE_KINDS.has(symbol.kind)) return false;
		const span = symbol.endLine - symbol.line;
		return targets.some((target) => {
			const other = target.callable.endLine - target.callable.line;
			return span === other || Math.min(span, other) / Math.max(span, other) >= NEIGHBOUR_SPAN;
		});
	});
}

/**
 * Up to `limit` files of `files` (the code map's facts) that `accept` lets through, holding callables most like the
 * `targets` by called names and span; best first (a file ranks by its best score for any target).
 */
export function similarCallableFiles(
	targets: readonly CloneTarget[],
	files: ReadonlyMap<string, FileFacts>,
	accept: (path: string) => boolean,
	limit = MAX_DISTANT_CLONE_FILES,
): string[] {
	const shapes = targetShapes(targets, (path) => files.get(path));
	if (shapes.length === 0 || limit <= 0) return [];
	const best = new Map<string, number>();
	for (const [path, facts] of files) {
		if (!accept(path)) continue;
		const score = resemblance(facts, shapes);
		if (score !== undefined) best.set(path, score);
	}
	return [...best]
		.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
		.slice(0, limit)
		.map(([path]) => path);
}

/** A searched target as distant files are compared with it: its span and the names it calls. */
export interface TargetShape {
	span: number;
	names: Set<string>;
}

/**
 * The shapes of the searched `targets` (`factsOf` gives their files' facts, for the names they call); targets that
 * call fewer than `MIN_NAMES` names choose no distant file and are left out.
 */
export function targetShapes(
	targets: readonly CloneTarget[],
	factsOf: (path: string) => FileFacts | undefined,
): TargetShape[] {
	const shapes: TargetShape[] = [];
	for (const target of searchedTargets(targets)) {
		const { line, endLine } = target.callable;
		const names = calledNames(factsOf(target.file), line, endLine);
		if (names.size >= MIN_NAMES) shapes.push({ span: endLine - line, names });
	}
	return shapes;
}

/**
 * How much a file whose facts are `facts` resembles the targets: the best score of its functions and methods (more
 * names in common first, then their share, then closeness of span), or `undefined` when none is a candidate.
 */
export function resemblance(facts: FileFacts, shapes: readonly TargetShape[]): number | undefined {
	let best: number | undefined;
	for (const symbol of facts.symbols) {
		if (!CALLABLE_KINDS.has(symbol.kind)) continue;
		const other = symbol.endLine - symbol.line;
		let theirs: Set<string> | undefined; // computed once per symbol, and only when some span is close
		for (const { span, names } of shapes) {
			const closeness = Math.min(span, other) / Math.max(span, other, 1);
			if (closeness < SPAN_CLOSENESS && span !== other) continue;
			theirs ??= calledNames(facts, symbol.line, symbol.endLine);
			const share = jaccard(names, theirs);
			if (share < SHARED_NAMES) continue;
			const score = sharedCount(names, theirs) + share + closeness / 2;
			if (best === undefined || score > best) best = score;
		}
	}
	return best;
}

/** The names called between `line` and `endLine` of a file, per its facts. */
function calledNames(facts: FileFacts | undefined, line: number, endLine: number): Set<string> {
	const names = new Set<string>();
	if (facts === undefined) return names;
	const { callee, line: at } = facts.calls;
	for (let i = 0; i < callee.length; i++) {
		const callLine = at[i] as number;
		if (callLine >= line && callLine <= endLine) names.add(callee[i] as string);
	}
	return names;
}

function sharedCount(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
	let shared = 0;
	for (const name of a) if (b.has(name)) shared++;
	return shared;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
	if (a.size === 0 || b.size === 0) return 0;
	const shared = sharedCount(a, b);
	return shared / (a.size + b.size - shared);
}
