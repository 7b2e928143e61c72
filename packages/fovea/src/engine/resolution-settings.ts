/**
 * The settings that decide how imports resolve in one root (`tsconfig.json` baseUrl and paths, the module path of
 * `go.mod`), read into a {@link ResolutionContext}, and a cheap stamp of those files so a graph patch can tell they
 * did not change without reading them. Files of the root are only read here, never run.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { readBounded } from "./file-content.ts";
import { dirnameOf, joinPath } from "./project-paths.ts";
import type { ResolutionContext } from "./resolve-imports.ts";
import type { TsconfigPaths } from "./resolve-script.ts";

/** Larger settings files are not read: no real `tsconfig.json` or `go.mod` comes near it. */
const MAX_SETTINGS_BYTES = 1_000_000;

/**
 * Files whose content changes how imports resolve, besides the configurations the first extends: `jsconfig.json`
 * is a JavaScript project's `tsconfig.json`, read when there is no `tsconfig.json`.
 */
const SETTINGS_FILES = ["tsconfig.json", "go.mod", "jsconfig.json"];

/** The root's own configurations, the first that is there wins. */
const ROOT_CONFIGS = ["tsconfig.json", "jsconfig.json"];

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
 * How imports resolve among `files` (root-relative paths) of `root`, with the stamp of the settings it was read
 * from (taken first, so a settings change while reading shows as a stale stamp, never a fresh one) and the settings
 * files that stamp covers: `tsconfig.json`, `go.mod`, `jsconfig.json` and the configurations the root's own
 * configuration extends inside the root.
 */
export async function readResolutionSettings(
	root: string,
	files: ReadonlySet<string>,
): Promise<{ value: ResolutionContext; stamp: string; files: string[] }> {
	const read = [...SETTINGS_FILES];
	const stamps = [await settingsStamp(root, read)];
	const context: ResolutionContext = { files };
	const tsconfig = await readTsconfig(root, async (extended) => {
		read.push(extended);
		stamps.push(await settingsStamp(root, [extended]));
	});
	if (tsconfig !== undefined) context.tsconfig = tsconfig;
	const goMod = await readSettingsText(join(root, "go.mod"));
	const module = goMod?.match(/^module\s+(\S+)/m)?.[1];
	if (module !== undefined) context.goModule = module;
	return { value: context, stamp: stamps.join("|"), files: read };
}

/** One configuration of a tsconfig `extends` chain: its directory and what it sets itself. */
interface TsconfigLayer {
	dir: string;
	baseUrl?: string;
	paths?: Record<string, string[]>;
}

/**
 * The root `tsconfig.json`'s (else `jsconfig.json`'s) `baseUrl` and `paths`, taken from the nearest configuration in
 * its `extends` chain that sets each, as TypeScript does: a `baseUrl` is relative to the file that sets it, and so are `paths` when no
 * `baseUrl` is set. Only relative `extends` inside the root are followed (a package's configuration lies in
 * `node_modules`, which the index never reads); `onExtended` is told each one before it is read.
 */
async function readTsconfig(
	root: string,
	onExtended: (path: string) => Promise<void>,
): Promise<TsconfigPaths | undefined> {
	const layers: TsconfigLayer[] = [];
	const seen = new Set<string>();
	// Depth first, nearest first: a configuration, then what it extends, the last of an `extends` array first.
	const visit = async (path: string): Promise<void> => {
		if (seen.has(path) || seen.size >= MAX_EXTENDS) return;
		seen.add(path);
		if (!ROOT_CONFIGS.includes(path)) await onExtended(path);
		const json = await readJsonc(join(root, path));
		if (json === null || typeof json !== "object") return;
		const dir = dirnameOf(path);
		const { compilerOptions: options, extends: extended } = json as { compilerOptions?: unknown; extends?: unknown };
		const layer: TsconfigLayer = { dir };
		if (options !== null && typeof options === "object") {
			const { baseUrl, paths } = options as { baseUrl?: unknown; paths?: unknown };
			if (typeof baseUrl === "string") layer.baseUrl = baseUrl;
			if (isPathMap(paths)) layer.paths = paths;
		}
		layers.push(layer);
		const specs = typeof extended === "string" ? [extended] : Array.isArray(extended) ? [...extended].reverse() : [];
		for (const spec of specs) {
			const next = typeof spec === "string" ? await extendedPath(root, dir, spec) : undefined;
			if (next !== undefined) await visit(next);
		}
	};
	for (const config of ROOT_CONFIGS) {
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

/**
 * A settings file's text, or `undefined` when it is missing, too large or not a regular file: read as the index reads
 * source files (`readBounded`), so a FIFO in its place cannot block the index and a symlink is not followed out.
 */
async function readSettingsText(path: string): Promise<string | undefined> {
	const outcome = await readBounded(path, MAX_SETTINGS_BYTES);
	return outcome.kind === "content" ? outcome.bytes.toString("utf8") : undefined;
}

/** Reads a JSON-with-comments file (tsconfig), or `undefined` when it is missing or not parseable. */
async function readJsonc(path: string): Promise<unknown> {
	const text = await readSettingsText(path);
	if (text === undefined) return undefined;
	const stripped = text
		.replace(/"(?:\\.|[^"\\])*"|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m) => (m.startsWith('"') ? m : ""))
		.replace(/,(\s*[}\]])/g, "$1");
	try {
		return JSON.parse(stripped);
	} catch {
		return undefined;
	}
}
