/**
 * Where the CLI keeps what it caches on disk (reports, measures, compiled modules). Its own file, importing only
 * pi-fovea's cache-directory rule (Node built-ins), so the CLI can name the directory before it loads anything else.
 */
import { join } from "node:path";
import { absoluteSetting, userCacheHome } from "pi-fovea/cache-dir";

/**
 * Where the CLI keeps its cache: `$CONTOUR_CACHE_DIR`; else `contour/` inside `$FOVEA_CACHE_DIR` when that is set
 * (one directory then holds everything both tools cache); else `$XDG_CACHE_HOME/pi-contour` or `~/.cache/pi-contour`.
 * Relative settings are ignored, by the same rule as Fovea's (see pi-fovea/cache-dir).
 */
export function contourCacheDir(env: NodeJS.ProcessEnv = process.env): string {
	const explicit = absoluteSetting(env, "CONTOUR_CACHE_DIR");
	if (explicit !== undefined) return explicit;
	const fovea = absoluteSetting(env, "FOVEA_CACHE_DIR");
	if (fovea !== undefined) return join(fovea, "contour");
	return join(userCacheHome(env), "pi-contour");
}
