/**
 * Where in the whole project a copy of changed code could come from, chosen from the code map's facts alone, without
 * reading or parsing a file: clone search can only afford to measure a few files beyond the changed files'
 * neighbours, and copy-paste travels across directories too.
 *
 * A file is a candidate when it holds a function or method whose line span is close to that of a new or changed
 * callable (a copy keeps its length; a near copy changes a statement or two) and that calls mostly the same names (a
 * copied body calls what the original calls): at least half of the names the two call together, or, for a callable
 * that calls fewer than two names, the same names and the very same span. Candidates rank by the share of shared
 * names, then by closeness of span. Each target callable contributes its best files in turn, so one long list does
 * not crowd out the others. Length alone says little (a project has many functions of any length), so it never
 * makes a candidate by itself.
 */
import type { FileFacts } from "pi-fovea/engine";
import { type CallableMeasure, MIN_CLONE_TOKENS } from "../review/index.ts";

/** Files chosen from the whole project for clone search, at most (beyond the changed files' neighbours). */
export const MAX_DISTANT_CLONE_FILES = 16;
/** A callable is a candidate when its span is at least this share of the target's (and the reverse). */
const SPAN_CLOSENESS = 0.75;
/** …and when the names both call are at least this share of all the names either calls. */
const SHARED_NAMES = 0.5;
const CALLABLE_KINDS = new Set(["function", "method"]);

/** A new or changed callable of the change, searched for copies. */
export interface CloneTarget {
	/** Its file (after path). */
	file: string;
	callable: Pick<CallableMeasure, "line" | "endLine" | "tokens">;
}

/**
 * Up to `limit` files of `files` (the code map's facts), none of them in `exclude`, holding callables most like the
 * `targets` by span and called names; best first, targets taking turns.
 */
export function similarCallableFiles(
	targets: readonly CloneTarget[],
	files: ReadonlyMap<string, FileFacts>,
	accept: (path: string) => boolean,
	limit = MAX_DISTANT_CLONE_FILES,
): string[] {
	const searched = targets.filter((target) => target.callable.tokens >= MIN_CLONE_TOKENS);
	if (searched.length === 0 || limit <= 0) return [];
	const rankings = searched.map((target) => rankFiles(target, files, accept));
	const chosen = new Set<string>();
	for (let round = 0; chosen.size < limit; round++) {
		let any = false;
		for (const ranking of rankings) {
			const path = ranking[round];
			if (path === undefined) continue;
			any = true;
			chosen.add(path);
			if (chosen.size >= limit) break;
		}
		if (!any) break;
	}
	return [...chosen];
}

/** The files with a callable like `target`, best first. */
function rankFiles(
	target: CloneTarget,
	files: ReadonlyMap<string, FileFacts>,
	accept: (path: string) => boolean,
): string[] {
	const { line, endLine } = target.callable;
	const span = endLine - line;
	const names = calledNames(files.get(target.file), line, endLine);
	const scored: [string, number][] = [];
	for (const [path, facts] of files) {
		if (!accept(path)) continue;
		let best = -1;
		for (const symbol of facts.symbols) {
			if (!CALLABLE_KINDS.has(symbol.kind)) continue;
			const other = symbol.endLine - symbol.line;
			const closeness = Math.min(span, other) / Math.max(span, other, 1);
			if (closeness < SPAN_CLOSENESS && span !== other) continue;
			const theirs = calledNames(facts, symbol.line, symbol.endLine);
			const shared = names.size >= 2 ? jaccard(names, theirs) : sameNames(names, theirs) && span === other ? 1 : 0;
			if (shared < SHARED_NAMES) continue;
			best = Math.max(best, shared + closeness / 2);
		}
		if (best >= 0) scored.push([path, best]);
	}
	return scored.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([path]) => path);
}

/** The names called between `line` and `endLine` of a file, per its facts. */
function calledNames(facts: FileFacts | undefined, line: number, endLine: number): Set<string> {
	const names = new Set<string>();
	for (const call of facts?.calls ?? []) if (call.line >= line && call.line <= endLine) names.add(call.callee);
	return names;
}

function sameNames(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
	return a.size === b.size && [...a].every((name) => b.has(name));
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
	if (a.size === 0 || b.size === 0) return 0;
	let shared = 0;
	for (const name of a) if (b.has(name)) shared++;
	return shared / (a.size + b.size - shared);
}
