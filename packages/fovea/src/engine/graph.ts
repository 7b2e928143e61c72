import type { FileFacts, SymbolFact, SymbolKind } from "./facts.ts";
import type { SparseGraph } from "./heat.ts";

/** Why two nodes are linked. */
export type EdgeKind = "contains" | "imports" | "calls" | "inherits" | "tests";

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

/** A file or symbol node. Files come first: node `i < fileCount` is a file. */
export interface GraphNode {
	kind: "file" | SymbolKind;
	path: string;
	name: string;
	line: number;
	endLine: number;
	signature?: string;
	container?: string;
}

/** The code graph of one root: nodes, a symmetric weighted adjacency, and lookup tables. */
export interface CodeGraph extends SparseGraph {
	nodes: GraphNode[];
	fileCount: number;
	fileNode: ReadonlyMap<string, number>;
	/** Symbol nodes by simple name. */
	byName: ReadonlyMap<string, readonly number[]>;
	edgeCounts: Record<EdgeKind, number>;
}

/** How the graph learns which files an import or a test points at (resolution is language-specific). */
export interface GraphLinks {
	imports(file: FileFacts): string[];
	subjects(path: string): string[];
}

/**
 * Builds the graph of a root from its files' facts. Edges: a file contains its symbols and a class its methods;
 * a file imports the files its imports resolve to; a caller (the enclosing symbol, else the file) calls the
 * definitions its callee name matches, preferring the same file, then imported files, then a unique global name;
 * a symbol inherits its base; a test file tests its subjects. Parallel edges merge by adding weights.
 */
export function buildGraph(files: readonly FileFacts[], links: GraphLinks): CodeGraph {
	const nodes: GraphNode[] = [];
	const fileNode = new Map<string, number>();
	const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
	for (const file of sorted) {
		fileNode.set(file.path, nodes.length);
		nodes.push({ kind: "file", path: file.path, name: file.path, line: 1, endLine: file.lines });
	}
	const fileCount = nodes.length;
	const byName = new Map<string, number[]>();
	const symbolsOf = new Map<string, Map<string, number[]>>();
	for (const file of sorted) {
		const local = new Map<string, number[]>();
		symbolsOf.set(file.path, local);
		for (const symbol of file.symbols) {
			const id = nodes.length;
			nodes.push(symbolNode(file.path, symbol));
			push(byName, symbol.name, id);
			push(local, symbol.name, id);
		}
	}

	const edges = new Map<number, number>();
	const counts: Record<EdgeKind, number> = { contains: 0, imports: 0, calls: 0, inherits: 0, tests: 0 };
	const link = (a: number, b: number, kind: EdgeKind, weight = EDGE_WEIGHTS[kind]) => {
		if (a === b) return;
		const key = a < b ? a * nodes.length + b : b * nodes.length + a;
		edges.set(key, (edges.get(key) ?? 0) + weight);
		counts[kind]++;
	};

	for (const file of sorted) {
		const fileId = fileNode.get(file.path) as number;
		const local = symbolsOf.get(file.path) as Map<string, number[]>;
		const imported = new Set<string>();
		for (const target of links.imports(file)) {
			const targetId = fileNode.get(target);
			if (targetId === undefined || imported.has(target)) continue;
			imported.add(target);
			link(fileId, targetId, "imports");
		}
		for (const ids of local.values()) {
			for (const id of ids) {
				const container = nodes[id]?.container;
				const parent = container === undefined ? undefined : local.get(container)?.find((p) => p !== id);
				link(parent ?? fileId, id, "contains");
				if (parent !== undefined) link(fileId, id, "contains", EDGE_WEIGHTS.contains / 2);
			}
		}
		// Names resolved through this file's imports, computed once per name rather than once per call.
		const viaImports = new Map<string, number[]>();
		const resolveName = (name: string): readonly number[] => {
			const same = local.get(name);
			if (same !== undefined) return same;
			let found = viaImports.get(name);
			if (found === undefined) {
				found = [];
				for (const target of imported) {
					const ids = symbolsOf.get(target)?.get(name);
					if (ids !== undefined) found.push(...ids);
				}
				viaImports.set(name, found);
			}
			return found.length > 0 ? found : (byName.get(name) ?? []);
		};
		for (const call of file.calls) {
			const candidates = resolveName(call.callee);
			if (candidates.length === 0 || candidates.length > MAX_CALL_CANDIDATES) continue;
			const caller = callerNode(call.caller, local) ?? fileId;
			for (const callee of candidates) link(caller, callee, "calls", EDGE_WEIGHTS.calls / candidates.length);
		}
		for (const inherit of file.inherits) {
			const child = local.get(inherit.symbol)?.[0];
			const bases = resolveName(inherit.base);
			if (child === undefined || bases.length === 0 || bases.length > MAX_CALL_CANDIDATES) continue;
			for (const base of bases) link(child, base, "inherits", EDGE_WEIGHTS.inherits / bases.length);
		}
		for (const subject of links.subjects(file.path)) {
			const subjectId = fileNode.get(subject);
			if (subjectId !== undefined) link(fileId, subjectId, "tests");
		}
	}
	return { ...toCompressedRows(nodes.length, edges), nodes, fileCount, fileNode, byName, edgeCounts: counts };
}

function symbolNode(path: string, symbol: SymbolFact): GraphNode {
	const node: GraphNode = {
		kind: symbol.kind,
		path,
		name: symbol.name,
		line: symbol.line,
		endLine: symbol.endLine,
		signature: symbol.signature,
	};
	if (symbol.container !== undefined) node.container = symbol.container;
	return node;
}

/** The enclosing symbol of a call: `caller` may be `name` or `Container.name`. */
function callerNode(caller: string | undefined, local: ReadonlyMap<string, number[]>): number | undefined {
	if (caller === undefined) return undefined;
	const simple = caller.slice(caller.lastIndexOf(".") + 1);
	return local.get(simple)?.[0];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
	const list = map.get(key);
	if (list === undefined) map.set(key, [value]);
	else list.push(value);
}

function toCompressedRows(size: number, edges: ReadonlyMap<number, number>): SparseGraph {
	const degreeCount = new Int32Array(size);
	for (const key of edges.keys()) {
		const a = Math.floor(key / size);
		const b = key - a * size;
		degreeCount[a] = (degreeCount[a] as number) + 1;
		degreeCount[b] = (degreeCount[b] as number) + 1;
	}
	const offsets = new Int32Array(size + 1);
	for (let i = 0; i < size; i++) offsets[i + 1] = (offsets[i] as number) + (degreeCount[i] as number);
	const fill = offsets.slice(0, size);
	const targets = new Int32Array(offsets[size] as number);
	const weights = new Float64Array(offsets[size] as number);
	for (const [key, weight] of edges) {
		const a = Math.floor(key / size);
		const b = key - a * size;
		const ea = fill[a] as number;
		targets[ea] = b;
		weights[ea] = weight;
		fill[a] = ea + 1;
		const eb = fill[b] as number;
		targets[eb] = a;
		weights[eb] = weight;
		fill[b] = eb + 1;
	}
	return { size, offsets, targets, weights };
}
