/**
 * A monorepo's own packages, as their `package.json` files name them: `import { x } from "@acme/lib"` in one
 * package names a file of another, which a package manager links into `node_modules` (never read here). Pure: the
 * manifests are read by `settings.ts`, and the candidate paths returned here are probed against the
 * root's files by `script.ts`.
 */

import { joinPath } from "../model/index.ts";
import { patternMatch } from "./path-patterns.ts";

/** One package of the root: where its `package.json` lies and the entry points it declares. */
export interface LocalPackage {
	/** Root-relative directory of the `package.json` (`""` for the root). */
	dir: string;
	/** `exports` as a subpath map (`"."`, `"./util"`, `"./*"`) to targets in preference order. */
	exports: ReadonlyMap<string, readonly string[]>;
	/** `source`, `module`, `main`, `types` and `typings`, in that order: entry points of `"."` besides `exports`. */
	fields: readonly string[];
}

/** Build-output directories whose files a package's sources in `src/` compile to. */
const OUTPUT_DIRS = /^(?:dist|build|lib|out|esm|cjs|es|types)\//;
const ENTRY_FIELDS = ["source", "module", "main", "types", "typings"];

/** The package a parsed `package.json` at `dir` declares, with its `name`; `undefined` without a name. */
export function localPackageOf(json: unknown, dir: string): { name: string; pkg: LocalPackage } | undefined {
	if (json === null || typeof json !== "object") return undefined;
	const manifest = json as Record<string, unknown>;
	const name = manifest.name;
	if (typeof name !== "string" || name === "") return undefined;
	const fields = ENTRY_FIELDS.map((field) => manifest[field]).filter((value) => typeof value === "string");
	return { name, pkg: { dir, exports: exportsMap(manifest.exports), fields } };
}

/**
 * The subpath imports of a parsed `package.json` (`"imports": { "#db": "./src/db/index.ts", "#util/*": … }`): each
 * `#` key with its targets in preference order; none for anything else.
 */
export function subpathImportsOf(json: unknown): Map<string, string[]> {
	const map = new Map<string, string[]>();
	if (json === null || typeof json !== "object") return map;
	const imports = (json as Record<string, unknown>).imports;
	if (imports === null || typeof imports !== "object" || Array.isArray(imports)) return map;
	for (const [key, value] of Object.entries(imports)) if (key.startsWith("#")) map.set(key, targetsOf(value));
	return map;
}

/**
 * Root-relative paths to probe, in order, for `target` as a package at `dir` declares it (`./dist/index.js`): the
 * path itself, then its source twin when it lies in a build-output directory (`src/index`), since a package's build
 * output is not in the map.
 */
export function declaredTargets(dir: string, target: string): string[] {
	const path = joinPath(dir, target);
	if (path === undefined) return [];
	const inPackage = dir === "" ? path : path.slice(dir.length + 1);
	if (!OUTPUT_DIRS.test(inPackage)) return [path];
	const twin = `src/${inPackage.replace(OUTPUT_DIRS, "").replace(/\.d\.[mc]?ts$|\.[mc]?js$/, "")}`;
	const source = joinPath(dir, twin);
	return source === undefined ? [path] : [path, source];
}

/** `exports` in any of its forms (a string, an array, conditions, or a subpath map) as subpath → targets. */
function exportsMap(value: unknown): Map<string, string[]> {
	const map = new Map<string, string[]>();
	if (value === null || value === undefined) return map;
	const keys = typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
	if (keys.length > 0 && keys.every((key) => key.startsWith("."))) {
		for (const key of keys) map.set(key, targetsOf((value as Record<string, unknown>)[key]));
	} else {
		map.set(".", targetsOf(value));
	}
	return map;
}

/** The paths of an `exports` value, depth first, a `source` condition first (it names the sources themselves). */
function targetsOf(value: unknown, depth = 0): string[] {
	if (typeof value === "string") return [value];
	if (depth > 8 || value === null || typeof value !== "object") return [];
	const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
	entries.sort(([a], [b]) => Number(b === "source") - Number(a === "source"));
	return entries.flatMap(([, v]) => targetsOf(v, depth + 1));
}

/**
 * Root-relative paths to probe, in order, for bare specifier `spec` when it names a package of `packages` (the
 * longest name that is `spec` or a prefix of it before `/`); `[]` otherwise. Each declared target is followed by
 * its source twin (`dist/index.js` → `src/index`), since a package's build output is not in the map; last come
 * the conventional places (`src/index.*`, `index.*`, or the subpath under `src/` and the package directory).
 */
export function packageTargets(spec: string, packages: ReadonlyMap<string, LocalPackage>): string[] {
	let name = spec;
	let pkg = packages.get(spec);
	for (let slash = spec.lastIndexOf("/"); pkg === undefined && slash > 0; slash = spec.lastIndexOf("/", slash - 1)) {
		name = spec.slice(0, slash);
		pkg = packages.get(name);
	}
	if (pkg === undefined) return [];
	const subpath = spec === name ? "." : `./${spec.slice(name.length + 1)}`;
	const exported = patternMatch(subpath, pkg.exports);
	// `null` in `exports` keeps a subpath private: nothing outside the package may import it.
	if (exported !== undefined && exported.length === 0) return [];
	const declared = [...(exported ?? []), ...(subpath === "." ? pkg.fields : [])];
	const bases: string[] = [];
	const add = (path: string | undefined): void => {
		if (path !== undefined && !bases.includes(path)) bases.push(path);
	};
	for (const target of declared) for (const path of declaredTargets(pkg.dir, target)) add(path);
	add(joinPath(pkg.dir, subpath === "." ? "src" : `src/${subpath.slice(2)}`));
	add(joinPath(pkg.dir, subpath));
	return bases;
}
