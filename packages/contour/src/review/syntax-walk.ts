/**
 * The one walk over a file's syntax tree that every per-file metric comes from: callables with their decision
 * points, the normalized token stream (for clones and for recognizing moved code), the rows that hold code (for
 * source lines), needless-code hits and syntax errors.
 *
 * The walk uses a tree cursor, so ordinary nodes cost no JavaScript node objects; only callables, scopes and
 * needless-code candidates are looked at through the node API. Every cursor property is a call into WebAssembly, so
 * the walk asks for few: a node's type id (what the walk needs to know of the type is learnt once per type id,
 * `syntax-kinds.ts`), and for a token its start and end offsets (its text is sliced from the source, its rows found
 * among the line starts, moving forward as the tokens do). A scope or callable ends when the walk comes back to its
 * depth. Nothing here outlives the tree: the output is plain data (strings and numbers).
 *
 * Callables: every declaration with a body (functions, methods, constructors); a function expression or lambda
 * that has a name from its holder (`const f = () => …`) or from a call with a string first argument
 * (`it("works", () => …)`), or that sits outside every callable. Any other lambda (`xs.map((x) => …)`) is part of
 * the callable around it: its decisions are that callable's decisions, since a reviewer reads them together.
 *
 * Tokens: identifiers become `ID`, literals `LIT` (an interpolated string is one `LIT`, and the code inside its
 * interpolations is walked), keywords and operators stay as written; comments are dropped.
 */
import type { LanguageId } from "pi-fovea/engine";
import type { Node } from "web-tree-sitter";
import { callContextName, contextName, ownName, receiverType, scopeName } from "./callable-names.ts";
import { type NeedlessMatch, needlessAt } from "./needless-code.ts";
import { RowFinder } from "./source-rows.ts";
import { KIND, kindsOf } from "./syntax-kinds.ts";
import { profileOf } from "./syntax-profile.ts";
import { type CallableSpan, type EarlierWalk, type WalkSegment, WalkSegments } from "./walk-reuse.ts";

/** What kind of callable: a method of a class-like scope, a function, or a callback named by its call. */
export type CallableKind = "function" | "method" | "callback";

/** A callable as the walk found it; its span's token and row ranges index the walk's arrays. */
export interface RawCallable extends CallableSpan {
	name: string;
	container?: string;
	kind: CallableKind;
	decisions: number;
}

/** A needless-code hit and the index of the innermost callable around it (-1 outside every callable). */
export interface RawNeedless extends NeedlessMatch {
	callable: number;
}

/** Everything the walk collects from one file. */
export interface SyntaxWalk {
	/** Normalized tokens (`ID`, `LIT`, keywords, operators) in source order. */
	tokens: string[];
	/** The source text of each token, parallel to `tokens`. */
	texts: string[];
	/** `codeRows[r]` is 1 when 0-based row `r` holds a token that is not a comment. */
	codeRows: Uint8Array;
	callables: RawCallable[];
	needless: RawNeedless[];
	/** Decisions outside every callable (module-level code). */
	moduleDecisions: number;
	/** ERROR and MISSING nodes: the metrics are best effort when this is above zero. */
	parseErrors: number;
	/** Where each child of the root left its output, for the walk of a next version (`walk-reuse.ts`); none after a syntax error. */
	segments?: readonly WalkSegment[];
	/** Children of the root whose output was copied from the earlier walk instead of walked. */
	reused: number;
}

interface Frame {
	/** Depth of the frame's node: the next node at this depth or above is outside it. */
	depth: number;
	/** Scope name for containers; undefined for a callable that gives none. */
	name: string | undefined;
	classLike: boolean;
	/** Index into `callables` when the frame is a callable, else -1. */
	callable: number;
	nameStart: number;
}

/**
 * Walks the tree under `root` (the syntax tree of `source`, a file of `language` with `rowCount` rows) once and
 * returns its raw metrics. With `earlier` (the walk of the version this tree was parsed from, and the edit between
 * them), children of the root outside the edit are copied from it instead of walked (`walk-reuse.ts`).
 */
