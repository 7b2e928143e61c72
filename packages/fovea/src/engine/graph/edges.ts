import { posix } from "node:path";
import type { FileFacts } from "../model/index.ts";
import { firstOf, type Ids, manyOf } from "../model/index.ts";
import type { EdgeKind, GraphNode } from "./model.ts";

/** Edge weights: containment binds tightest; a call to one of several same-named symbols is split between them. */
export const EDGE_WEIGHTS: Readonly<Record<EdgeKind, number>> = {
	contains: 1,
	inherits: 0.9,
	imports: 0.7,
	tests: 0.7,
	calls: 0.5,
};

/** A call whose name matches more definitions than this is too ambiguous to link (`get`, `run`, `init`…). */
const MAX_CALL_CANDIDATES = 4;

/**
 * The undirected edges one file contributes to the graph, as parallel arrays. Every edge belongs to exactly one
 * file (the importer, the caller, the subclass, the test), so an edit re-derives the edges of the files it touches
 * and keeps everyone else's.
 */
export interface FileEdges {
	a: Int32Array;
	b: Int32Array;
	w: Float64Array;
	counts: Record<EdgeKind, number>;
}

/** What deriving one file's edges may look up: node ids by path and by name, and the file's resolved links. */
export interface EdgeContext {
	nodes: readonly GraphNode[];
	fileNode: ReadonlyMap<string, number>;
	/** Live symbol ids by simple name, over the whole root. */
	byName: ReadonlyMap<string, Ids>;
	/** Live symbol ids by simple name, per file. */
	symbolsOf: ReadonlyMap<string, ReadonlyMap<string, Ids>>;
	/** The current facts of every file, by path. */
	facts: ReadonlyMap<string, FileFacts>;
	/** Files `file`'s imports resolve to. */
	imports(file: FileFacts): readonly string[];
	/** Files a test file tests. */
	subjects(path: string): readonly string[];
}

/** Names a file's edges were resolved through: a change to the definitions of any of them re-derives its edges. */
export function referencedNames(file: FileFacts): Iterable<string> {
	const names = [...file.calls.callee];
	for (const inherit of file.inherits) names.push(inherit.base);
	return names;
}

/**
 * The edges of one file: it contains its symbols and a class its methods; it imports the files its imports resolve
 * to; a caller (the enclosing symbol, else the file) calls the definitions its callee name matches, preferring the
 * same file, then imported files, then the files of its own package (`inPackageOf`), then a name that few files
 * define; a symbol inherits its base; a test tests its subjects.
 */
export function fileEdges(file: FileFacts, context: EdgeContext): FileEdges {
	const a: number[] = [];
	const b: number[] = [];
	const w: number[] = [];
	const counts: Record<EdgeKind, number> = { contains: 0, imports: 0, calls: 0, inherits: 0, tests: 0 };
	const link = (from: number, to: number, kind: EdgeKind, weight = EDGE_WEIGHTS[kind]) => {
		if (from === to) return;
		a.push(from);
		b.push(to);
		w.push(weight);
		counts[kind]++;
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
	const resolveName = (name: string): readonly number[] => {
		const same = local.get(name);
		if (same !== undefined) return manyOf(same);
		let found = viaImports.get(name);
		if (found === undefined) {
			found = [];
			for (const target of imported) {
				const ids = context.symbolsOf.get(target)?.get(name);
				found.push(...manyOf(ids));
			}
			viaImports.set(name, found);
		}
		if (found.length > 0) return found;
		const anywhere = manyOf(context.byName.get(name));
		const inPackage = anywhere.filter((id) => inPackageOf(file, context.facts.get(context.nodes[id]?.path ?? "")));
		return inPackage.length > 0 ? inPackage : anywhere;
	};
	const { callee: callees, caller: callers } = file.calls;
	for (let i = 0; i < callees.length; i++) {
		const candidates = resolveName(callees[i] as string);
		if (candidates.length === 0 || candidates.length > MAX_CALL_CANDIDATES) continue;
		const caller = callerNode(callers[i] as string, local, context.nodes) ?? fileId;
		for (const callee of candidates) link(caller, callee, "calls", EDGE_WEIGHTS.calls / candidates.length);
	}
	for (const inherit of file.inherits) {
		const child = firstOf(local.get(inherit.symbol));
		const bases = resolveName(inherit.base);
		if (child === undefined || bases.length === 0 || bases.length > MAX_CALL_CANDIDATES) continue;
		for (const base of bases) link(child, base, "inherits", EDGE_WEIGHTS.inherits / bases.length);
	}
	for (const subject of context.subjects(file.path)) {
		const subjectId = context.fileNode.get(subject);
		if (subjectId !== undefined) link(fileId, subjectId, "tests");
	}
	return { ...packedEdges(a, b, w), counts };
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
 * A file's edge lists as three views of one buffer (weights first, for their alignment). Every file keeps its lists
 * for as long as the graph lives: at 10,000 files, 20,000 buffers fewer (~1 MB of heap, and their records outside
 * it).
 */
function packedEdges(a: readonly number[], b: readonly number[], w: readonly number[]): Omit<FileEdges, "counts"> {
	const n = a.length;
	const buffer = new ArrayBuffer(n * (Float64Array.BYTES_PER_ELEMENT + 2 * Int32Array.BYTES_PER_ELEMENT));
	const packed = {
		w: new Float64Array(buffer, 0, n),
		a: new Int32Array(buffer, n * Float64Array.BYTES_PER_ELEMENT, n),
		b: new Int32Array(buffer, n * (Float64Array.BYTES_PER_ELEMENT + Int32Array.BYTES_PER_ELEMENT), n),
	};
	packed.w.set(w);
	packed.a.set(a);
	packed.b.set(b);
	return packed;
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
