import { posix } from "node:path";
import type { FileFacts } from "../model/index.ts";
import { firstOf, type Ids, manyOf } from "../model/index.ts";
import { anchorEdges } from "./anchor-edges.ts";
import { referenceKeys } from "./anchor-index.ts";
import { EdgeList } from "./edge-list.ts";
import type { FileEdgeKind, FileEdges } from "./model.ts";

/** Edge weights: containment binds tightest; a call to one of several same-named symbols is split between them. */
export const EDGE_WEIGHTS: Readonly<Record<FileEdgeKind, number>> = {
	contains: 1,
	inherits: 0.9,
	imports: 0.7,
	tests: 0.7,
	calls: 0.5,
	route: 0.6,
	literal: 0.3,
};

/**
 * What an edge says its owning file's node does to the other node, one code per edge (`FileEdges.r`, with the flag
 * `WEAK`): an edge's
 * direction and meaning, which the symmetric rows lose and impact needs (a change reaches whoever depends on it).
 * `inherits` is a subclass of its base; `implements` is an implementation of an interface (an `inherits` edge kind).
 */
export const RELATIONS = [
	"contains",
	"imports",
	"calls",
	"inherits",
	"implements",
	"tests",
	"route",
	"literal",
] as const;

/** One of `RELATIONS`. */
export type Relation = (typeof RELATIONS)[number];

/** The code of each relation in `FileEdges.r`. */
export const RELATION_CODE: Readonly<Record<Relation, number>> = {
	contains: 0,
	imports: 1,
	calls: 2,
	inherits: 3,
	implements: 4,
	tests: 5,
	route: 6,
	literal: 7,
};

/** The edge kind a relation code belongs to (`implements` is an `inherits` edge). */
export function edgeKindOf(code: number): FileEdgeKind {
	const relation = RELATIONS[code & ~WEAK];
	if (relation === undefined) throw new Error(`Fovea's graph has an edge of unknown relation ${code}`);
	return relation === "implements" ? "inherits" : relation;
}

/** Adds `sign` times each edge of `edges` to `counts`, by the kind of its relation code. */
export function countEdges(edges: FileEdges, counts: Record<FileEdgeKind, number>, sign: 1 | -1): void {
	for (const code of edges.r) counts[edgeKindOf(code)] += sign;
}

/**
 * Set on a relation code (`FileEdges.r`) when the link is a guess: a call or base class found in neither the same
 * file, nor a file it imports, nor its own package, but as one of the few definitions of that name anywhere
 * (`list.append` meeting some class's `append`); or a test's subject other than its nearest one (a Go test file
 * tests its whole package, `x_test.go` the file `x.go` first of all). Heat weighs it as any other; impact trusts
 * it less.
 */
export const WEAK = 0x80;

/**
 * Whether an edge of relation `code` carries heat. Route and literal edges do not: they serve impact's reach and
 * route queries, and spread into focus's heat they moved files a query's words had found (a vuejs/core commit
 * subject's changed file went from second to third).
 */
export function carriesHeat(code: number): boolean {
	const relation = code & ~WEAK;
	return relation !== RELATION_CODE.route && relation !== RELATION_CODE.literal;
}

/** A call whose name matches more definitions than this is too ambiguous to link (`get`, `run`, `init`…). */
export const MAX_CALL_CANDIDATES = 4;

export type { EdgeContext } from "./edge-context.ts";

import type { EdgeContext } from "./edge-context.ts";

/** Names a file's edges were resolved through: a change to the definitions of any of them re-derives its edges. */
export function referencedNames(file: FileFacts): Iterable<string> {
	const names = [...file.calls.callee];
	for (const inherit of file.inherits) names.push(inherit.base);
	for (const key of referenceKeys(file)) names.push(key);
	return names;
}

/**
 * The edges of one file: it contains its symbols and a class its methods; it imports the files its imports resolve
 * to; a caller (the enclosing symbol, else the file) calls the definitions its callee name matches, preferring the
 * same file, then imported files, then the files of its own package (`inPackageOf`), then a name that few files
 * define; a symbol inherits its base; a test tests its subjects. With `scratch`, the edges are written into it and
 * returned as its views, valid until it is written again (a build copies each file's before the next); without, they
 * are a packed copy of their own.
 */
