/**
 * The settings that decide how imports resolve in one root (`tsconfig.json` baseUrl and paths, the module path of
 * `go.mod`), read into a {@link ResolutionContext}, and a cheap stamp of those files so a graph patch can tell they
 * did not change without reading them. Files of the root are only read here, never run.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { readBounded } from "./file-content.ts";
import type { ResolutionContext } from "./resolve-imports.ts";

/** Larger settings files are not read: no real `tsconfig.json` or `go.mod` comes near it. */
const MAX_SETTINGS_BYTES = 1_000_000;

/** Files whose content changes how imports resolve; a change to either means a full graph build. */
const SETTINGS_FILES = ["tsconfig.json", "go.mod"];

/** Size and mtime of the settings files, so a patch can tell they did not change without reading them. */
export async function settingsStamp(root: string): Promise<string> {
	const stamps = await Promise.all(
		SETTINGS_FILES.map((name) =>
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
 * from (taken first, so a settings change while reading shows as a stale stamp, never a fresh one).
 */
export async function readResolutionSettings(
	root: string,
	files: ReadonlySet<string>,
): Promise<{ value: ResolutionContext; stamp: string }> {
	const stamp = await settingsStamp(root);
	const context: ResolutionContext = { files };
	const tsconfig = await readJsonc(join(root, "tsconfig.json"));
	const options = (tsconfig as { compilerOptions?: { baseUrl?: unknown; paths?: unknown } } | undefined)
		?.compilerOptions;
	if (options !== undefined && (typeof options.baseUrl === "string" || isPathMap(options.paths))) {
		context.tsconfig = { baseDir: "" };
		if (typeof options.baseUrl === "string") context.tsconfig.baseUrl = options.baseUrl;
		if (isPathMap(options.paths)) context.tsconfig.paths = options.paths;
	}
	const goMod = await readSettingsText(join(root, "go.mod"));
	const module = goMod?.match(/^module\s+(\S+)/m)?.[1];
	if (module !== undefined) context.goModule = module;
	return { value: context, stamp };
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
