/**
 * The syntax walk of a file's next version, reusing the walk of its previous one (`syntax-walk.ts`). A change's two
 * sides are mostly the same code: the after side is parsed from the before side's tree, edited where the texts
 * differ (`withSyntaxTrees`), and so is its walk. The walk records where the output of each child of the root (a
 * top-level declaration or statement) lies in its arrays; walking the next version, a child of the root that lies
 * wholly outside the edited region and that the previous version had at the same place (the same node type, the
 * same text, after the same kind of named sibling) gets that output copied, with its rows and indices shifted,
 * instead of a walk of its subtree. What is copied is what a walk of it gives: its tokens and their texts, the rows
 * holding them, its callables, needless-code hits and decisions outside every callable. Only trees without syntax
 * errors are recorded or reused: error recovery is where the same text may parse differently in another context.
 */

/** Where a callable lies in its walk (`RawCallable` adds what it is): the part of it reuse shifts. */
export interface CallableSpan {
	line: number;
	endLine: number;
	startRow: number;
	endRow: number;
	tokenStart: number;
	tokenEnd: number;
	/** Index of the callable's own name token (left out of its body hash), or -1. */
	nameToken: number;
	/** Its index among the callables of the earlier walk it was copied from, if it was. */
	copiedFrom?: number;
}

/** What of a walk's output (`SyntaxWalk`) reuse reads and writes. */
export interface WalkOutput {
	tokens: string[];
	texts: string[];
	codeRows: Uint8Array;
	callables: CallableSpan[];
	needless: { line: number; endLine: number; callable: number }[];
	moduleDecisions: number;
	segments?: readonly WalkSegment[];
}

/** Where the output of one child of the root lies in its walk's arrays. */
export interface WalkSegment {
	/** The child's offsets in its version's text (UTF-16, as the tree's). */
	start: number;
	end: number;
	typeId: number;
	/** The type of the named sibling before it (a run of the same type can count decisions), or "". */
	previousNamed: string;
	startRow: number;
	tokenStart: number;
	tokenEnd: number;
	callableStart: number;
	callableEnd: number;
	needlessStart: number;
	needlessEnd: number;
	moduleDecisions: number;
	/**
	 * The first and last rows its tokens hold (-1 without a token). The rows between hold only its tokens (siblings do
	 * not overlap), and those two hold one of its tokens each: in its walk's `codeRows`, the rows from `minRow` to
	 * `maxRow` are its rows.
	 */
	minRow: number;
	maxRow: number;
}

/** The region where two versions of a text differ (`textEdit` of the engine gives it). */
export interface EditedRegion {
	startIndex: number;
	oldEndIndex: number;
	newEndIndex: number;
}

/** The walk of the previous version and the edit from its text to this one's. */
export interface EarlierWalk {
	walk: WalkOutput;
	edit: EditedRegion;
}

/** A child of the root as the walk meets it. */
export interface RootChild {
	start: number;
	end: number;
	typeId: number;
	previousNamed: string;
	startRow: number;
}

/** The segments of one walk: recorded as it goes, and copied from an earlier walk where they may be. */
export class WalkSegments {
	readonly list: WalkSegment[] = [];
	#open: { segment: WalkSegment; decisionsAt: number } | undefined;
	readonly #earlier: EarlierWalk | undefined;
	#byStart: Map<number, WalkSegment> | undefined;

	constructor(earlier?: EarlierWalk) {
		this.#earlier = earlier?.walk.segments === undefined ? undefined : earlier;
	}

	/** Starts recording the output of `child`, whose walk begins now. */
	open(out: WalkOutput, child: RootChild): void {
		this.close(out);
		const segment: WalkSegment = {
			...child,
			tokenStart: out.tokens.length,
			tokenEnd: out.tokens.length,
			callableStart: out.callables.length,
			callableEnd: out.callables.length,
			needlessStart: out.needless.length,
			needlessEnd: out.needless.length,
			moduleDecisions: 0,
			minRow: -1,
			maxRow: -1,
		};
		this.#open = { segment, decisionsAt: out.moduleDecisions };
	}

