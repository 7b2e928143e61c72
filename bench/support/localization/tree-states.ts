// One repository's past trees as the rankers see them, one at a time: the tree of a commit written into a temp
// directory, Fovea's code map of it and the BM25 index of the same files. Every tree of a repository is written into
// the same directory with one fact cache, so a file unchanged between trees is parsed once (facts are keyed by
// content: the cache carries nothing else from one tree to the next). From the second tree on, only the paths that
// differ from the previous tree are written again (`updateTree`).
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { CodeMap } from "../../../packages/fovea/src/engine/index.ts";
import { type Bm25Doc, Bm25Index, bm25Doc } from "../bm25.ts";
import { cachedCodeMap } from "../engine-internals.ts";
import { updateTree, writeTree } from "../engine-tree.ts";

/** A commit's tree, indexed by both rankers over exactly the same files. */
export interface TreeState {
	commit: string;
	map: CodeMap;
	bm25: Bm25Index;
	/** The files Fovea indexed, which are also BM25's documents: the universe every ranker ranks. */
	indexed: ReadonlySet<string>;
}

/** Milliseconds spent per phase and trees written, for the report. */
export interface TreeTiming {
	trees: number;
	/** Trees written by updating the previous one with the paths that differ (the others were written whole). */
	treesUpdated: number;
	materializeMs: number;
	indexMs: number;
	bm25IndexMs: number;
}

/** The trees of one repository, under `workDir` (created by the caller, removed by it). */
export class TreeStates {
	readonly timing: TreeTiming = { trees: 0, treesUpdated: 0, materializeMs: 0, indexMs: 0, bm25IndexMs: 0 };
	readonly #repo: string;
	readonly #tree: string;
	readonly #cacheDir: string;
	#current: TreeState | undefined;
	/** The commit whose tree the directory holds, once completely written; an update starts from it. */
	#written: string | undefined;

	constructor(repo: string, workDir: string) {
		this.#repo = repo;
		this.#tree = join(workDir, "tree");
		this.#cacheDir = join(workDir, "cache");
	}

	/** The state of `commit`'s tree; the same object while consecutive calls ask for the same commit. */
	async at(commit: string): Promise<TreeState> {
		if (this.#current?.commit === commit) return this.#current;
		const previous = this.#written;
		this.#current = undefined;
		this.#written = undefined;
		let t = performance.now();
		if (previous === undefined) await writeTree(this.#repo, commit, this.#tree);
		else if ((await updateTree(this.#repo, previous, commit, this.#tree)) === "updated") this.timing.treesUpdated++;
		this.#written = commit;
		this.timing.materializeMs += performance.now() - t;
		t = performance.now();
		// Change coupling reads the mirror's history from the tree's own commit back: nothing after it.
		const map = cachedCodeMap(this.#tree, this.#cacheDir, { gitDir: this.#repo, head: commit });
		const { snapshot } = await map.refresh();
		await map.index.flush();
		this.timing.indexMs += performance.now() - t;
		t = performance.now();
		const docs: Bm25Doc[] = [];
		for (const path of snapshot.files.keys()) docs.push(bm25Doc(path, readFileSync(join(this.#tree, path), "utf8")));
		const bm25 = new Bm25Index(docs);
		this.timing.bm25IndexMs += performance.now() - t;
		this.timing.trees++;
		this.#current = { commit, map, bm25, indexed: new Set(snapshot.files.keys()) };
		return this.#current;
	}

	/** Removes the written tree (the caller removes `workDir` with the cache). */
	close(): void {
		this.#current = undefined;
		this.#written = undefined;
		rmSync(this.#tree, { recursive: true, force: true });
	}
}
