// One repository's past trees as the rankers see them, one at a time: the tree of a commit written into a temp
// directory, Fovea's code map of it and the BM25 index of the same files. Every tree of a repository is written into
// the same directory with one fact cache, so a file unchanged between trees is parsed once (facts are keyed by
// content: the cache carries nothing else from one tree to the next).
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { CodeMap } from "../../../packages/fovea/src/engine/index.ts";
import { type Bm25Doc, Bm25Index, bm25Doc } from "../bm25.ts";
import { cachedCodeMap } from "../engine-internals.ts";
import { writeTree } from "../engine-tree.ts";

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
	materializeMs: number;
	indexMs: number;
	bm25IndexMs: number;
}

/** The trees of one repository, under `workDir` (created by the caller, removed by it). */
export class TreeStates {
	readonly timing: TreeTiming = { trees: 0, materializeMs: 0, indexMs: 0, bm25IndexMs: 0 };
	readonly #repo: string;
	readonly #tree: string;
	readonly #cacheDir: string;
	#current: TreeState | undefined;

	constructor(repo: string, workDir: string) {
		this.#repo = repo;
		this.#tree = join(workDir, "tree");
		this.#cacheDir = join(workDir, "cache");
	}

	/** The state of `commit`'s tree; the same object while consecutive calls ask for the same commit. */
	async at(commit: string): Promise<TreeState> {
		if (this.#current?.commit === commit) return this.#current;
		this.#current = undefined;
		let t = performance.now();
		await writeTree(this.#repo, commit, this.#tree);
		this.timing.materializeMs += performance.now() - t;
		t = performance.now();
		const map = cachedCodeMap(this.#tree, this.#cacheDir);
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
		rmSync(this.#tree, { recursive: true, force: true });
	}
}