export function fileEdges(file: FileFacts, context: EdgeContext, scratch?: EdgeList): FileEdges {
	const list = scratch ?? new EdgeList();
	list.clear();
	const link = (
		from: number,
		to: number,
		kind: FileEdgeKind,
		weight = EDGE_WEIGHTS[kind],
		relation: Relation = kind,
		weak = false,
	) => {
		if (from !== to) list.push(from, to, weight, RELATION_CODE[relation] | (weak ? WEAK : 0));
	};
	const fileId = context.fileNode.get(file.path);
	if (fileId === undefined) throw new Error(`Fovea's graph has no node for ${file.path}`);
	const local = context.symbolsOf.get(file.path) ?? new Map<string, Ids>();

	const imported = new Set<string>();
	for (const target of context.imports(file)) {
		const targetId = context.fileNode.get(target);
		if (targetId === undefined || imported.has(target)) continue;
		imported.add(target);
		link(fileId, targetId, "imports");
	}
	for (const ids of local.values()) {
		for (const id of manyOf(ids)) {
			const container = context.nodes[id]?.container;
			const parent = container === undefined ? undefined : manyOf(local.get(container)).find((p) => p !== id);
			link(parent ?? fileId, id, "contains");
			if (parent !== undefined) link(fileId, id, "contains", EDGE_WEIGHTS.contains / 2);
		}
	}
	// Names resolved through this file's imports, computed once per name rather than once per call.
	const viaImports = new Map<string, number[]>();
	// Set by `resolveName` when its answer is one of the few definitions of the name anywhere (a `WEAK` link).
	let weak = false;
	const resolveName = (name: string): readonly number[] => {
		weak = false;
		const same = local.get(name);
		if (same !== undefined) return manyOf(same);
		let found = viaImports.get(name);
		if (found === undefined) {
			found = [];
			for (const target of imported) {
				const ids = context.symbolsOf.named(target, name);
				found.push(...manyOf(ids));
			}
			viaImports.set(name, found);
		}
		if (found.length > 0) return found;
		const anywhere = manyOf(context.byName.get(name));
		const inPackage = anywhere.filter((id) => inPackageOf(file, context.facts.get(context.nodes[id]?.path ?? "")));
		weak = inPackage.length === 0;
		return inPackage.length > 0 ? inPackage : anywhere;
	};
	const { callee: callees, caller: callers } = file.calls;
	for (let i = 0; i < callees.length; i++) {
		const candidates = resolveName(callees[i] as string);
		if (candidates.length === 0 || candidates.length > MAX_CALL_CANDIDATES) continue;
		const caller = callerNode(callers[i] as string, local, context.nodes) ?? fileId;
		const weight = EDGE_WEIGHTS.calls / candidates.length;
		for (const callee of candidates) link(caller, callee, "calls", weight, "calls", weak);
	}
	for (const inherit of file.inherits) {
		const child = firstOf(local.get(inherit.symbol));
		const bases = resolveName(inherit.base);
		if (child === undefined || bases.length === 0 || bases.length > MAX_CALL_CANDIDATES) continue;
		const relation = inherit.relation === "implements" ? "implements" : "inherits";
		const weight = EDGE_WEIGHTS.inherits / bases.length;
		for (const base of bases) link(child, base, "inherits", weight, relation, weak);
	}
	for (const [rank, subject] of context.subjects(file.path, file).entries()) {
		const subjectId = context.fileNode.get(subject);
		if (subjectId !== undefined) link(fileId, subjectId, "tests", EDGE_WEIGHTS.tests, "tests", rank > 0);
	}
	// A route's handler is linked when it is found surely: a guess by name (`list` meeting some other module's `list`)
	// would send a query for the route to the wrong file.
	const sureHandler = (name: string): readonly number[] => {
		const found = resolveName(name);
		return weak ? [] : found;
	};
	const anchors = anchorEdges(file, fileId, context, sureHandler, (to, kind) => link(fileId, to, kind));
	// A reused list's views are read (copied into the graph's columns) before the next file is derived into it.
	const { w: weights, a: from, b: to, r: relations } = scratch === undefined ? list.packed() : list.views();
	// Literals of one shape each, so every file's edges keep their properties inside the object.
	return anchors === undefined
		? { w: weights, a: from, b: to, r: relations }
		: { w: weights, a: from, b: to, r: relations, anchors };
}

/** A count of zero for every edge kind. */
export function noEdges(): Record<FileEdgeKind, number> {
	return { contains: 0, imports: 0, calls: 0, inherits: 0, tests: 0, route: 0, literal: 0 };
}

/**
 * Whether `other` belongs to `file`'s own package, whose names `file` uses without importing them: the same Go
 * package (its directory; an external test package `x_test` is another) or the same Java package. Without it, a call
 * to a name that more than `MAX_CALL_CANDIDATES` files define went unlinked even when its definition sat beside the
 * caller, and an impact of that definition reached nobody.
 */
export function inPackageOf(file: FileFacts, other: FileFacts | undefined): boolean {
	if (other === undefined || file.package === undefined) return false;
	if (other.package !== file.package || other.language !== file.language) return false;
	if (file.language === "go") return posix.dirname(file.path) === posix.dirname(other.path);
	return file.language === "java";
}

/**
 * The enclosing symbol of a call: `caller` may be `name` or `Container.name`, or `""` at file level. Of a file's
 * symbols of that name (`Alpha.run` and `Beta.run`), the one in the named container, else the first.
 */
function callerNode(
	caller: string,
	local: ReadonlyMap<string, Ids>,
	nodes: ReadonlyArray<{ container?: string | undefined } | undefined>,
): number | undefined {
	if (caller === "") return undefined;
	const dot = caller.lastIndexOf(".");
	const ids = local.get(caller.slice(dot + 1));
	if (dot === -1) return firstOf(ids);
	const container = caller.slice(0, dot);
	return manyOf(ids).find((id) => nodes[id]?.container === container) ?? firstOf(ids);
}
