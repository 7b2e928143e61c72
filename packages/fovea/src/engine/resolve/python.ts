/**
 * Import resolution for Python: `a.b` is `a/b.py`, `a/b.pyi` or `a/b/__init__.py` under the root, `src/`, an
 * ancestor directory of the importing file (nearest first), or a Python project of the root (and its `src/`);
 * leading dots climb from the importing file's package.
 * For `from m import n`, each name that is a submodule resolves too, besides `m` itself.
 */
import { dirnameOf, fileIndex, firstExisting, joinPath } from "../model/index.ts";

/**
 * The files a Python import of `spec` (and `names`, for `from spec import names`) in `fromPath` names. Absolute
 * imports also look in each Python project of the root (`context.pythonProjects`: directories with a
 * `pyproject.toml` or `setup.py`) and its `src/`, after the importing file's own ancestors: another package of a
 * monorepo.
 */
export function resolvePython(
	fromPath: string,
	spec: string,
	names: string[] | undefined,
	context: { files: ReadonlySet<string>; pythonProjects?: readonly string[] | undefined },
): string[] {
	const files = context.files;
	const dots = /^\.*/.exec(spec)?.[0].length ?? 0;
	const rest = spec.slice(dots).replace(/\./g, "/");
	if (dots > 0) {
		let dir: string | undefined = dirnameOf(fromPath);
		for (let i = 1; i < dots && dir !== undefined; i++) dir = dir === "" ? undefined : dirnameOf(dir);
		if (dir === undefined) return [];
		return pythonModule(joinPath(dir, rest), names, files, true);
	}
	if (rest === "") return [];
	const roots = ["", "src"];
	for (let dir = dirnameOf(fromPath); dir !== ""; dir = dirnameOf(dir)) if (dir !== "src") roots.push(dir);
	const projects = context.pythonProjects ?? [];
	if (projects.length > 0) {
		// Only a project (or its src/) holding the import's first name can resolve it: an unresolved import (the
		// standard library, a third-party package) would otherwise probe every project of a large monorepo.
		const head = rest.split("/")[0] as string;
		const holders = projectRootsHolding(files, projects);
		const held = new Set([head, `${head}.py`, `${head}.pyi`].flatMap((name) => holders.get(name) ?? []));
		if (held.size > 0) {
			for (const project of projects) {
				for (const root of [project, `${project}/src`]) if (held.has(root)) roots.push(root);
			}
		}
	}
	const { byDir, dirs } = fileIndex(files);
	for (const root of roots) {
		const module = joinPath(root, rest);
		// Every candidate is a file beside the module (`a/b.py`: in `a`) or under its directory (`a/b/…`): a root
		// where neither directory exists is passed without building and probing them, as most roots of a deep file are.
		if (module === undefined || (!byDir.has(dirnameOf(module)) && !dirs.has(module))) continue;
		const found = pythonModule(module, names, files, false);
		if (found.length > 0) return found;
	}
	return [];
}

function pythonModule(
	module: string | undefined,
	names: string[] | undefined,
	files: ReadonlySet<string>,
	relative: boolean,
): string[] {
	if (module === undefined) return [];
	const found: string[] = [];
	const prefix = module === "" ? "" : `${module}/`;
	const own = module === "" ? [`__init__.py`] : [`${module}.py`, `${module}.pyi`, `${prefix}__init__.py`];
	found.push(...firstExisting(files, own));
	if (found.length === 0 && !relative && names === undefined) return found;
	for (const name of names ?? []) {
		if (name === "*") continue;
		found.push(
			...firstExisting(files, [`${prefix}${name}.py`, `${prefix}${name}.pyi`, `${prefix}${name}/__init__.py`]),
		);
	}
	return found;
}

const projectHolders = new WeakMap<
	ReadonlySet<string>,
	{ size: number; projects: readonly string[]; holders: Map<string, string[]> }
>();

/**
 * Name (of a file or directory) → the project roots and project `src/` directories that hold it directly, among
 * `files`; built once per set and project list (rebuilt if the set's size changes, as `fileIndex` is).
 */
function projectRootsHolding(files: ReadonlySet<string>, projects: readonly string[]): Map<string, string[]> {
	const cached = projectHolders.get(files);
	if (cached !== undefined && cached.size === files.size && cached.projects === projects) return cached.holders;
	const roots = new Set(projects.flatMap((project) => [project, `${project}/src`]));
	const seen = new Set<string>();
	const holders = new Map<string, string[]>();
	for (const path of files) {
		for (let child = path, dir = dirnameOf(path); dir !== ""; child = dir, dir = dirnameOf(dir)) {
			if (!roots.has(dir) || seen.has(child)) continue;
			seen.add(child);
			const name = child.slice(dir.length + 1);
			const list = holders.get(name);
			if (list === undefined) holders.set(name, [dir]);
			else list.push(dir);
		}
	}
	projectHolders.set(files, { size: files.size, projects, holders });
	return holders;
}
