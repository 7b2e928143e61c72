/**
 * The code map of one root: what a host (the extension, the CLI, Contour) asks about a project. It composes the
 * stages: the index of facts (`refresh/code-index.ts`, which knows files and their facts only), the import settings
 * the graph was built with and whether they went stale (`graph-settings.ts`), the graph (built, or patched edit by
 * edit), the ranking (focus, dwell, impact) and the rendering within a token budget; a watch of the root tells it
 * which paths changed. The index holds facts; the map holds everything derived from them.
 */
import { join } from "node:path";
import { envInt } from "../../workspace/env.ts";
import { gitStateDirectories } from "../git/git-dir.ts";
import { type CodeGraph, type GraphNode, GraphStore } from "../graph/index.ts";
import { ChangeCoupling, type HistorySource } from "../history/index.ts";
import type { FileFacts } from "../model/index.ts";
import { describeAttention } from "../model/index.ts";
import {
	dependentReach,
	dwellQuery,
	type FocusQuery,
	type FocusResult,
	focus,
	impactSeeds,
	type PreparedGraph,
	patchPreparedGraph,
	prepareGraph,
	type Reach,
} from "../rank/index.ts";
import type { IndexSnapshot } from "../refresh/index.ts";
import {
	CodeIndex,
	type CodeIndexOptions,
	FirstIndex,
	indexNotes,
	notedTokens,
	type RefreshOptions,
	RootWatch,
	withNotes,
} from "../refresh/index.ts";
import {
	type DependeeItem,
	type FocusItem,
	focusItems,
	type ImpactItem,
	impactItems,
	type RouteItem,
	renderFocus,
	renderImpact,
	renderSketch,
} from "../render/index.ts";
import type { ResolutionSettings } from "../resolve/index.ts";
import {
	isTestPath,
	type ResolutionContext,
	readResolutionSettings,
	resolveImport,
	testSubjects,
} from "../resolve/index.ts";
import { forgetIgnoreRules } from "../scan/index.ts";
import { withCoupling, withCouplingPrior } from "./coupling-hook.ts";
import { importersOf } from "./gone-importers.ts";
import { ImportSettings } from "./graph-settings.ts";
import { readSignatures, type SignaturePageStats } from "./signature-pages.ts";

/**
 * Options of a code map: its index's, plus `watch` to follow the root's changes through a `RootWatch`, and `history`
 * to read change coupling from another Git directory and commit than the root's own repository and HEAD (a benchmark
 * answering on a past tree written without `.git` gives the mirror and the tree's commit; the product never sets it).
 */
export type CodeMapOptions = CodeIndexOptions & { watch?: boolean; history?: HistorySource };

/**
 * Refresh options of a code map: the index's, plus `fresh` to force a full walk, and `patienceMs`: how long a query
 * waits for the root's first index before it answers from the files indexed so far, saying it is partial and how
 * far the index is (`IndexSnapshot.indexing`, `refresh/first-index.ts`); the index goes on, shared by the queries
 * that come, and the query's signal aborts only its wait. Unset, a query waits for the whole index.
 */
export type MapRefreshOptions = RefreshOptions & { fresh?: boolean; patienceMs?: number };

/** Work counters of a code map, so tests can assert that nothing was rebuilt needlessly. */
export interface CodeMapStats {
	graphsBuilt: number;
	/** Generations reached by patching the previous graph edit by edit instead of building it again. */
	graphsPatched: number;
	/** Refreshes that the watch answered (a path refresh or nothing) instead of a walk. */
	watchedRefreshes: number;
	queries: number;
	/** Settings files stat-checked to tell whether import resolution went stale (see `refresh`). */
	settingsStatted: number;
	/** Times the graph's coupled edges were built from the mined history, and the edges added by them. */
	coupledBuilds: number;
	coupledEdgesAdded: number;
	/** Signatures of summarized files read back from the fact cache for answers (`signature-pages.ts`). */
	signaturePages: SignaturePageStats;
}

/** A focus answer: text for the model, ranked items for machines, and the raw ranking. */
export interface FocusAnswer {
	text: string;
	files: FocusItem[];
	symbols: FocusItem[];
	/** The routes the query named, with their handlers (absent when it named none). */
	routes?: RouteItem[];
	result: FocusResult;
	snapshot: IndexSnapshot;
}

/**
 * An impact answer: text for the model; exposed files and symbols with why they ranked; the files the change
 * itself depends on (not exposure); the raw reach.
 */
