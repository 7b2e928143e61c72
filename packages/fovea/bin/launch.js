// @ts-check
/**
 * Starts a package's command-line tool from its bundle (`dist/cli.js`, built by `scripts/build-clis.ts` on
 * `npm install`) when the bundle is current, else from its TypeScript sources (`src/cli.ts`).
 *
 * Current means: `dist/cli.inputs.json` is readable, of the known version, and every source recorded there still has
 * the size and modification time the bundle was built from. An edited, pulled or checked-out source therefore runs
 * as written, never as a stale bundle; a missing or damaged record is the same as no bundle. A package installed
 * under `node_modules` (from a tarball) is not edited in place and its sources sit elsewhere than where the bundle
 * was built, so there a readable record is enough. Plain JavaScript because it runs before anything could strip
 * types, and it imports only Node's built-ins and the plain JavaScript `src/cache-dir.js` and `src/bundle-record.js`.
 */
import * as nodeModule from "node:module";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleIsCurrent, isInstalled, readRecord } from "../src/bundle-record.js";
import { defaultCacheDir } from "../src/cache-dir.js";

export { bundleIsCurrent, bundleStandsForSources, isInstalled } from "../src/bundle-record.js";

/**
 * Where a bundled CLI keeps V8's compiled code of its bundle between runs (Node's module compile cache), so a run
 * does not compile the bundle's functions again, when its package's own directory cannot hold it
 * (`installedCompileCacheDir`): `node-compile-cache` in the user's Fovea cache directory. Private to the user, unlike
 * Node's default under the shared temporary directory.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string}
 */
export function compileCacheDir(env = process.env) {
	return join(defaultCacheDir(env), "node-compile-cache");
}

/**
 * Where a bundled CLI keeps V8's compiled code of its bundle first: beside the bundle, in `dist/.node-compile-cache`
 * of the package at `packageDir`. The compiled code belongs to the installed program, not to any repository it
 * reads: it lives and goes with the bundle (a rebuild empties `dist/`), written by whoever may write the code itself,
 * so a new fact cache (another repository, another `FOVEA_CACHE_DIR`) does not compile the program again. Not packed
 * (the packages' `files` leave it out).
 * @param {URL} packageDir
 * @returns {string}
 */
export function installedCompileCacheDir(packageDir) {
	return join(fileURLToPath(packageDir), "dist", ".node-compile-cache");
}

/**
 * Imports a bundle with the compile cache on: beside the bundle, else (a directory the user may not write) in the
 * user's cache directory. The cache is an optimization only: a failure to enable it (a read-only cache directory,
 * `NODE_DISABLE_COMPILE_CACHE=1`) is reported by Node in the returned status, not thrown.
 * @param {URL} packageDir
 * @returns {Promise<void>}
 */
async function importBundle(packageDir) {
	// Node 22.1 and later; an older Node runs the bundle without it.
	const failed = nodeModule.constants?.compileCacheStatus?.FAILED;
	for (const dir of [installedCompileCacheDir(packageDir), compileCacheDir()]) {
		const outcome = nodeModule.enableCompileCache?.(dir);
		if (outcome === undefined || outcome.status !== failed) break;
	}
	await import(new URL("dist/cli.js", packageDir).href);
}

/**
 * Runs the CLI of the package at `packageDir`: its bundle when current (when recorded, for an installed package),
 * else its sources. Both read the command line from `process.argv` and set the exit code themselves. An installed
 * package without its bundle is an error that says so: Node does not strip types under `node_modules`.
 * @param {URL} packageDir
 * @returns {Promise<void>}
 */
export async function launchCli(packageDir) {
	if (isInstalled(packageDir)) {
		if (readRecord(packageDir) === undefined) {
			return refuse(
				`the package at ${fileURLToPath(packageDir)} has no bundled CLI (dist/cli.js and dist/cli.inputs.json), and Node cannot run TypeScript under node_modules: reinstall the package`,
			);
		}
		await importBundle(packageDir);
		return;
	}
	if (bundleIsCurrent(packageDir)) await importBundle(packageDir);
	else {
		const unable = sourcesUnrunnable();
		if (unable !== undefined) return refuse(unable);
		await import(new URL("src/cli.ts", packageDir).href);
	}
}

/**
 * Says why the CLI cannot start, as the CLIs say their errors (`name: message`, exit code 1), instead of a stack.
 * @param {string} message
 */
function refuse(message) {
	const name = basename(process.argv[1] ?? "cli").replace(/\.js$/, "");
	process.stderr.write(`${name}: ${message}\n`);
	process.exitCode = 1;
}

/**
 * Why this Node cannot run the TypeScript sources, or undefined when it can. Node strips types by default from 22.18
 * (`process.features.typescript`); an older one, met with sources newer than the bundle, would fail with a bare
 * "Unknown file extension" stack instead of saying what to do.
 * @param {{ version: string; features: { typescript?: unknown } }} [node]
 * @returns {string | undefined}
 */
export function sourcesUnrunnable(node = process) {
	if (node.features.typescript) return undefined;
	return `the sources changed since the bundled CLI was built, and Node ${node.version} cannot run TypeScript: rebuild the bundle (npm run build, with the repository's Node) or run with Node 22.18 or later`;
}
