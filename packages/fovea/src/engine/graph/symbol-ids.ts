/**
 * The live symbol ids of each file, in source order, as a read-only map by path. A build numbers each file's symbols
 * one after the other, so a file's ids are a range: two 32-bit numbers a file instead of a list and a map entry
 * (~150 bytes a file of nine symbols, ~16 MB at 100,000 generated files). A file an edit changed keeps its ids as
 * a list. Lists of ranges are made when asked (`get`); `span` reads either form without making one.
 */

/** See the module comment. */
export class SymbolIds implements ReadonlyMap<string, readonly number[]> {
	readonly #fileNode: ReadonlyMap<string, number>;
	readonly #start: Int32Array;
	readonly #count: Int32Array;
	/** Ids of the files an edit changed, by file id. */
	readonly #edited = new Map<number, readonly number[]>();

	/** No file has ids until `setRange` or `set` gives them. */
	constructor(fileNode: ReadonlyMap<string, number>, files: number) {
		this.#fileNode = fileNode;
		this.#start = new Int32Array(files);
		this.#count = new Int32Array(files);
	}

	/** Gives file `file` the ids `start` to `start + count - 1` (a build's numbering). */
	setRange(file: number, start: number, count: number): void {
		this.#edited.delete(file);
		this.#start[file] = start;
		this.#count[file] = count;
	}

	/** Gives the file at `path` the ids `ids` (an edit's). */
	set(path: string, ids: readonly number[]): void {
		const file = this.#fileNode.get(path);
		if (file === undefined) throw new Error(`Fovea's graph has no node for ${path}`);
		this.#edited.set(file, ids);
	}

	/**
	 * `path`'s ids without making a list: the list an edit gave them, else `undefined` with their range written into
	 * `range` (`start` to `end`, exclusive; empty for a path with no node).
	 */
	span(path: string, range: { start: number; end: number }): readonly number[] | undefined {
		const file = this.#fileNode.get(path);
		const edited = file === undefined ? undefined : this.#edited.get(file);
		if (file === undefined || edited !== undefined) {
			range.start = 0;
			range.end = 0;
			return edited;
		}
		range.start = this.#start[file] as number;
		range.end = range.start + (this.#count[file] as number);
		return undefined;
	}

	get(path: string): readonly number[] | undefined {
		const file = this.#fileNode.get(path);
		if (file === undefined) return undefined;
		const edited = this.#edited.get(file);
		if (edited !== undefined) return edited;
		const start = this.#start[file] as number;
		return Array.from({ length: this.#count[file] as number }, (_, i) => start + i);
	}

	has(path: string): boolean {
		return this.#fileNode.has(path);
	}

	get size(): number {
		return this.#fileNode.size;
	}

	forEach(each: (ids: readonly number[], path: string, map: ReadonlyMap<string, readonly number[]>) => void): void {
		for (const [path, ids] of this.entries()) each(ids, path, this);
	}

	*entries(): MapIterator<[string, readonly number[]]> {
		for (const path of this.#fileNode.keys()) yield [path, this.get(path) as readonly number[]];
	}

	keys(): MapIterator<string> {
		return this.#fileNode.keys();
	}

	*values(): MapIterator<readonly number[]> {
		for (const [, ids] of this.entries()) yield ids;
	}

	[Symbol.iterator](): MapIterator<[string, readonly number[]]> {
		return this.entries();
	}
}
