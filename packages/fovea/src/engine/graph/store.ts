import type { FileFacts, SymbolFact } from "../model/index.ts";
import { addOne, dropOne, type Ids, manyOf, type OneOrMany, trimMany } from "../model/index.ts";
import { sameAnchors } from "./anchor-edges.ts";
import { AnchorIndex, changedAnchors } from "./anchor-index.ts";
import { compressedRows, patchRows } from "./compressed-rows.ts";
import { buildCoupledEdges, type CoChangeHistory, type CoupledEdges } from "./coupled-edges.ts";
import { dependentsOf } from "./dependents.ts";
import { EdgeArena } from "./edge-arena.ts";
import { EdgeList } from "./edge-list.ts";
import { countEdges, type EdgeContext, fileEdges, noEdges, referencedNames } from "./edges.ts";
import { FileSymbols } from "./file-symbols.ts";
import type {
	CodeGraph,
	Dependents,
	FileAnchors,
	FileEdgeKind,
	FileEdges,
	GraphLinks,
	GraphNode,
	RouteAnchor,
} from "./model.ts";
import { FileNode, RemovedSymbolNode, SymbolNode } from "./nodes.ts";
import type { SparseGraph } from "./sparse-graph.ts";
import { SymbolIds } from "./symbol-ids.ts";

/** Node ids an update removed and added, so indexes over node ids (terms, file of node) patch instead of rebuild. */
export interface GraphDelta {
	removed: number[];
	added: number[];
	/** Files whose edges were derived again: the edited files and those whose names resolve through them. */
	rederived: number;
	/**
	 * Rows whose entries changed, when the rows were patched; absent when they are assembled anew (everything
	 * derived from them, such as node degrees, must then be computed again).
	 */
	rows?: number[];
}

/** Above this share of removed nodes an update gives up and asks for a full build, which compacts the ids. */
const MAX_REMOVED_SHARE = 0.2;

/**
 * The code graph of one root, kept up to date edit by edit. File nodes come first, sorted by path, and keep their
 * ids while the set of files stays the same; symbol nodes keep their ids while their identity (kind, container,
 * name and occurrence) survives an edit, removed ones become inert (no edges, no name) and new ones are appended.
 *
 * Why: rebuilding a 5,000-file graph takes hundreds of milliseconds, while an edit changes the edges of the edited
 * file and of the few files that call names it added or removed. Each file owns its outgoing edges, so an update
 * derives those files' edges again (found through an index of the names each file refers to) and patches the rows
 * by the difference (`patchRows`); nothing in an edit walks every file or every edge.
 */
export class GraphStore {
	readonly #links: GraphLinks;
	readonly #nodes: GraphNode[] = [];
	readonly #fileNode = new Map<string, number>();
	readonly #byName = new Map<string, Ids>();
	readonly #symbolIds: SymbolIds;
	/** Each file's live symbols by name, made when deriving edges asks (`file-symbols.ts`). */
	readonly #symbolsOf: FileSymbols;
	readonly #facts = new Map<string, FileFacts>();
	/** Every file's edges, by file id (views are made when read: `#edgesOf`). */
	readonly #edges: EdgeArena;
	/** The anchors of the files whose edges have any. */
	readonly #fileAnchors = new Map<string, FileAnchors>();
	/** Files by the names their edges were resolved through (`referencedNames`), one path until a second file. */
	readonly #referrers = new Map<string, OneOrMany<string>>();
	readonly #counts: Record<FileEdgeKind, number> = noEdges();
	/** Literal holders and route buckets of the whole root, for route and literal edges. */
	readonly #anchors = new AnchorIndex();
	/** The assembled rows, patched by updates; undefined until `graph()` assembles them. */
	#rows: SparseGraph | undefined;
	/** Who depends on each node, built by the first impact on this generation and dropped by any edit of edges. */
	#dependents: Dependents | undefined;
	/** Entries of `#rows` whose weight fell to zero: past an eighth of all, the rows are assembled anew. */
	#zeroEntries = 0;
	/** The coupled edges and the history they were built from: built again only when the history object changes. */
	#coupled: { from: CoChangeHistory; edges: CoupledEdges } | undefined;
	#fileCount = 0;
	#removed = 0;
	/** Times the build's one edge list grew to fit a file's edges: a work count for tests. */
	readonly buildListGrowths: number;

