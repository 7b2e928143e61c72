/**
 * Import resolution for Python: `a.b` is `a/b.py`, `a/b.pyi` or `a/b/__init__.py` under the root, `src/`, an
 * ancestor directory of the importing file (nearest first), or a Python project of the root (and its `src/`);
 * leading dots climb from the importing file's package.
 * For `from m import n`, each name that is a submodule resolves too, besides `m` itself.
 */
import { dirnameOf, firstExisting, joinPath } from "./project-paths.ts";

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
	for (const project of context.pythonProjects ?? []) roots.push(project, `${project}/src`);
	for (const root of roots) {
		const found = pythonModule(joinPath(root, rest), names, files, false);
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
