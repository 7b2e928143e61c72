// @ts-check
/**
 * Starts a package's command-line tool from its bundle (`dist/cli.js`, built by `scripts/build-clis.ts` on
 * `npm install`) when the bundle is current, else from its TypeScript sources (`src/cli.ts`).
 *
 * Current means: `dist/cli.inputs.json` is readable, of the known version, and every source recorded there still has
 * the size and modification time the bundle was built from. An edited, pulled or checked-out source therefore runs
 * as written, never as a stale bundle; a missing or damaged record is the same as no bundle. Plain JavaScript because
 * it runs before anything could strip types, and it imports only Node's built-ins.
 */
import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The `cli.inputs.json` version this launcher reads (`INPUTS_VERSION` in `scripts/build-clis.ts`). */
const INPUTS_VERSION = 1;

/**
 * Whether the bundle in `packageDir` (a `file:` URL of the package directory, ending in `/`) was built from the
 * sources as they are now.
 * @param {URL} packageDir
 * @returns {boolean}
 */
export function bundleIsCurrent(packageDir) {
	let record;
	try {
		record = JSON.parse(readFileSync(new URL("dist/cli.inputs.json", packageDir), "utf8"));
	} catch {
		return false;
	}
	if (typeof record !== "object" || record === null || record.version !== INPUTS_VERSION) return false;
	if (!Array.isArray(record.inputs) || record.inputs.length === 0) return false;
	for (const input of record.inputs) {
		if (typeof input?.path !== "string" || typeof input.size !== "number" || typeof input.mtimeMs !== "number") {
			return false;
		}
		const info = statSync(fileURLToPath(new URL(input.path, packageDir)), { throwIfNoEntry: false });
		if (info === undefined || info.size !== input.size || info.mtimeMs !== input.mtimeMs) return false;
	}
	return true;
}

/**
 * Runs the CLI of the package at `packageDir`: its bundle when current, else its sources. Both read the command line
 * from `process.argv` and set the exit code themselves.
 * @param {URL} packageDir
 * @returns {Promise<void>}
 */
export async function launchCli(packageDir) {
	const entry = bundleIsCurrent(packageDir) ? "dist/cli.js" : "src/cli.ts";
	await import(new URL(entry, packageDir).href);
}
