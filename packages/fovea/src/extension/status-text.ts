import { printable } from "../cli/printable.ts";
import { describeAttention } from "../engine/model/attention-keys.ts";
import { mappedCounts } from "../engine/render/coverage.ts";
import { envInt } from "../workspace/env.ts";
import type { Observation } from "./observation.ts";
import type { Roaming } from "./roaming.ts";
import type { FoveaMaps } from "./tools.ts";

/**
 * The text of `/fovea status`: the ring, the root used when none is named, cache residency, the coverage of the
 * resident roots as last mapped, and what the observer has done. Waits for post-turn probes already started, so
 * what it shows is settled.
 */
export async function foveaStatus(cwd: string, roaming: Roaming, maps: FoveaMaps, sync: Observation): Promise<string> {
	const scope = await roaming.manualRoot(cwd);
	const cacheRoots = envInt("FOVEA_CACHE_ROOTS", 2, 1, Number.MAX_SAFE_INTEGER);
	await sync.settled();
	const observer = maps.loadedObserver();
	const observed = observer === undefined ? [] : observer.relevant();
	const stats = observer?.stats;
	return [
		"pi-fovea status",
		`default root (no root given): ${scope?.root ?? cwd} [${scope?.marker ?? "directory"}, session cwd's own project]`,
		`heavy caches: at most ${cacheRoots} roots resident (FOVEA_CACHE_ROOTS)`,
		...(await roaming.describe()),
		...coverageLines(roaming.ring()?.list() ?? [], maps),
		stats === undefined
			? "observation: nothing observed yet"
			: `observation: ${observed.length} root${observed.length === 1 ? "" : "s"} with attention; probes ${stats.probes} (${stats.unchangedProbes} unchanged, ${stats.watchedProbes} answered by the change watch), refreshes ${stats.refreshes}, sweeps ${stats.sweeps}, baselines ${stats.baselines}${stats.gone > 0 ? `, roots gone ${stats.gone}` : ""}${stats.failures > 0 ? `, failed probes ${stats.failures}` : ""}`,
		...observed.map((root) => {
			const top = observer?.attention(root)?.top(3) ?? [];
			return `  ${root}: ${top.map(([key, weight]) => `${describeAttention(key)} ${weight.toFixed(2)}`).join(", ")}`;
		}),
	]
		.map(printable)
		.join("\n");
}

/** One line per resident root: files mapped (best effort among them) and not mapped, as its map last published. */
function coverageLines(roots: readonly string[], maps: FoveaMaps): string[] {
	const lines: string[] = [];
	for (const root of roots) {
		const snapshot = maps.residentSnapshot(root);
		if (snapshot !== undefined) lines.push(`  ${root}: ${mappedCounts(snapshot)}`);
	}
	return lines.length === 0 ? [] : ["coverage of resident roots, as last mapped:", ...lines];
}
