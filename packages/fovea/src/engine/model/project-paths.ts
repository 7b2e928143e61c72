/**
 * Root-relative `/` paths as import resolution and test links handle them, without touching the disk: directory and
 * base names, joining with `.`/`..` that may not leave the root, and per-set indexes of a project's files by
 * directory and by name. Shared so both agree on what a path is.
 */

/** `a/b/c.ts` → `a/b`; a root-level file → `""`. */
export function dirnameOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash < 0 ? "" : path.slice(0, slash);
}

/** `a/b/c.ts` → `c.ts`. */
export function basenameOf(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}

/** Joins root-relative segments, resolving `.` and `..`; `undefined` when the result would leave the root. */
export function joinPath(...parts: string[]): string | undefined {
	const out: string[] = [];
	for (const part of parts) {
		for (const segment of part.split("/")) {
			if (segment === "" || segment === ".") continue;
			if (segment === "..") {
				if (out.length === 0) return undefined;
				out.pop();
			} else out.push(segment);
		}
	}
	return out.join("/");
}

/** Lookups over a project's files, built once per file set by {@link fileIndex}. */
export interface FileIndex {
	/** Directory → files directly inside it, sorted. */
	byDir: Map<string, string[]>;
	/** File name → every path with that name, sorted. */
	byName: Map<string, string[]>;
	/** Directory name → every directory with that name (holding files directly). */
	dirsByName: Map<string, string[]>;
	/** Every directory holding files at any depth, the root (`""`) included. */
	dirs: Set<string>;
}

const indexes = new WeakMap<ReadonlySet<string>, { size: number; index: FileIndex }>();

/** Directory and file-name indexes of `files`, built once per set. */
export function fileIndex(files: ReadonlySet<string>): FileIndex {
	const cached = indexes.get(files);
	if (cached !== undefined && cached.size === files.size) return cached.index;
	const byDir = new Map<string, string[]>();
	const byName = new Map<string, string[]>();
	for (const path of [...files].sort()) {
		push(byDir, dirnameOf(path), path);
		push(byName, basenameOf(path), path);
	}
	const dirsByName = new Map<string, string[]>();
	const dirs = new Set<string>([""]);
	for (const dir of byDir.keys()) {
		push(dirsByName, basenameOf(dir), dir);
		for (let up = dir; !dirs.has(up); up = dirnameOf(up)) dirs.add(up);
	}
	const index = { byDir, byName, dirsByName, dirs };
	indexes.set(files, { size: files.size, index });
	return index;
}

function push(map: Map<string, string[]>, key: string, value: string): void {
	const list = map.get(key);
	if (list === undefined) map.set(key, [value]);
	else list.push(value);
}

/** The first candidate present in `files`, as a list of at most one. */
export function firstExisting(files: ReadonlySet<string>, candidates: Iterable<string | undefined>): string[] {
	for (const candidate of candidates) if (candidate !== undefined && files.has(candidate)) return [candidate];
	return [];
}
