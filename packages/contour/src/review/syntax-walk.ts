/**
 * The one walk over a file's syntax tree that every per-file metric comes from: callables with their decision
 * points, the normalized token stream (for clones and for recognizing moved code), the rows that hold code (for
 * source lines), needless-code hits and syntax errors.
 *
 * The walk uses a tree cursor, so ordinary nodes cost no JavaScript node objects; only callables, scopes and
 * needless-code candidates are looked at through the node API. Every cursor property is a call into WebAssembly, so
 * the walk asks for few: a node's type id (its name and whether it is named are looked up once per type), and for a
 * token its start and end offsets (its text is sliced from the source, its rows found among the line starts). A
 * scope or callable ends when the walk comes back to its depth. Nothing here outlives the tree: the output is plain
 * data (strings and numbers).
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
import { type NeedlessMatch, needlessAt, needlessCandidates } from "./needless-code.ts";
import { isLiteral, profileOf } from "./syntax-profile.ts";

/** What kind of callable: a method of a class-like scope, a function, or a callback named by its call. */
export type CallableKind = "function" | "method" | "callback";

/** A callable as the walk found it; token and row ranges index the walk's arrays. */
export interface RawCallable {
	name: string;
	container?: string;
	kind: CallableKind;
	line: number;
	endLine: number;
	startRow: number;
	endRow: number;
	tokenStart: number;
	tokenEnd: number;
	/** Index of the callable's own name token (left out of its body hash), or -1. */
	nameToken: number;
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
 * returns its raw metrics.
 */
export function walkSyntax(root: Node, language: LanguageId, rowCount: number, source: string): SyntaxWalk {
	const profile = profileOf(language);
	const kinds = nodeKinds(root);
	const rows = new LineIndex(source);
	// MISSING nodes only exist in a tree with errors; asking each node of a clean tree would be wasted calls.
	const mayMiss = root.hasError;
	const candidates = needlessCandidates(language);
	const out: SyntaxWalk = {
		tokens: [],
		texts: [],
		codeRows: new Uint8Array(Math.max(rowCount, root.endPosition.row + 1)),
		callables: [],
		needless: [],
		moduleDecisions: 0,
		parseErrors: 0,
	};
	const frames: Frame[] = [];
	const types: string[] = [];
	const lastNamed: string[] = [""];
	let callableTop = -1; // index into frames of the innermost callable frame

	const markRows = (from: number, to: number): void => {
		for (let row = from; row <= to; row++) out.codeRows[row] = 1;
	};
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
	/** Emits the token `token` for the source between `start` and `end`. */
	const emit = (token: string, start: number, end: number): void => {
		const top = frames[callableTop];
		if (top !== undefined && top.nameStart === start)
			(out.callables[top.callable] as RawCallable).nameToken = out.tokens.length;
		out.tokens.push(token);
		out.texts.push(source.slice(start, end));
		markRows(rows.rowOf(start), rows.rowOf(end));
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
	const visit = (cursor: ReturnType<Node["walk"]>, depth: number, type: string, named: boolean): boolean => {
		const parentType = types[depth - 1] ?? "";
		types[depth] = type;
		popFrames(depth);
		if (mayMiss && cursor.nodeIsMissing) out.parseErrors++;
		if (!named) {
			if (profile.interpolatedStrings.has(parentType)) return false; // quotes and backticks of the one `LIT`
			if (profile.leafDecisions.get(parentType)?.has(type) === true) decide();
			return true;
		}
		if (profile.comments.has(type)) return false; // and not a sibling that breaks a run of `match` arms
		const previous = lastNamed[depth];
		lastNamed[depth] = type;
		if (type === "ERROR") out.parseErrors++;
		if (profile.interpolatedStrings.has(parentType) && !profile.interpolations.has(type)) {
			return profile.interpolatedStrings.has(type); // the literal's own parts are already its one `LIT`
		}
		if (profile.interpolatedStrings.has(type)) {
			emit("LIT", cursor.startIndex, cursor.endIndex);
			return true;
		}
		if (isLiteral(profile, type)) {
			emit("LIT", cursor.startIndex, cursor.endIndex);
			return false;
		}
		if (profile.decisions.has(type)) decide();
		if (profile.repeatedDecisions.has(type) && previous === type) decide();
		if (candidates.has(type)) {
			const match = needlessAt(cursor.currentNode);
			if (match !== undefined) out.needless.push({ ...match, callable: frames[callableTop]?.callable ?? -1 });
		}
		if (profile.namedFunctions.has(type)) {
			const node = cursor.currentNode;
			if (node.childForFieldName("body") !== null) {
				const nameNode = ownName(node);
				const goMethod = type === "method_declaration" && language === "go";
				const kind = goMethod || frames[frames.length - 1]?.classLike === true ? "method" : "function";
				const name = nameNode?.text ?? "<anonymous>";
				openCallable(node, depth, name, nameNode, kind, goMethod ? receiverType(node) : undefined);
			}
		} else if (profile.anonymousFunctions.has(type)) {
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
		} else if (profile.classLikes.has(type)) {
			const node = cursor.currentNode;
			frames.push({ depth, name: scopeName(node), classLike: true, callable: -1, nameStart: -1 });
		}
		return true;
	};

	const cursor = root.walk();
	try {
		let depth = 0;
		for (;;) {
			const typeId = cursor.nodeTypeId;
			const type = kinds.name(typeId);
			const named = kinds.named(typeId);
			if (visit(cursor, depth, type, named)) {
				if (cursor.gotoFirstChild()) {
					depth++;
					lastNamed[depth] = "";
					continue;
				}
				if (type !== "ERROR") {
					const start = cursor.startIndex;
					const end = cursor.endIndex;
					if (source.slice(start, end).trim() !== "") {
						emit(!named ? type : type.includes("identifier") ? "ID" : type, start, end);
					}
				}
			}
			while (!cursor.gotoNextSibling()) {
				if (depth === 0 || !cursor.gotoParent()) {
					popFrames(0);
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

/** Names of node types and whether they are named, by type id, asked of the grammar once per type. */
function nodeKinds(root: Node): { name(id: number): string; named(id: number): boolean } {
	const language = root.tree.language;
	const named = new Map<number, boolean>();
	return {
		// As the cursor's own `nodeType`: an id without a name is the error symbol.
		name: (id) => language.types[id] || "ERROR",
		named: (id) => {
			let known = named.get(id);
			if (known === undefined) {
				known = language.nodeTypeIsNamed(id);
				named.set(id, known);
			}
			return known;
		},
	};
}

/** Rows of source offsets: tree-sitter counts a row per `\n`, so a row starts after each one. */
class LineIndex {
	readonly #starts: number[] = [0];

	constructor(source: string) {
		for (let at = source.indexOf("\n"); at !== -1; at = source.indexOf("\n", at + 1)) this.#starts.push(at + 1);
	}

	/** The 0-based row of the character at `offset` (a UTF-16 offset, as the tree's indices are). */
	rowOf(offset: number): number {
		const starts = this.#starts;
		let low = 0;
		let high = starts.length - 1;
		while (low < high) {
			const mid = (low + high + 1) >> 1;
			if ((starts[mid] as number) <= offset) low = mid;
			else high = mid - 1;
		}
		return low;
	}
}
