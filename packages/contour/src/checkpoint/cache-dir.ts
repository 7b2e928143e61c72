/**
 * Where the CLI keeps what it caches on disk (reports, measures, compiled modules). Its own file, importing only
 * Node built-ins, so the CLI can name the directory before it loads anything else.
 */
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where the CLI keeps its cache: `$CONTOUR_CACHE_DIR`; else `contour/` inside `$FOVEA_CACHE_DIR` when that is set
 * (one directory then holds everything both tools cache); else `$XDG_CACHE_HOME/pi-contour` or `~/.cache/pi-contour`.
 */
export function contourCacheDir(env: NodeJS.ProcessEnv = process.env): string {
	if (env.CONTOUR_CACHE_DIR) return env.CONTOUR_CACHE_DIR;
	if (env.FOVEA_CACHE_DIR) return join(env.FOVEA_CACHE_DIR, "contour");
	return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pi-contour");
}