	/** Builds the whole graph of `files`. */
	constructor(files: Iterable<FileFacts>, links: GraphLinks) {
		this.#links = links;
		const sorted = [...files].sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
		for (const file of sorted) {
			this.#fileNode.set(file.path, this.#nodes.length);
			this.#nodes.push(new FileNode(file.path, file.lines));
			this.#facts.set(file.path, file);
			this.#anchors.apply(file, 1);
		}
		this.#fileCount = this.#nodes.length;
		this.#edges = new EdgeArena(this.#fileCount, expectedEdges(sorted));
		this.#symbolIds = new SymbolIds(this.#fileNode, this.#fileCount);
		this.#symbolsOf = new FileSymbols(this.#symbolIds, this.#nodes);
		for (const [file, facts] of sorted.entries()) {
			this.#symbolIds.setRange(file, this.#nodes.length, facts.symbols.length);
			for (const symbol of facts.symbols) this.#addSymbol(facts.path, symbol);
		}
		const context = this.#context();
		// One list for every file's derivation: `#setEdges` copies each file's edges out before the next is derived.
		const scratch = new EdgeList();
		for (const file of sorted) {
			this.#setEdges(file.path, fileEdges(file, context, scratch));
			this.#refer(file, 1);
		}
		this.buildListGrowths = scratch.grown;
		this.#edges.trim();
		// Lists grown by push keep room to spare (17 slots once a third value came): kept for the graph's life, trimmed.
		trimMany(this.#byName);
		trimMany(this.#referrers);
	}

	/** Each file's symbols by name as deriving edges looks them up, with its work counts. */
	get fileSymbols(): FileSymbols {
		return this.#symbolsOf;
	}

	/**
	 * Applies edits to files already in the graph: `changed` paths with their new facts in `files`. Returns the delta,
	 * or `undefined` when the update cannot be incremental (a file was added or removed, or too many nodes are inert)
	 * and the caller should build a new store.
	 */
	update(changed: readonly string[], files: ReadonlyMap<string, FileFacts>): GraphDelta | undefined {
		for (const path of changed) if (!this.#fileNode.has(path) || !files.has(path)) return undefined;
		const delta: GraphDelta = { removed: [], added: [], rederived: 0 };
		const touchedNames = new Set<string>();
		const touchedLiterals: string[] = [];
		for (const path of changed) {
			const facts = files.get(path) as FileFacts;
			const old = this.#facts.get(path) as FileFacts;
			this.#replaceSymbols(path, facts, delta, touchedNames);
			this.#refer(old, -1);
			this.#refer(facts, 1);
			// A literal the edit added or removed changes the edges of its holders; a route of the file, of the files
			// whose URL paths may name it.
			const anchors = changedAnchors(old, facts);
			for (const key of anchors.keys) touchedNames.add(key);
			for (const literal of anchors.literals) touchedLiterals.push(literal);
			this.#anchors.apply(old, -1);
			this.#anchors.apply(facts, 1);
			this.#facts.set(path, facts);
			(this.#nodes[this.#fileNode.get(path) as number] as FileNode).endLine = facts.lines;
		}
		if (this.#removed > MAX_REMOVED_SHARE * this.#nodes.length) return undefined;
		for (const key of this.#anchors.keysHandledBy([...touchedNames])) touchedNames.add(key);
		const rederive = new Set(changed);
		for (const name of touchedNames) for (const path of manyOf(this.#referrers.get(name))) rederive.add(path);
		for (const literal of touchedLiterals) for (const path of this.#anchors.holdersOf(literal)) rederive.add(path);
		const context = this.#context();
		const before: FileEdges[] = [];
		const after: FileEdges[] = [];
		for (const path of rederive) {
			const old = this.#edgesOf(path) as FileEdges;
			const next = fileEdges(this.#facts.get(path) as FileFacts, context);
			if (sameEdges(old, next)) continue;
			before.push(old);
			after.push(next);
			this.#setEdges(path, next);
		}
		delta.rederived = rederive.size;
		this.#dependents = undefined;
		if (this.#rows !== undefined) {
			const patch = patchRows(this.#rows, this.#nodes.length, before, after);
			this.#zeroEntries += patch?.zeroed ?? 0;
			if (patch === undefined || this.#zeroEntries > patch.rows.targets.length / 8) this.#rows = undefined;
			else {
				this.#rows = patch.rows;
				delta.rows = patch.touched;
			}
		}
		return delta;
	}

	/** The graph as it stands: nodes (inert ones included, marked `removed`) and its rows (assembled on first use). */
	graph(): CodeGraph {
		if (this.#rows === undefined) {
			this.#rows = compressedRows(this.#nodes.length, this.#everyFilesEdges());
			this.#zeroEntries = 0;
		}
		return {
			...this.#rows,
			nodes: this.#nodes,
			fileCount: this.#fileCount,
			symbolCount: this.#nodes.length - this.#fileCount - this.#removed,
			fileNode: this.#fileNode,
			byName: this.#byName,
			symbolIds: this.#symbolIds,
			edgeCounts: { ...this.#counts },
			directed: {
				dependents: () => {
					this.#dependents ??= dependentsOf(this.#nodes.length, this.#everyFilesEdges());
					return this.#dependents;
				},
				edgesOf: (path) => this.#edgesOf(path),
				routes: () => {
					const routes: RouteAnchor[] = [];
					// In file order: the files' order, not the order their anchors came in.
					for (let file = 0; file < this.#fileCount; file++)
						for (const route of this.#fileAnchors.get(this.#pathOf(file))?.routes ?? []) routes.push(route);
					return routes;
				},
			},
			coupled: () => this.#coupledEdges(),
		};
	}

	/**
	 * The coupled edges of the history as it stands: built from its commits when it differs from the one they were
	 * built from (a new head, or a new store after the set of files changed), else the ones built. File ids hold for
	 * the store's life (`update` refuses added or removed files), so edges built once stay valid across edits.
	 */
	#coupledEdges(): CoupledEdges | undefined {
		const history = this.#links.history?.();
		if (history === undefined) return undefined;
		if (this.#coupled?.from !== history) {
			const edges = buildCoupledEdges(history, this.#fileNode, this.#fileCount);
			this.#coupled = { from: history, edges };
			this.#links.coupledBuilt?.(edges);
		}
		return this.#coupled.edges;
	}

	/** Keeps `edges` as the file's, and the edge counts with them. */
	#setEdges(path: string, edges: FileEdges): void {
		const file = this.#fileNode.get(path) as number;
		countEdges(this.#edges.get(file), this.#counts, -1);
		countEdges(edges, this.#counts, 1);
		this.#edges.set(file, edges);
		if (edges.anchors === undefined) this.#fileAnchors.delete(path);
		else this.#fileAnchors.set(path, edges.anchors);
	}

	/** The edges `path` contributes, as views of its buffer, or `undefined` for a file not in the graph. */
	#edgesOf(path: string): FileEdges | undefined {
		const file = this.#fileNode.get(path);
		if (file === undefined) return undefined;
		const anchors = this.#fileAnchors.get(path);
		const edges = this.#edges.get(file);
		return anchors === undefined ? edges : { ...edges, anchors };
	}

	/**
	 * Every file's edges in file order, iterable as often as asked, each file's views made as the iteration reaches
	 * it and dropped after (short-lived: the young generation takes them back).
	 */
	#everyFilesEdges(): Iterable<FileEdges> {
		return {
			[Symbol.iterator]: () => this.#eachFilesEdges(),
		};
	}

	*#eachFilesEdges(): Generator<FileEdges> {
		for (let file = 0; file < this.#fileCount; file++) yield this.#edgesOf(this.#pathOf(file)) as FileEdges;
	}

	/** The path of file node `file`. */
	#pathOf(file: number): string {
		return (this.#nodes[file] as GraphNode).path;
	}

	/** What the edge columns hold (live and dead entries, room) and how often they were copied: for tests. */
	get edgeEntries(): { live: number; dead: number; capacity: number; copies: number } {
		return { ...this.#edges.entries, copies: this.#edges.copies };
	}

	/**
	 * Adds (`sign` 1) or removes (-1) `file` as a referrer of the names its edges resolve through. A file is added
	 * once per name (its names are deduplicated here, and an update removes a file before adding it again), so adding
	 * needs no search of the referrers already there.
	 */
	#refer(file: FileFacts, sign: 1 | -1): void {
		for (const name of new Set(referencedNames(file))) {
			if (sign === 1) addOne(this.#referrers, name, file.path);
			else dropOne(this.#referrers, name, file.path);
		}
	}

	/** Matches the file's old symbols to its new ones by identity; unmatched old ones go inert, new ones append. */
	#replaceSymbols(path: string, facts: FileFacts, delta: GraphDelta, touchedNames: Set<string>): void {
		const oldIds = this.#symbolIds.get(path) ?? [];
		const byIdentity = new Map<string, number[]>();
		const seen = new Map<string, number>();
		for (const id of oldIds) {
			const node = this.#nodes[id] as GraphNode;
			push(byIdentity, identityOf(node, seen), id);
		}
		seen.clear();
		const kept = new Set<number>();
		const newIds = facts.symbols.map((symbol) => {
			const id = byIdentity.get(identityOf(symbol, seen))?.shift();
			if (id === undefined) {
				touchedNames.add(symbol.name);
				const added = this.#addSymbol(path, symbol);
				delta.added.push(added);
				return added;
			}
			kept.add(id);
			// Only symbols have identities, so a kept id is a symbol's node.
			(this.#nodes[id] as SymbolNode).fact = symbol;
			return id;
		});
		for (const id of oldIds) {
			if (kept.has(id)) continue;
			const node = this.#nodes[id] as GraphNode;
			touchedNames.add(node.name);
			dropOne(this.#byName, node.name, id);
			this.#nodes[id] = new RemovedSymbolNode(node.path, (node as SymbolNode).fact);
			this.#removed++;
			delta.removed.push(id);
		}
		this.#symbolIds.set(path, newIds);
	}

	#addSymbol(path: string, symbol: SymbolFact): number {
		const id = this.#nodes.length;
		this.#nodes.push(new SymbolNode(path, symbol));
		addOne(this.#byName, symbol.name, id);
		return id;
	}

	#context(): EdgeContext {
		return {
			nodes: this.#nodes,
			fileNode: this.#fileNode,
			byName: this.#byName,
			symbolsOf: this.#symbolsOf,
			facts: this.#facts,
			imports: this.#links.imports,
			subjects: this.#links.subjects,
			anchors: this.#anchors,
		};
	}
}

/**
 * About how many edges `files` derive, to size the edge columns once: containment (a symbol in its file, a member in
 * its class too), an import or an inheritance each one, and a call half of one (many name nothing in the root, such
 * as a library's functions; a few resolve to several definitions). A wrong guess costs one copy of the columns.
 */
function expectedEdges(files: readonly FileFacts[]): number {
	let n = 0;
	for (const file of files) {
		n += 1 + file.imports.length + file.inherits.length + file.calls.callee.length / 2;
		for (const symbol of file.symbols) n += symbol.container === undefined ? 1 : 2;
	}
	return Math.ceil(n);
}

/** Whether two derivations of a file's edges are the same edges in the same order. */
function sameEdges(x: FileEdges, y: FileEdges): boolean {
	if (x.a.length !== y.a.length) return false;
	for (let i = 0; i < x.a.length; i++) {
		if (x.a[i] !== y.a[i] || x.b[i] !== y.b[i] || x.w[i] !== y.w[i] || x.r[i] !== y.r[i]) return false;
	}
	return sameAnchors(x.anchors, y.anchors);
}

/** A symbol's identity across edits: kind, container, name and how many of the same came before it. */
function identityOf(symbol: { kind: string; name: string; container?: string }, seen: Map<string, number>): string {
	const key = `${symbol.kind}\0${symbol.container ?? ""}\0${symbol.name}`;
	const occurrence = seen.get(key) ?? 0;
	seen.set(key, occurrence + 1);
	return `${key}\0${occurrence}`;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
	const list = map.get(key);
	if (list === undefined) map.set(key, [value]);
	else list.push(value);
}
