/**
 * Where the fact cache keeps things: the cache directory of the user and of each root inside it, and the key of one
 * file's facts. Apart from the cache itself because the indexer needs the key without any of the cache's disk work,
 * and because "never inside the analysed root" is a rule about locations that the cache checks twice.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { relativeInside } from "../workspace/path-inside.ts";
import type { LanguageId } from "./model/facts.ts";

/**
 * The cache key of one file's facts: its content hash (`FileFacts.hash`: sha256 of the extractor version and the
 * content) qualified by language and path. Facts carry their path (and
 * some languages derive `package` from it), so two files with equal bytes have different facts; content-addressing
 * still holds per path: restoring earlier bytes at a path, or reverting a branch, hits. Facts extracted without
 * content terms (`contentTerms: false`, see `CodeIndexOptions.contentTerms`) are another variant of the same file's
 * facts with a key of its own, so an index that ranks by text never takes them for complete.
 */
export function factKey(hash: string, path: string, language: LanguageId, contentTerms: boolean): string {
	const variant = contentTerms ? "" : "\0without-content-terms";
	return createHash("sha256").update(`${hash}\0${language}\0${path}${variant}`).digest("hex");
}

/** `$FOVEA_CACHE_DIR`, else `$XDG_CACHE_HOME/pi-fovea`, else `~/.cache/pi-fovea` (see `../cache-dir.js`). */
export { defaultCacheDir } from "../cache-dir.js";

/** The directory holding `root`'s cache inside `cacheDir`. */
export function rootCacheDir(cacheDir: string, root: string): string {
	return join(cacheDir, createHash("sha256").update(root).digest("hex").slice(0, 16));
}

/** Whether `child` is `parent` or lies below it (lexically; resolve links first where they matter). */
export function isInside(parent: string, child: string): boolean {
	return relativeInside(parent, child) !== undefined;
}
