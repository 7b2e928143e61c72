/**
 * What deriving one file's edges may look up, apart from `edges.ts` so the anchor edges it calls can name it
 * without importing it back.
 *
 * @module
 */
import type { FileFacts, Ids } from "../model/index.ts";
import type { AnchorIndex } from "./anchor-index.ts";
import type { GraphNode } from "./model.ts";

/** What deriving one file's edges may look up: node ids by path and by name, and the file's resolved links. */
export interface EdgeContext {
	nodes: readonly GraphNode[];
	fileNode: ReadonlyMap<string, number>;
	/** Live symbol ids by simple name, over the whole root. */
	byName: ReadonlyMap<string, Ids>;
	/**
	 * Live symbol ids by simple name, per file: `get` makes the map of the file being derived, `named` finds one name
	 * in another file (`file-symbols.ts`).
	 */
	symbolsOf: {
		get(path: string): ReadonlyMap<string, Ids> | undefined;
		named(path: string, name: string): Ids | undefined;
	};
	/** The current facts of every file, by path. */
	facts: ReadonlyMap<string, FileFacts>;
	/** Files `file`'s imports resolve to. */
	imports(file: FileFacts): readonly string[];
	/** Files a test file tests (its facts, for a test linked by what it imports). */
	subjects(path: string, file: FileFacts): readonly string[];
	/** Root-wide literal holders and route buckets. */
	anchors: AnchorIndex;
}
