import { envInt } from "../workspace/env.ts";

/**
 * How many roots' heavy code maps (graph, facts, vectors) stay resident in the process: `FOVEA_CACHE_ROOTS`, 2 by
 * default, at least 1 and at most 1,024 (far above any ring of 32 roots, so only a typo is cut). One reading serves
 * the maps and `/fovea status`, so the bound the status names is the bound in force.
 */
export function cacheRootsLimit(env: Record<string, string | undefined> = process.env): number {
	return envInt("FOVEA_CACHE_ROOTS", 2, 1, 1024, env);
}
