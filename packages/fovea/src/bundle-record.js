// @ts-check
/**
 * Whether a package's bundle (`dist/`, built by `scripts/build-clis.ts` on `npm install`) stands for its sources,
 * read from the bundle's record of its inputs (`dist/cli.inputs.json`). The CLI launcher (`bin/launch.js`) runs the
 * bundle only then, and the engine's extract pool starts its bundled worker only then: one rule, kept here in
 * `src/` so the engine needs nothing from `bin/`. Plain JavaScript because the launcher runs before anything could
 * strip types.
 */
import { readFileSync, statSync } from "node:fs";
import { sep } from "node:path";
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
	const record = readRecord(packageDir);
	if (record === undefined) return false;
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
 * The bundle's record of its inputs, when readable and of this version.
 * @param {URL} packageDir
 * @returns {{ inputs: ({ path?: unknown; size?: unknown; mtimeMs?: unknown } | null)[] } | undefined}
 */
export function readRecord(packageDir) {
	let record;
	try {
		record = JSON.parse(readFileSync(new URL("dist/cli.inputs.json", packageDir), "utf8"));
	} catch {
		return undefined;
	}
	if (typeof record !== "object" || record === null || record.version !== INPUTS_VERSION) return undefined;
	if (!Array.isArray(record.inputs) || record.inputs.length === 0) return undefined;
	return record;
}

/**
 * Whether the package at `packageDir` is an installed copy (it sits under a `node_modules` directory) rather than a
 * checkout.
 * @param {URL} packageDir
 * @returns {boolean}
 */
export function isInstalled(packageDir) {
	return fileURLToPath(packageDir).split(sep).includes("node_modules");
}

/**
 * Whether the package's bundle stands for its sources: in an installed copy, a readable record (its sources are not
 * edited in place); in a checkout, a current one (`bundleIsCurrent`). The rule `launchCli` applies, for other code
 * that can run either (Fovea's parsing threads).
 * @param {URL} packageDir
 * @returns {boolean}
 */
export function bundleStandsForSources(packageDir) {
	return isInstalled(packageDir) ? readRecord(packageDir) !== undefined : bundleIsCurrent(packageDir);
}