	/** Notes that the open segment's tokens hold rows `first` to `last`. */
	mark(first: number, last: number): void {
		const segment = this.#open?.segment;
		if (segment === undefined) return;
		if (segment.minRow < 0) segment.minRow = first;
		if (last > segment.maxRow) segment.maxRow = last;
	}

	/** Ends the open segment, once its callables have ended. */
	close(out: WalkOutput): void {
		const open = this.#open;
		if (open === undefined) return;
		this.#open = undefined;
		const { segment } = open;
		segment.tokenEnd = out.tokens.length;
		segment.callableEnd = out.callables.length;
		segment.needlessEnd = out.needless.length;
		segment.moduleDecisions = out.moduleDecisions - open.decisionsAt;
		this.list.push(segment);
	}

	/**
	 * Copies into `out` the earlier walk's output of `child` when the earlier version had it at the same place
	 * (see the module comment); returns whether it did. The copy is recorded as this walk's segment too.
	 */
	reuse(out: WalkOutput, child: RootChild): boolean {
		const earlier = this.#earlier;
		if (earlier === undefined) return false;
		const { startIndex, oldEndIndex, newEndIndex } = earlier.edit;
		let shift: number;
		if (child.end <= startIndex) shift = 0;
		else if (child.start >= newEndIndex) shift = newEndIndex - oldEndIndex;
		else return false;
		this.#byStart ??= new Map((earlier.walk.segments ?? []).map((segment) => [segment.start, segment]));
		const old = this.#byStart.get(child.start - shift);
		if (
			old === undefined ||
			old.end !== child.end - shift ||
			old.typeId !== child.typeId ||
			old.previousNamed !== child.previousNamed
		)
			return false;
		this.close(out);
		const copy = copySegment(earlier.walk, old, out, child);
		this.list.push(copy);
		return true;
	}
}

/** Appends `old`'s output in `from` to `out`, shifted to where `child` stands; returns the copy's segment. */
function copySegment(from: WalkOutput, old: WalkSegment, out: WalkOutput, child: RootChild): WalkSegment {
	const rows = child.startRow - old.startRow;
	const tokens = out.tokens.length - old.tokenStart;
	const callables = out.callables.length - old.callableStart;
	const segment: WalkSegment = {
		...old,
		...child,
		tokenStart: old.tokenStart + tokens,
		tokenEnd: old.tokenEnd + tokens,
		callableStart: old.callableStart + callables,
		callableEnd: old.callableEnd + callables,
		needlessStart: out.needless.length,
		needlessEnd: out.needless.length + old.needlessEnd - old.needlessStart,
		minRow: old.minRow < 0 ? -1 : old.minRow + rows,
		maxRow: old.maxRow < 0 ? -1 : old.maxRow + rows,
	};
	for (let i = old.tokenStart; i < old.tokenEnd; i++) {
		out.tokens.push(from.tokens[i] as string);
		out.texts.push(from.texts[i] as string);
	}
	appendMoved(out.callables, from.callables, old.callableStart, old.callableEnd, (callable, i) => ({
		...callable,
		line: callable.line + rows,
		endLine: callable.endLine + rows,
		startRow: callable.startRow + rows,
		endRow: callable.endRow + rows,
		tokenStart: callable.tokenStart + tokens,
		tokenEnd: callable.tokenEnd + tokens,
		nameToken: callable.nameToken < 0 ? -1 : callable.nameToken + tokens,
		copiedFrom: i,
	}));
	appendMoved(out.needless, from.needless, old.needlessStart, old.needlessEnd, (hit) => ({
		...hit,
		line: hit.line + rows,
		endLine: hit.endLine + rows,
		callable: hit.callable < 0 ? -1 : hit.callable + callables,
	}));
	out.moduleDecisions += old.moduleDecisions;
	if (old.minRow >= 0)
		for (let row = old.minRow; row <= old.maxRow; row++) if (from.codeRows[row] === 1) out.codeRows[row + rows] = 1;
	return segment;
}

/** Appends the items `start` to `end` of `from` to `into`, each as `move` places it (given its index in `from`). */
function appendMoved<T>(
	into: T[],
	from: readonly T[],
	start: number,
	end: number,
	move: (item: T, at: number) => T,
): void {
	for (let i = start; i < end; i++) into.push(move(from[i] as T, i));
}
