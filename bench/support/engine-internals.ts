// The one place the benchmarks reach past the engine's barrel (`pi-fovea/engine`, packages/fovea/src/engine/index.ts):
// the fact cache a benchmark shares between trees and the names of the files that decide import resolution. When the
// engine's files move, this is the file to fix.
import { FactCache } from "../../packages/fovea/src/engine/cache/fact-cache.ts";
import { CodeMap, type CodeMapOptions } from "../../packages/fovea/src/engine/index.ts";
import { SETTINGS_FILE_NAMES } from "../../packages/fovea/src/engine/scan/settings-files.ts";

/**
 * A code map of `tree` whose facts live in `cacheDir`: trees written one after another into the same directory share
 * one fact cache, so a file unchanged between them is not parsed again. Facts are keyed by content, so the cache
 * carries nothing from one tree into another but the facts of identical files.
 */
export function cachedCodeMap(tree: string, cacheDir: string, history?: CodeMapOptions["history"]): CodeMap {
	return new CodeMap(tree, { cache: new FactCache(tree, { cacheDir }), ...(history === undefined ? {} : { history }) });
}

/** File names (`tsconfig.json`, `package.json`, `go.mod`, `Cargo.toml`…) the engine reads to resolve imports. */
export const IMPORT_SETTINGS_FILES: ReadonlySet<string> = SETTINGS_FILE_NAMES;