export function walkSyntax(
	root: Node,
	language: LanguageId,
	rowCount: number,
	source: string,
	earlier?: EarlierWalk,
): SyntaxWalk {
	const profile = profileOf(language);
	const kinds = kindsOf(root.tree.language, language);
	const rows = new RowFinder(source);
	// MISSING nodes only exist in a tree with errors; asking each node of a clean tree would be wasted calls.
	const mayMiss = root.hasError;
	const out: SyntaxWalk = {
		tokens: [],
		texts: [],
		codeRows: new Uint8Array(Math.max(rowCount, root.endPosition.row + 1)),
		callables: [],
		needless: [],
		moduleDecisions: 0,
		parseErrors: 0,
		reused: 0,
	};
	const segments = root.hasError ? undefined : new WalkSegments(earlier);
	const frames: Frame[] = [];
	/** Name and flags of the node at each depth of the current path. */
	const types: string[] = [];
	const flagsAt: number[] = [];
	const lastNamed: string[] = [""];
	let callableTop = -1; // index into frames of the innermost callable frame

	const decide = (): void => {
		const frame = frames[callableTop];
		if (frame === undefined) out.moduleDecisions++;
		else (out.callables[frame.callable] as RawCallable).decisions++;
	};
	const popFrames = (depth: number): void => {
		while (frames.length > 0 && (frames[frames.length - 1] as Frame).depth >= depth) {
			const frame = frames.pop() as Frame;
			if (frame.callable >= 0) {
				(out.callables[frame.callable] as RawCallable).tokenEnd = out.tokens.length;
				callableTop = findCallableTop(frames);
			}
		}
	};
	/** Emits the token `token` for `text`, the source between `start` and `end`. */
	const emit = (token: string, start: number, end: number, text: string): void => {
		const top = frames[callableTop];
		if (top !== undefined && top.nameStart === start)
			(out.callables[top.callable] as RawCallable).nameToken = out.tokens.length;
		out.tokens.push(token);
		out.texts.push(text);
		const first = rows.rowOf(start);
		const last = rows.rowAfter(first, end);
		for (let row = first; row <= last; row++) out.codeRows[row] = 1;
		segments?.mark(first, last);
	};
	const emitNode = (token: string, cursor: ReturnType<Node["walk"]>): void => {
		const start = cursor.startIndex;
		const end = cursor.endIndex;
		emit(token, start, end, source.slice(start, end));
	};
	const openCallable = (
		node: Node,
		depth: number,
		name: string,
		nameNode: Node | undefined,
		kind: CallableKind,
		container?: string,
	): void => {
		const callable: RawCallable = {
			name,
			kind,
			line: (nameNode !== undefined && nameNode.startIndex >= node.startIndex ? nameNode : node).startPosition.row + 1,
			endLine: node.endPosition.row + 1,
			startRow: node.startPosition.row,
			endRow: node.endPosition.row,
			tokenStart: out.tokens.length,
			tokenEnd: out.tokens.length,
			nameToken: -1,
			decisions: 0,
		};
		const scope = container ?? containerOf(frames);
		if (scope !== undefined) callable.container = scope;
		out.callables.push(callable);
		frames.push({
			depth,
			name,
			classLike: false,
			callable: out.callables.length - 1,
			nameStart: nameNode?.startIndex ?? -1,
		});
		callableTop = frames.length - 1;
	};

	/** Handles the node under the cursor; returns whether to walk into its children. */
	const visit = (cursor: ReturnType<Node["walk"]>, depth: number, type: string, flags: number): boolean => {
		const parentFlags = depth === 0 ? 0 : (flagsAt[depth - 1] as number);
		types[depth] = type;
		flagsAt[depth] = flags;
		if (frames.length > 0) popFrames(depth);
		if (mayMiss && cursor.nodeIsMissing) out.parseErrors++;
		if ((flags & KIND.named) === 0) {
			if ((parentFlags & KIND.interpolatedString) !== 0) return false; // quotes and backticks of the one `LIT`
			if ((parentFlags & KIND.leafDecisionParent) !== 0) {
				if (profile.leafDecisions.get(types[depth - 1] as string)?.has(type) === true) decide();
			}
			return true;
		}
		if ((flags & KIND.comment) !== 0) return false; // and not a sibling that breaks a run of `match` arms
		const previous = lastNamed[depth];
		lastNamed[depth] = type;
		if ((flags & KIND.error) !== 0) out.parseErrors++;
		if ((parentFlags & KIND.interpolatedString) !== 0 && (flags & KIND.interpolation) === 0) {
			return (flags & KIND.interpolatedString) !== 0; // the literal's own parts are already its one `LIT`
		}
		if ((flags & KIND.interpolatedString) !== 0) {
			emitNode("LIT", cursor);
			return true;
		}
		if ((flags & KIND.literal) !== 0) {
			emitNode("LIT", cursor);
			return false;
		}
		if ((flags & KIND.decision) !== 0) decide();
		if ((flags & KIND.repeatedDecision) !== 0 && previous === type) decide();
		if ((flags & KIND.needlessCandidate) !== 0) {
			const match = needlessAt(cursor.currentNode);
			if (match !== undefined) out.needless.push({ ...match, callable: frames[callableTop]?.callable ?? -1 });
		}
		if ((flags & KIND.namedFunction) !== 0) {
			const node = cursor.currentNode;
			if (node.childForFieldName("body") !== null) {
				const nameNode = ownName(node);
				const goMethod = type === "method_declaration" && language === "go";
				const kind = goMethod || frames[frames.length - 1]?.classLike === true ? "method" : "function";
				const name = nameNode?.text ?? "<anonymous>";
				openCallable(node, depth, name, nameNode, kind, goMethod ? receiverType(node) : undefined);
			}
		} else if ((flags & KIND.anonymousFunction) !== 0) {
			const node = cursor.currentNode;
			const held = contextName(node);
			if (held !== undefined) {
				const kind = frames[frames.length - 1]?.classLike === true ? "method" : "function";
				openCallable(node, depth, held, undefined, kind);
			} else {
				const called = callContextName(node, callableTop < 0);
				if (called !== undefined) openCallable(node, depth, called, undefined, "callback");
				else if (callableTop < 0) openCallable(node, depth, "<anonymous>", undefined, "callback");
			}
		} else if ((flags & KIND.classLike) !== 0) {
			const node = cursor.currentNode;
			frames.push({ depth, name: scopeName(node), classLike: true, callable: -1, nameStart: -1 });
		}
		return true;
	};

	/**
	 * At a child of the root: ends the segment of the one before, then copies this one from the earlier walk
	 * (returns true: its subtree is not walked) or starts its segment. Comments and unnamed nodes are walked as ever.
	 */
	const rootChild = (cursor: ReturnType<Node["walk"]>, typeId: number, flags: number): boolean => {
		if (segments === undefined) return false;
		if (frames.length > 0) popFrames(1);
		segments.close(out);
		if ((flags & KIND.named) === 0 || (flags & KIND.comment) !== 0 || frames.length > 0) return false;
		const start = cursor.startIndex;
		const child = {
			start,
			end: cursor.endIndex,
			typeId,
			previousNamed: lastNamed[1] as string,
			startRow: rows.rowOf(start),
		};
		if (!segments.reuse(out, child)) {
			segments.open(out, child);
			return false;
		}
		out.reused++;
		const type = kinds.name(typeId);
		types[1] = type;
		flagsAt[1] = flags;
		lastNamed[1] = type;
		return true;
	};

	const cursor = root.walk();
	try {
		let depth = 0;
		for (;;) {
			const typeId = cursor.nodeTypeId;
			const flags = kinds.flags(typeId);
			if (depth === 1 && rootChild(cursor, typeId, flags)) {
				// copied from the earlier walk
			} else if (visit(cursor, depth, kinds.name(typeId), flags)) {
				if (cursor.gotoFirstChild()) {
					depth++;
					lastNamed[depth] = "";
					continue;
				}
				if ((flags & KIND.error) === 0) {
					const start = cursor.startIndex;
					const end = cursor.endIndex;
					const text = source.slice(start, end);
					if (text.trim() !== "") emit(kinds.token(typeId), start, end, text);
				}
			}
			while (!cursor.gotoNextSibling()) {
				if (depth === 0 || !cursor.gotoParent()) {
					popFrames(0);
					if (segments !== undefined) {
						segments.close(out);
						out.segments = segments.list;
					}
					return out;
				}
				depth--;
			}
		}
	} finally {
		cursor.delete();
	}
}

function findCallableTop(frames: Frame[]): number {
	for (let i = frames.length - 1; i >= 0; i--) if ((frames[i] as Frame).callable >= 0) return i;
	return -1;
}

/** Names of the enclosing scopes and named callables, outermost first, joined by `.`. */
function containerOf(frames: Frame[]): string | undefined {
	const names = frames.map((frame) => frame.name).filter((name): name is string => name !== undefined);
	return names.length === 0 ? undefined : names.join(".");
}
