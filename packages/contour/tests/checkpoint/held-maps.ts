/**
 * A CLI-like holder of code maps for review tests: one map per root, built on first use with a fact cache of its own
 * (so the facts a review offers it count in its parse counts), optionally cold (the review then slices).
 */
import { CodeMap } from "pi-fovea/engine";
import type { CodeMaps } from "../../src/checkpoint/map-facts.ts";
import { tempDir } from "../git/support.ts";

/**
 * Maps held as the CLI holds them; `cold` says a review should slice, `threads` that it may hand the slice's files to
 * parsing threads; `built()` says whether a map was made.
 */
export function heldMaps(options: {
	cold: boolean;
	maxSliceTextBytes?: number;
	threads?: boolean;
}): CodeMaps & { built(): boolean } {
	let map: CodeMap | undefined;
	return {
		use: (root) => {
			if (map !== undefined) return map;
			const saved = process.env.FOVEA_CACHE_DIR;
			process.env.FOVEA_CACHE_DIR = tempDir("contour-cold-facts-");
			try {
				map = new CodeMap(root, { contentTerms: false });
			} finally {
				if (saved === undefined) delete process.env.FOVEA_CACHE_DIR;
				else process.env.FOVEA_CACHE_DIR = saved;
			}
			return map;
		},
		...(options.cold ? { cold: () => map === undefined } : {}),
		...(options.maxSliceTextBytes === undefined ? {} : { maxSliceTextBytes: options.maxSliceTextBytes }),
		...(options.threads === undefined ? {} : { threads: options.threads }),
		built: () => map !== undefined,
	};
}
