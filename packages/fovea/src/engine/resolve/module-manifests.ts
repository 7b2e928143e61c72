/**
 * The packages, modules, crates and projects a root declares in its manifests, by which its files import each other:
 * `package.json` names (a monorepo's own packages), `go.mod` module paths, `Cargo.toml` crate names and the
 * directories of Python projects. Read bounded (`read-settings.ts`); each file read is stamped first through
 * `stamp`, so an edit shows as a stale stamp, never a fresh one.
 */
import { join } from "node:path";
import { dirnameOf } from "../model/index.ts";
import { type LocalPackage, localPackageOf, subpathImportsOf } from "./local-packages.ts";
import type { GoModule } from "./packages.ts";
import { readJsonc, readSettingsText } from "./read-settings.ts";

/** Stamps settings files before they are read (see `readResolutionSettings`). */
export type Stamp = (paths: readonly string[]) => Promise<void>;

/** What the `package.json` files of a root declare for imports between its files. */
export interface PackageManifests {
	/** The packages by name; of two with one name the first in path order stands. */
	packages: Map<string, LocalPackage>;
	/**
	 * Every manifest's subpath imports (`#name`) by its directory, empty when it declares none: the nearest manifest
	 * above a file is the scope its `#` specifiers resolve in.
	 */
	imports: Map<string, ReadonlyMap<string, readonly string[]>>;
}

/** The packages and subpath imports the `package.json` files at `paths` declare. */
export async function readPackageManifests(
	root: string,
	paths: readonly string[],
	stamp: Stamp,
): Promise<PackageManifests> {
	const packages = new Map<string, LocalPackage>();
	const imports = new Map<string, ReadonlyMap<string, readonly string[]>>();
	for (const path of paths) {
		await stamp([path]);
		const json = await readJsonc(join(root, path));
		const dir = dirnameOf(path);
		imports.set(dir, subpathImportsOf(json));
		const declared = localPackageOf(json, dir);
		if (declared !== undefined && !packages.has(declared.name)) packages.set(declared.name, declared.pkg);
	}
	return { packages, imports };
}

/** The module path a `go.mod` (root-relative `path`) declares, or `undefined`. */
export async function goModuleOf(root: string, path: string): Promise<string | undefined> {
	const text = await readSettingsText(join(root, path));
	return text?.match(/^module\s+(\S+)/m)?.[1];
}

/** The modules the `go.mod` files at `paths` declare, with their directories. */
export async function readGoModules(root: string, paths: readonly string[], stamp: Stamp): Promise<GoModule[]> {
	const modules: GoModule[] = [];
	for (const path of paths) {
		await stamp([path]);
		const module = await goModuleOf(root, path);
		if (module !== undefined) modules.push({ module, dir: dirnameOf(path) });
	}
	return modules;
}

/** The crates the `Cargo.toml` files at `paths` declare, by the name Rust paths use, with their directories. */
export async function readCrates(root: string, paths: readonly string[], stamp: Stamp): Promise<Map<string, string>> {
	const crates = new Map<string, string>();
	for (const path of paths) {
		await stamp([path]);
		const name = crateNameOf((await readSettingsText(join(root, path))) ?? "");
		if (name !== undefined && !crates.has(name)) crates.set(name, dirnameOf(path));
	}
	return crates;
}

/**
 * The name Rust paths give the crate a `Cargo.toml` declares: `[lib] name`, else `[package] name`, hyphens as
 * underscores; `undefined` for a workspace manifest without a package.
 */
export function crateNameOf(toml: string): string | undefined {
	const sections = new Map<string, string>();
	let current = "";
	for (const line of toml.split(/\r?\n/)) {
		// `[table]` and `[[array-of-tables]]` (a `[[bin]]` has a name of its own) both start a section.
		const header = /^\s*\[\[?([^\]]+)\]\]?\s*(?:#.*)?$/.exec(line);
		if (header !== null) current = (header[1] as string).trim();
		else sections.set(current, `${sections.get(current) ?? ""}${line}\n`);
	}
	const nameIn = (section: string) => /^\s*name\s*=\s*["']([^"'\n]+)["']/m.exec(sections.get(section) ?? "")?.[1];
	const name = nameIn("lib") ?? nameIn("package");
	return name === undefined ? undefined : name.replaceAll("-", "_");
}

/**
 * The Python projects below the root, sorted: directories with a `pyproject.toml` (as the walk found them) or a
 * `setup.py` among `files`. Found, not read: a project's directory is all resolution needs.
 */
export function pythonProjectsOf(pyprojects: readonly string[], files: ReadonlySet<string>): string[] {
	const setups = [...files].filter((path) => path.endsWith("/setup.py"));
	return [...new Set([...pyprojects, ...setups].map(dirnameOf))].sort();
}
