/**
 * Follows renames through a history read newest first, so a file's older commits count under its path at the mined
 * head: a file renamed in the window keeps its co-changes instead of splitting them between a path that no longer
 * exists and one with no past. A rename is known before any older commit that names the old path, because commits come
 * newest first; each old path maps straight to its path at the head (a chain a → b → c maps a to c), so a lookup is one
 * step. Paths outside the root's `prefix` are dropped; the map holds only renames seen in the commits read, so it is
 * bounded by the mine's own bounds.
 */

/** One change of a commit: a path changed in place, or a rename (`from` is the old path). */
export interface NameStatus {
	path: string;
	from?: string;
}

/** Old path → path at the head, for the commits read so far (newest first). */
export class RenamePaths {
	readonly #prefix: string;
	/** Repository-relative old path → repository-relative path at the head. */
	readonly #toHead = new Map<string, string>();
	/** Renames seen, a work count. */
	followed = 0;

	constructor(prefix: string) {
		this.#prefix = prefix;
	}

	/**
	 * The root-relative paths at the head of one commit's changes (each once), and the renames it holds noted for the
	 * older commits read next.
	 */
	commit(entries: readonly NameStatus[]): string[] {
		const files = new Set<string>();
		for (const { path, from } of entries) {
			const atHead = this.#toHead.get(path) ?? path;
			if (from !== undefined && from !== path) {
				this.#toHead.set(from, atHead);
				this.followed++;
			}
			if (atHead.startsWith(this.#prefix)) files.add(atHead.slice(this.#prefix.length));
		}
		return [...files];
	}

	/**
	 * Brings root-relative paths mined earlier (named as at an older head, all older than every commit read here) to
	 * the head: each renamed path takes its new name, duplicates collapse, and a path renamed out of the root drops.
	 */
	rename(files: readonly string[]): string[] {
		if (this.#toHead.size === 0) return [...files];
		const out = new Set<string>();
		for (const file of files) {
			const atHead = this.#toHead.get(this.#prefix + file) ?? this.#prefix + file;
			if (atHead.startsWith(this.#prefix)) out.add(atHead.slice(this.#prefix.length));
		}
		return [...out];
	}
}
