// @ts-check
/**
 * The user's Fovea cache directory, which the fact cache (`engine/cache-location.ts`) and the CLI launcher's compile
 * cache (`bin/launch.js`) both live under. Plain JavaScript because the launcher needs it before anything could strip
 * types; it imports only Node's built-ins.
 */
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/**
 * `$FOVEA_CACHE_DIR`, else `$XDG_CACHE_HOME/pi-fovea`, else `~/.cache/pi-fovea` (a relative setting is ignored).
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string}
 */
export function defaultCacheDir(env = process.env) {
	const explicit = env.FOVEA_CACHE_DIR;
	if (explicit !== undefined && explicit !== "" && isAbsolute(explicit)) return explicit;
	const xdg = env.XDG_CACHE_HOME;
	if (xdg !== undefined && xdg !== "" && isAbsolute(xdg)) return join(xdg, "pi-fovea");
	return join(homedir(), ".cache", "pi-fovea");
}