export interface ImpactAnswer {
	text: string;
	files: ImpactItem[];
	symbols: ImpactItem[];
	dependsOn: DependeeItem[];
	reach: Reach;
	snapshot: IndexSnapshot;
}

/**
 * The code map of one project root: its incremental index of facts and the graph built from them. The graph is
 * rebuilt only when the index generation changes, and lazily, when a query needs it. `evict()` drops the heavy
 * in-memory state; facts stay in the on-disk cache, so the next query rebuilds without parsing.
 */
export class CodeMap {
	readonly root: string;
	readonly stats: CodeMapStats = {
		graphsBuilt: 0,
		graphsPatched: 0,
		watchedRefreshes: 0,
		queries: 0,
		settingsStatted: 0,
		coupledBuilds: 0,
		coupledEdgesAdded: 0,
		signaturePages: { filesRead: 0, signaturesRead: 0 },
	};
	#index: CodeIndex;
	readonly #indexOptions: CodeIndexOptions;
	#prepared: { generation: number; store: GraphStore; graph: PreparedGraph } | undefined;
	/** How imports resolve (files, tsconfig paths, packages, modules), as read for the graph, and whether stale. */
	readonly #settings: ImportSettings;
	/** When the last full walk finished, and paths known to have changed since (this session's own writes). */
	#lastWalk = 0;
	readonly #dirty = new Set<string>();
	readonly #reuseMs = envInt("FOVEA_WALK_REUSE_MS", 5000, 0, 3_600_000);
	readonly #watch: RootWatch | undefined;
	/** The watch's change count when the last walk started, or when watched paths were last refreshed. */
	#reading = 0;
	/** The index's walk count the watch last followed. */
	#watchedScan = -1;
	#gitDirectories: string[] | undefined;
	/** Set when the watch gained directories: the next refresh walks, to cover changes made before they were watched. */
	#verifyNext = false;
	/** Change coupling from the root's history (see `history/`), brought to HEAD at most once per index generation. */
	readonly #coupling: ChangeCoupling;
	#couplingGeneration: number | undefined;
	/** The first index, when queries with patience share it, and the graph of what it had indexed when last asked. */
	readonly #first = new FirstIndex();
	#soFar: { indexed: number; snapshot: IndexSnapshot; graph: PreparedGraph } | undefined;
	/** When a focus last brought the coupling to HEAD in the background. */
	#couplingAsked = 0;

