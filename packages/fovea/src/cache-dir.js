// @ts-check
/**
 * The one rule for where both tools cache on disk: Fovea's fact cache (`engine/cache-location.ts`), the CLI
 * launcher's compile cache (`bin/launch.js`) and Contour's reports (`pi-contour`'s `checkpoint/cache-dir.ts`, through
 * the `pi-fovea/cache-dir` subpath). Plain JavaScript because the launcher needs it before anything could strip
 * types; it imports only Node's built-ins.
 */
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/**
 * The variable `name` when it holds an absolute path, else undefined. A relative one is ignored rather than resolved
 * against whatever directory a process happens to start in, which would scatter caches (the XDG Base Directory
 * specification says the same of its variables).
 * @param {NodeJS.ProcessEnv} env
 * @param {string} name
 * @returns {string | undefined}
 */
export function absoluteSetting(env, name) {
	const value = env[name];
	return value !== undefined && value !== "" && isAbsolute(value) ? value : undefined;
}

/**
 * The user's cache home: `$XDG_CACHE_HOME` when absolute, else `~/.cache`.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string}
 */
export function userCacheHome(env = process.env) {
	return absoluteSetting(env, "XDG_CACHE_HOME") ?? join(homedir(), ".cache");
}

/**
 * `$FOVEA_CACHE_DIR`, else `$XDG_CACHE_HOME/pi-fovea`, else `~/.cache/pi-fovea` (a relative setting is ignored).
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string}
 */
export function defaultCacheDir(env = process.env) {
	return absoluteSetting(env, "FOVEA_CACHE_DIR") ?? join(userCacheHome(env), "pi-fovea");
}
