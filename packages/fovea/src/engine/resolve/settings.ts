/**
 * The settings that decide how imports resolve in one root (`tsconfig.json` baseUrl and paths, the module path of
 * `go.mod`), read into a {@link ResolutionContext}, and a cheap stamp of those files so a graph patch can tell they
 * did not change without reading them. Files of the root are only read here, never run.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { dirnameOf, joinPath } from "../model/index.ts";
import type { ResolutionContext } from "./imports.ts";
import { goModuleOf, pythonProjectsOf, readCrates, readGoModules, readPackageManifests } from "./module-manifests.ts";
import { readJsonc } from "./read-settings.ts";
import type { TsconfigPaths } from "./script.ts";

/**
 * Files whose content changes how imports resolve, besides the configurations the first extends: `jsconfig.json`
 * is a JavaScript project's `tsconfig.json`, read when there is no `tsconfig.json`.
 */
const SETTINGS_FILES = ["tsconfig.json", "go.mod", "jsconfig.json"];

/** A directory's own configurations, the first that is there wins. */
const CONFIG_NAMES = ["tsconfig.json", "jsconfig.json"];

/**
 * Configurations (and `go.mod` files) below the root read at most (a monorepo's packages); more are left out, and
 * the files below them resolve with the nearest configuration read.
 */
export const MAX_NESTED_CONFIGS = 256;

/** `package.json` (and `Cargo.toml`) files read at most for the root's own package names (a large monorepo's). */
export const MAX_PACKAGES = 512;

/** `extends` links followed from the root's configuration at most (a chain longer than this, or a loop, ends). */
const MAX_EXTENDS = 8;

/**
 * Size and mtime of the settings files (`files`, root-relative: by default `tsconfig.json`, `go.mod` and
 * `jsconfig.json`; pass the `files` a {@link readResolutionSettings} read), so a patch can tell they did not change
 * without reading them.
 */
export async function settingsStamp(root: string, files: readonly string[] = SETTINGS_FILES): Promise<string> {
	const stamps = await Promise.all(
		files.map((name) =>
			stat(join(root, name)).then(
				(s) => `${s.size}:${s.mtimeMs}`,
				() => "-",
			),
		),
	);
	return stamps.join("|");
}

/**
 * Whether any settings file `settings` was read from changed since (size or mtime; stat only, no read), leaving
 * out the files of `unchanged`, which the caller knows did not change (a change watch saw no event for them).
 */
export async function settingsChanged(
	root: string,
	settings: Pick<ResolutionSettings, "files" | "stamp">,
	unchanged: ReadonlySet<string> = new Set(),
): Promise<boolean> {
	if (unchanged.size === 0) return (await settingsStamp(root, settings.files)) !== settings.stamp;
	const stamps = settings.stamp.split("|");
	const checked: string[] = [];
	const expected: string[] = [];
	settings.files.forEach((file, i) => {
		if (unchanged.has(file)) return;
		checked.push(file);
		expected.push(stamps[i] ?? "");
	});
	return checked.length > 0 && (await settingsStamp(root, checked)) !== expected.join("|");
}

/** What `readResolutionSettings` read. */
export interface ResolutionSettings {
	value: ResolutionContext;
	/** Size and mtime of every settings file read (or looked for), taken before reading, in the order of `files`. */
	stamp: string;
	/** The root-relative settings files the stamp covers. */
	files: string[];
	/** The settings files the walk had found (`ScanResult.settingsFiles`), as given. */
	settingsFiles: readonly string[];
}

/**
 * How imports resolve among `files` (root-relative paths) of `root`, with the stamp of the settings it was read
 * from (taken first, so a settings change while reading shows as a stale stamp, never a fresh one) and the settings
 * files that stamp covers: `tsconfig.json`, `go.mod`, `jsconfig.json`, and of `settingsFiles` (what the walk found)
 * the configurations of directories below the root (the first {@link MAX_NESTED_CONFIGS}) with the configurations
 * each extends inside the root, the `package.json` files (the first {@link MAX_PACKAGES}) that name a package, and
 * the `go.mod` files below the root (the first {@link MAX_NESTED_CONFIGS}), `Cargo.toml` files that declare a
 * crate (the first {@link MAX_PACKAGES}), and the directories of Python projects below the root.
 */