	constructor(root: string, options: CodeMapOptions = {}) {
		this.root = root;
		const { watch, history, ...indexOptions } = options;
		this.#indexOptions = indexOptions;
		this.#index = new CodeIndex(root, indexOptions);
		const storeDir = this.#index.cache?.disabled === undefined ? this.#index.cache?.dir : undefined;
		this.#coupling = new ChangeCoupling(root, {
			...(history === undefined ? {} : { source: history }),
			...(storeDir === undefined ? {} : { storeDir }),
		});
		this.#settings = new ImportSettings(root, this.stats);
		if (watch === true) this.#watch = new RootWatch(root);
	}

	get index(): CodeIndex {
		return this.#index;
	}

	/** The root's change coupling: its status says whether history is mined, or why there is none. */
	get coupling(): ChangeCoupling {
		return this.#coupling;
	}

	/**
	 * Brings change coupling to HEAD, asking Git at most once per index generation, so a warm query with nothing
	 * changed runs no Git; a commit that changed no file since is seen at the next generation. A new HEAD is mined
	 * once: only its new commits when it descends from the mined one. `true` when it asked Git.
	 */
	async #couplingAt(generation: number): Promise<boolean> {
		if (generation === this.#couplingGeneration) return false;
		await this.#coupling.update();
		this.#couplingGeneration = generation;
		return true;
	}

	/**
	 * Change coupling for a focus, whose prior it only is: the first focus waits for it to be mined (`true`: it asked
	 * Git); later ones bring it to HEAD in the background, once per index generation and at most once per
	 * FOVEA_WALK_REUSE_MS (5 s), so a focus after an edit runs no Git on its way and ranks with the history as last
	 * read (a commit shows at a later focus).
	 */
	async #couplingForFocus(generation: number): Promise<boolean> {
		if (this.#coupling.status.available === "unknown") return this.#couplingAt(generation);
		// At most once per FOVEA_WALK_REUSE_MS: edits in a row would each start a Git process beside the next refresh.
		const now = Date.now();
		if (generation !== this.#couplingGeneration && now - this.#couplingAsked >= this.#reuseMs) {
			this.#couplingAsked = now;
			void this.#couplingAt(generation);
		}
		return false;
	}

	/** Whether the graph is in memory. */
	get resident(): boolean {
		return this.#prepared !== undefined;
	}

	/** Paths known to have changed (e.g. written by this session's tools), re-checked by the next refresh. */
	markDirty(paths: Iterable<string>): void {
		for (const path of paths) this.#dirty.add(path);
	}

	/**
	 * Brings facts up to date and returns the graph for the current generation: just `paths` when given; else a
	 * full walk, unless one finished within FOVEA_WALK_REUSE_MS (5 s) and `fresh` is not set, in which case only the
	 * paths marked dirty are re-checked. Post-turn probes keep roots current between walks.
	 */
	async refresh(options: MapRefreshOptions = {}): Promise<{ snapshot: IndexSnapshot; graph: PreparedGraph }> {
		const soFar = await this.#indexedSoFar(options);
		if (soFar !== undefined) return soFar;
		const snapshot = await this.#refreshIndex(options);
		const prepared = this.#prepared;
		// The same files with the same facts: the graph stands, unless a settings file (tsconfig.json, a configuration
		// it extends, go.mod) changed how their imports resolve, which no source edit announces.
		if (prepared !== undefined && prepared.generation === snapshot.generation && !(await this.#settingsStale()))
			return { snapshot, graph: prepared.graph };
		const patched = prepared === undefined ? undefined : await this.#patch(prepared, snapshot);
		if (prepared !== undefined && patched !== undefined) {
			this.stats.graphsPatched++;
			this.#prepared = { generation: snapshot.generation, store: prepared.store, graph: patched };
			return { snapshot, graph: patched };
		}
		this.#prepared = { generation: snapshot.generation, ...(await this.#build(snapshot)) };
		return { snapshot, graph: this.#prepared.graph };
	}

	async #build(snapshot: IndexSnapshot): Promise<{ store: GraphStore; graph: PreparedGraph }> {
		const context = await this.#readSettings(snapshot);
		const resolved = (file: FileFacts) =>
			file.imports.flatMap((imported) => resolveImport(file, imported, context.value));
		const store = new GraphStore(snapshot.files.values(), {
			imports: resolved,
			// Only a test's imports are resolved a second time, and only where the convention uses them (Rust).
			subjects: (path: string, file: FileFacts) =>
				testSubjects(path, context.value.files, file.language === "rust" && isTestPath(path) ? resolved(file) : []),
			// Coupled edges come from the history as last mined: a query brings it to HEAD first (`#couplingAt`).
			history: () => this.#coupling.history,
			coupledBuilt: (edges) => {
				this.stats.coupledBuilds++;
				this.stats.coupledEdgesAdded += edges.edges;
			},
		});
		this.stats.graphsBuilt++;
		return { store, graph: prepareGraph(store.graph(), snapshot.files) };
	}

	/**
	 * With `patienceMs`, before the root's first index is done: the files indexed so far and their graph once the
	 * patience ran out (the graph kept while the index has not moved on), or `undefined` to refresh as usual.
	 */
	async #indexedSoFar(
		options: MapRefreshOptions,
	): Promise<{ snapshot: IndexSnapshot; graph: PreparedGraph } | undefined> {
		const { signal, onProgress, paths } = options;
		// Without patience of its own, a query waits for a first index already running rather than queue a walk.
		const patienceMs = options.patienceMs ?? (this.#first.running ? Number.POSITIVE_INFINITY : undefined);
		if (patienceMs === undefined || paths !== undefined || this.#index.snapshot !== undefined) return undefined;
		const index = this.#index;
		const start = (progress: (done: number, total: number) => void) =>
			this.#refreshIndex({ onProgress: progress }).finally(() => {
				this.#soFar = undefined;
			});
		const snapshot = await this.#first.wait(start, () => index.indexedSoFar(), { patienceMs, signal, onProgress });
		const indexed = snapshot?.indexing?.indexed;
		if (snapshot === undefined || indexed === undefined) return undefined;
		if (this.#soFar?.indexed !== indexed)
			this.#soFar = { indexed, snapshot, graph: (await this.#build(snapshot)).graph };
		return { snapshot: this.#soFar.snapshot, graph: this.#soFar.graph };
	}

	/**
	 * Carries the graph to the snapshot's generation edit by edit, when the previous generation is the one before it,
	 * the set of files is the same and the resolution settings did not change; `undefined` asks for a full build.
	 */
	async #patch(
		prepared: { generation: number; store: GraphStore; graph: PreparedGraph },
		snapshot: IndexSnapshot,
	): Promise<PreparedGraph | undefined> {
		const settings = this.#settings.current;
		if (snapshot.generation !== prepared.generation + 1 || settings === undefined) return undefined;
		if (snapshot.files.size !== settings.value.files.size) return undefined;
		if (await this.#settingsStale()) return undefined;
		const delta = prepared.store.update(snapshot.generationChanged, snapshot.files);
		if (delta === undefined) return undefined;
		return patchPreparedGraph(
			prepared.graph,
			prepared.store.graph(),
			delta,
			snapshot.files,
			snapshot.generationChanged,
		);
	}

	async #refreshIndex(options: MapRefreshOptions): Promise<IndexSnapshot> {
		const { fresh, ...rest } = options;
		if (rest.paths !== undefined) return this.#afterRefresh(await this.#index.refresh(rest));
		const current = this.#index.snapshot;
		if (fresh !== true && current !== undefined) {
			// A healthy watch names what changed since the last walk: refresh just those paths, or nothing.
			const reading = this.#watch?.changes ?? 0;
			const changed =
				this.#watch === undefined || this.#verifyNext ? undefined : await this.#watch.pathsSince(this.#reading);
			if (changed !== undefined) {
				this.#reading = reading;
				this.#settings.watched(changed, reading);
				const paths = [...new Set([...changed, ...this.#dirty])];
				this.#dirty.clear();
				this.stats.watchedRefreshes++;
				return paths.length === 0 ? current : this.#afterRefresh(await this.#index.refresh({ ...rest, paths }));
			}
			if (!this.#verifyNext && Date.now() - this.#lastWalk < this.#reuseMs) {
				if (this.#dirty.size === 0) return current;
				const paths = [...this.#dirty];
				this.#dirty.clear();
				return this.#index.refresh({ ...rest, paths });
			}
		}
		this.#dirty.clear();
		this.#verifyNext = false;
		this.#reading = this.#watch?.changes ?? 0;
		const snapshot = await this.#index.refresh(rest);
		this.#lastWalk = Date.now();
		return this.#afterRefresh(snapshot);
	}

	/** After any walk (a path refresh may fall back to one), the watch follows the directories it listed. */
	async #afterRefresh(snapshot: IndexSnapshot): Promise<IndexSnapshot> {
		const watch = this.#watch;
		if (watch === undefined || this.#index.stats.scans === this.#watchedScan) return snapshot;
		this.#watchedScan = this.#index.stats.scans;
		this.#gitDirectories ??= await gitStateDirectories(this.root);
		const root = this.root;
		const added = watch.sync(
			this.#index.walkedDirectories.map((rel) => (rel === "" ? root : join(root, rel))),
			this.#gitDirectories,
		);
		// Files in newly watched directories may have changed between the walk and their watcher: walk once more.
		if (added > 0) this.#verifyNext = true;
		return snapshot;
	}

	/**
	 * The change watch of this root, when the map was made with `watch: true` (see `RootWatch`): lets a probe
	 * tell that nothing happened without a walk or a `git status`.
	 */
	get watch(): RootWatch | undefined {
		return this.#watch;
	}

	/** Stops watching and drops the heavy state; for a retired root. */
	async close(): Promise<void> {
		this.#watch?.close();
		await this.evict();
	}

	/**
	 * How imports resolve in this root at its current generation (its files, tsconfig paths, Go module), for callers
	 * that resolve the imports of other versions of its files, like Contour's before and after sides of a change.
	 */
	async importResolution(refresh: MapRefreshOptions = { paths: [] }): Promise<ResolutionContext> {
		const { snapshot } = await this.refresh(refresh);
		return (this.#settings.current ?? (await this.#readSettings(snapshot))).value;
	}

	/**
	 * Brings facts up to date as `refresh` does and says how imports resolve among them, without building the graph
	 * (a graph of this generation stands): for callers that read facts and resolve imports themselves, like
	 * Contour's review, which needs the graph only when a finding asks for its exposure.
	 */
	async refreshFacts(
		options: MapRefreshOptions = {},
	): Promise<{ snapshot: IndexSnapshot; resolution: ResolutionContext }> {
		const snapshot = await this.#refreshIndex(options);
		const current = this.#prepared?.generation === snapshot.generation ? this.#settings.current : undefined;
		if (current !== undefined && !(await this.#settingsStale())) return { snapshot, resolution: current.value };
		// Read, not kept: the kept settings are the graph's, which a later refresh compares and patches against.
		const files = new Set(snapshot.files.keys());
		const settings = await readResolutionSettings(this.root, files, this.#index.settingsFiles);
		return { snapshot, resolution: settings.value };
	}

	/** Ranks files and symbols for `query` and renders the answer within `maxTokens`. */
	async focus(query: FocusQuery, maxTokens: number, refresh: MapRefreshOptions = {}): Promise<FocusAnswer> {
		return this.#answer("focus", () => ({ query, label: query.text }), maxTokens, refresh);
	}

	/**
	 * What surrounds the retained focus: heat seeded from attention (`model/attention-keys.ts` keys with weights) spread
	 * `factor` times further than a focus. After an eviction this rebuilds the graph and seeds it again from the
	 * same attention, so paging never forgets what the agent was looking at.
	 */
	async dwell(
		attention: ReadonlyArray<[string, number]>,
		factor: number,
		maxTokens: number,
		refresh: MapRefreshOptions = {},
	) {
		const around = attention
			.slice(0, 5)
			.map(([key]) => describeAttention(key))
			.join(", ");
		return this.#answer(
			"dwell",
			(graph) => ({ query: dwellQuery(graph, attention, factor), label: `around ${around}` }),
			maxTokens,
			refresh,
		);
	}

	/**
	 * What a change exposes: the code that depends on the changed files and symbols (importers, callers, subclasses
	 * and implementers, tests), transitively with decay (`rank/dependent-reach.ts`), each with why it ranked; what the
	 * change itself depends on is listed apart. This is modelled exposure, not severity.
	 */
	async impact(
		changed: { files: readonly string[]; symbols: readonly string[] },
		maxTokens: number,
		refresh: MapRefreshOptions = {},
	): Promise<ImpactAnswer> {
		const subject = [...changed.files, ...changed.symbols].slice(0, 6).join(", ");
		const {
			reach,
			graph,
			snapshot,
			importersOfGone: n,
			couplingNote,
		} = await this.exposure(changed, refresh, { fused: true });
		const gone = n > 0 ? ` (gone files: seeded from ${n} importer${n === 1 ? "" : "s"})` : "";
		const notes = indexNotes(snapshot);
		await this.showSignatures(
			reach.symbols.map((r) => graph.nodes[r.id]),
			snapshot,
		);
		const text = renderImpact(reach, {
			root: this.root,
			query: `exposure of ${subject}${gone}`,
			graph,
			gaps: snapshot.gaps,
			partial: snapshot.partial,
			truncated: snapshot.truncated,
			maxTokens: notedTokens(maxTokens, notes),
			...(couplingNote === undefined ? {} : { note: couplingNote }),
		});
		return { text: withNotes(text, notes), ...impactItems(reach, graph), reach, snapshot };
	}

	/**
	 * The reach of `impact` without its rendering, for callers that rank or count what a change exposes (Contour's
	 * exposure): the reach over the current graph, each file scored by how surely the change reaches it, that graph
	 * (to name the reach's nodes), and how many importers of changed files that have no node any more (deleted) were
	 * ranked as exposed. `fused` ranks as `impact` does instead: the reach fused with change coupling and text
	 * likeness (`rank/impact-fusion.ts`), what a change is likely to need touched beside it, scored by fused rank. The
	 * plain reach asks Git nothing and never builds the text index: a mistake travels along dependencies only.
	 */
	async exposure(
		changed: { files: readonly string[]; symbols: readonly string[] },
		refresh: MapRefreshOptions = {},
		options: { fused?: boolean } = {},
	): Promise<{
		reach: Reach;
		graph: CodeGraph;
		snapshot: IndexSnapshot;
		importersOfGone: number;
		couplingNote?: string;
	}> {
		let { snapshot, graph } = await this.refresh(refresh);
		// Coupling is brought to HEAD once per index generation; when that asked Git, the graph is fetched again (the
		// wait may have let a refresh patch it).
		// A snapshot of a first index still running has no generation of its own to mine coupling at.
		if (options.fused === true && snapshot.indexing === undefined && (await this.#couplingAt(snapshot.generation)))
			({ snapshot, graph } = await this.refresh({ paths: [] }));
		this.stats.queries++;
		const context = this.#settings.current?.value;
		const importers = context === undefined ? [] : importersOf(changed.files, snapshot.files, context);
		const reached = dependentReach(graph.graph, impactSeeds(graph, changed, importers));
		if (options.fused !== true)
			return { reach: reached, graph: graph.graph, snapshot, importersOfGone: importers.length };
		const { reach, note } = withCoupling(reached, graph, this.#coupling.status, changed.files);
		return {
			reach,
			graph: graph.graph,
			snapshot,
			importersOfGone: importers.length,
			...(note === undefined ? {} : { couplingNote: note }),
		};
	}

	/** Refreshes, builds the query (and the label its answer names it by) on the fresh graph, ranks and renders. */
	async #answer(
		title: "focus" | "dwell",
		build: (graph: PreparedGraph, snapshot: IndexSnapshot) => { query: FocusQuery; label: string },
		maxTokens: number,
		refresh: MapRefreshOptions,
	): Promise<FocusAnswer> {
		let { snapshot, graph } = await this.refresh(refresh);
		// A first index still running answers from what it has; history waits for a snapshot of its own.
		if (title === "focus" && snapshot.indexing === undefined && (await this.#couplingForFocus(snapshot.generation)))
			({ snapshot, graph } = await this.refresh({ paths: [] }));
		this.stats.queries++;
		const { query, label } = build(graph, snapshot);
		const result = focus(graph, title === "focus" ? withCouplingPrior(query, graph) : query);
		await this.showSignatures(
			result.symbols.map((r) => graph.graph.nodes[r.id]),
			snapshot,
		);
		const items = focusItems(result, graph.graph);
		const notes = indexNotes(snapshot);
		const text = renderFocus(result, {
			root: this.root,
			query: label,
			title,
			graph: graph.graph,
			gaps: snapshot.gaps,
			partial: snapshot.partial,
			truncated: snapshot.truncated,
			files: snapshot.files,
			maxTokens: notedTokens(maxTokens, notes),
		});
		return { text: withNotes(text, notes), ...items, result, snapshot };
	}

	/**
	 * Makes the signatures of `nodes` (of the graph of `snapshot`) showable: those of summarized files are read back
	 * from the fact cache (`signature-pages.ts`). An answer calls it with the symbols it may show before rendering; a
	 * failed read leaves them shown by kind and name.
	 */
	async showSignatures(nodes: Iterable<GraphNode | undefined>, snapshot: IndexSnapshot): Promise<void> {
		const index = this.#index;
		await readSignatures(nodes, snapshot.files, index.cache, index.contentTerms, this.stats.signaturePages).catch(
			() => {},
		);
	}

	/** An overview of the root within `maxTokens`. */
	async sketch(maxTokens: number, refresh: MapRefreshOptions = {}): Promise<{ text: string; snapshot: IndexSnapshot }> {
		const { snapshot, graph } = await this.refresh(refresh);
		const notes = indexNotes(snapshot);
		const text = renderSketch({
			root: this.root,
			graph: graph.graph,
			files: snapshot.files,
			gaps: snapshot.gaps,
			partial: snapshot.partial,
			truncated: snapshot.truncated,
			maxTokens: notedTokens(maxTokens, notes),
		});
		return { text: withNotes(text, notes), snapshot };
	}

	/**
	 * Drops the graph, the in-memory facts, the mined history and the compiled ignore rules with the answers they keep;
	 * the next refresh reloads facts from the manifest and fact cache, the next query that ranks with history reads it
	 * back from its store. The manifest is flushed first, so files refreshed by path since its last save are not read
	 * again.
	 */
	async evict(): Promise<void> {
		const index = this.#index;
		this.#prepared = undefined;
		this.#settings.clear();
		this.#coupling.forget();
		forgetIgnoreRules(this.root);
		this.#couplingGeneration = undefined;
		this.#index = new CodeIndex(this.root, this.#indexOptions);
		await index.flush().catch(() => {});
	}

	/** Whether the settings the graph's imports were resolved with changed since (see `ImportSettings.stale`). */
	#settingsStale(): Promise<boolean> {
		return this.#settings.stale(this.#index.settingsFiles, this.#watch);
	}

	#readSettings(snapshot: IndexSnapshot): Promise<ResolutionSettings> {
		return this.#settings.read(new Set(snapshot.files.keys()), this.#index.settingsFiles);
	}
}
