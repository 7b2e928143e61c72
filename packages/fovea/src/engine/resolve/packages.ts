/**
 * Import resolution for the languages whose imports name a package directory: Go (paths under the module declared
 * by `go.mod` → every non-test `.go` file of that directory) and Java (`a.b.C` → every `…/a/b/C.java`, the outer
 * class for nested or static-member imports; `a.b.*` → every `.java` file of every `…/a/b` directory).
 */
import { basenameOf, type FileIndex, fileIndex, joinPath } from "../model/index.ts";

/** A Go module: the path its `go.mod` declares and the root-relative directory holding that file. */
export interface GoModule {
	module: string;
	dir: string;
}

/**
 * The non-test `.go` files of the package directory a Go import path names, when it is inside one of the root's
 * modules (the root's own, or one below it; the longest module path that is the import path or a prefix of it wins,
 * as a nested module's packages are not its parent's).
 */
export function resolveGo(
	spec: string,
	context: {
		files: ReadonlySet<string>;
		goModule?: string | undefined;
		goModuleDir?: string | undefined;
		goModules?: readonly GoModule[] | undefined;
	},
): string[] {
	let best: GoModule | undefined;
	const consider = (module: string, dir: string): void => {
		if (module === "" || (spec !== module && !spec.startsWith(`${module}/`))) return;
		if (best === undefined || module.length > best.module.length) best = { module, dir };
	};
	if (context.goModule !== undefined) consider(context.goModule, context.goModuleDir ?? "");
	for (const nested of context.goModules ?? []) consider(nested.module, nested.dir);
	if (best === undefined) return [];
	const dir = joinPath(best.dir, spec.slice(best.module.length + 1));
	if (dir === undefined) return [];
	const listing = fileIndex(context.files).byDir.get(dir) ?? [];
	return listing.filter((path) => path.endsWith(".go") && !path.endsWith("_test.go"));
}

/** The `.java` files a Java import names: the class file, or every file of the package for `a.b.*`. */
export function resolveJava(spec: string, files: ReadonlySet<string>): string[] {
	const index = fileIndex(files);
	if (spec.endsWith(".*")) {
		const pkg = spec.slice(0, -2).replace(/\./g, "/");
		const found: string[] = [];
		for (const dir of index.dirsByName.get(basenameOf(pkg)) ?? []) {
			if (dir !== pkg && !dir.endsWith(`/${pkg}`)) continue;
			for (const path of index.byDir.get(dir) ?? []) if (path.endsWith(".java")) found.push(path);
		}
		if (found.length > 0) return found;
		return javaClass(spec.slice(0, -2).split("."), index);
	}
	return javaClass(spec.split("."), index);
}

function javaClass(segments: string[], index: FileIndex): string[] {
	for (let k = segments.length; k > 0; k--) {
		const name = `${segments[k - 1]}.java`;
		const suffix = `${segments.slice(0, k).join("/")}.java`;
		const found = (index.byName.get(name) ?? []).filter((path) => path === suffix || path.endsWith(`/${suffix}`));
		if (found.length > 0) return found;
	}
	return [];
}