export async function readResolutionSettings(
	root: string,
	files: ReadonlySet<string>,
	settingsFiles: readonly string[] = [],
): Promise<ResolutionSettings> {
	const read = [...SETTINGS_FILES];
	const stamps = [await settingsStamp(root, read)];
	const stampAlso = async (paths: readonly string[]): Promise<void> => {
		const fresh = paths.filter((path) => !read.includes(path));
		if (fresh.length === 0) return;
		read.push(...fresh);
		stamps.push(await settingsStamp(root, fresh));
	};
	const context: ResolutionContext = { files };
	const tsconfig = await readTsconfig(root, "", stampAlso);
	if (tsconfig !== undefined) context.tsconfig = tsconfig;
	const below = (name: string) => settingsFiles.filter((path) => path.endsWith(`/${name}`));
	const configDirs = [...new Set([...below("tsconfig.json"), ...below("jsconfig.json")].map(dirnameOf))].sort();
	if (configDirs.length > 0) {
		const scoped = new Map<string, TsconfigPaths | null>();
		for (const dir of configDirs.slice(0, MAX_NESTED_CONFIGS)) {
			await stampAlso(CONFIG_NAMES.map((name) => `${dir}/${name}`));
			scoped.set(dir, (await readTsconfig(root, dir, stampAlso)) ?? null);
		}
		context.nestedTsconfigs = scoped;
	}
	const named = (name: string) => settingsFiles.filter((path) => path === name || path.endsWith(`/${name}`));
	const manifests = await readPackageManifests(root, named("package.json").slice(0, MAX_PACKAGES), stampAlso);
	if (manifests.packages.size > 0) context.packages = manifests.packages;
	if ([...manifests.imports.values()].some((imports) => imports.size > 0)) context.packageImports = manifests.imports;
	const module = await goModuleOf(root, "go.mod");
	if (module !== undefined) context.goModule = module;
	const goModules = await readGoModules(root, below("go.mod").slice(0, MAX_NESTED_CONFIGS), stampAlso);
	if (goModules.length > 0) context.goModules = goModules;
	const crates = await readCrates(root, named("Cargo.toml").slice(0, MAX_PACKAGES), stampAlso);
	if (crates.size > 0) context.rustCrates = crates;
	const projects = pythonProjectsOf(below("pyproject.toml"), files);
	if (projects.length > 0) context.pythonProjects = projects.slice(0, MAX_PACKAGES);
	return { value: context, stamp: stamps.join("|"), files: read, settingsFiles: [...settingsFiles] };
}

/** One configuration of a tsconfig `extends` chain: its directory and what it sets itself. */
interface TsconfigLayer {
	dir: string;
	baseUrl?: string;
	paths?: Record<string, string[]>;
}

/**
 * The `baseUrl` and `paths` of the `tsconfig.json` (else `jsconfig.json`) in root-relative directory `dir`, taken
 * from the nearest configuration in its `extends` chain that sets each, as TypeScript does: a `baseUrl` is relative
 * to the file that sets it, and so are `paths` when no `baseUrl` is set. Only relative `extends` inside the root are
 * followed (a package's configuration lies in `node_modules`, which the index never reads); `onExtended` is told
 * each one before it is read.
 */
async function readTsconfig(
	root: string,
	dir: string,
	onExtended: (paths: readonly string[]) => Promise<void>,
): Promise<TsconfigPaths | undefined> {
	const layers: TsconfigLayer[] = [];
	const seen = new Set<string>();
	const own = CONFIG_NAMES.map((name) => (dir === "" ? name : `${dir}/${name}`));
	// Depth first, nearest first: a configuration, then what it extends, the last of an `extends` array first.
	const visit = async (path: string): Promise<void> => {
		if (seen.has(path) || seen.size >= MAX_EXTENDS) return;
		seen.add(path);
		if (!own.includes(path)) await onExtended([path]);
		const json = await readJsonc(join(root, path));
		if (json === null || typeof json !== "object") return;
		const configDir = dirnameOf(path);
		const { compilerOptions: options, extends: extended } = json as { compilerOptions?: unknown; extends?: unknown };
		const layer: TsconfigLayer = { dir: configDir };
		if (options !== null && typeof options === "object") {
			const { baseUrl, paths } = options as { baseUrl?: unknown; paths?: unknown };
			if (typeof baseUrl === "string") layer.baseUrl = baseUrl;
			if (isPathMap(paths)) layer.paths = paths;
		}
		layers.push(layer);
		const specs = typeof extended === "string" ? [extended] : Array.isArray(extended) ? [...extended].reverse() : [];
		for (const spec of specs) {
			const next = typeof spec === "string" ? await extendedPath(root, configDir, spec) : undefined;
			if (next !== undefined) await visit(next);
		}
	};
	for (const config of own) {
		await visit(config);
		if (layers.length > 0) break;
	}
	const withBaseUrl = layers.find((layer) => layer.baseUrl !== undefined);
	const withPaths = layers.find((layer) => layer.paths !== undefined);
	const anchor = withBaseUrl ?? withPaths;
	if (anchor === undefined) return undefined;
	const tsconfig: TsconfigPaths = { baseDir: anchor.dir };
	if (withBaseUrl?.baseUrl !== undefined) tsconfig.baseUrl = withBaseUrl.baseUrl;
	if (withPaths?.paths !== undefined) tsconfig.paths = withPaths.paths;
	return tsconfig;
}

/** The root-relative file a relative `extends` names (as written, else with `.json`), or `undefined`. */
async function extendedPath(root: string, dir: string, spec: string): Promise<string | undefined> {
	if (!spec.startsWith("./") && !spec.startsWith("../")) return undefined;
	const path = joinPath(dir, spec);
	if (path === undefined || path === "") return undefined;
	if (path.endsWith(".json")) return path;
	const isFile = (candidate: string) =>
		stat(join(root, candidate)).then(
			(s) => s.isFile(),
			() => false,
		);
	if (await isFile(path)) return path;
	return `${path}.json`;
}

function isPathMap(value: unknown): value is Record<string, string[]> {
	return (
		value !== null &&
		typeof value === "object" &&
		Object.values(value).every((v) => Array.isArray(v) && v.every((x) => typeof x === "string"))
	);
}
