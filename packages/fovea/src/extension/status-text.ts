import { printable } from "../cli/printable.ts";
import { cacheRootsLimit } from "../engine/cache-roots.ts";
import { describeAttention } from "../engine/model/attention-keys.ts";
import { couplingLine, mappedCounts } from "../engine/render/coverage.ts";
import type { CommandReport, ReportLine } from "./command-report.ts";
import type { Observation } from "./observation.ts";
import type { Roaming } from "./roaming.ts";
import type { FoveaMaps } from "./tools.ts";

/**
 * `/fovea status` for a person: the root used when none is named, the ring, what the maps in memory cover, and
 * where the agent's attention is; the observer's counters and the memory bound are details, shown on request.
 * Waits for post-turn probes already started, so what it shows is settled.
 */
export async function foveaStatus(
	cwd: string,
	roaming: Roaming,
	maps: FoveaMaps,
	sync: Observation,
): Promise<CommandReport> {
	const scope = await roaming.manualRoot(cwd);
	const cacheRoots = cacheRootsLimit();
	await sync.settled();
	const observer = maps.loadedObserver();
	const observed = (observer === undefined ? [] : observer.relevant()).flatMap((root) => {
		const top = observer?.attention(root)?.top(3) ?? [];
		return top.length === 0 ? [] : [{ root, top }];
	});
	const stats = observer?.stats;
	const ring = await roaming.describe();
	const coverage = coverageLines(roaming.ring()?.list() ?? [], maps);
	const lines: ReportLine[] = [
		{
			text:
				scope?.excluded === undefined
					? `default root (no root given): ${scope?.root ?? cwd} [${scope?.marker ?? "directory"}, session cwd's own project]`
					: `default root (no root given): none, the session cwd ${scope.root} (${scope.excluded}) is mapped only when named`,
		},
		...ring.map((text, i) => ({ text, tone: i === 0 ? ("muted" as const) : ("text" as const) })),
		...(coverage.length === 0 ? [] : [{ text: "what the maps in memory cover:", tone: "muted" as const }]),
		...coverage.map((text) => ({ text })),
		{
			text:
				observed.length === 0
					? "attention: nothing yet (reads, edits and answers of the agent build it)"
					: `attention: ${observed.length} root${observed.length === 1 ? "" : "s"}, strongest first:`,
			tone: "muted",
		},
		...observed.map(({ root, top }) => ({
			text: `  ${root}: ${top.map(([key, weight]) => `${describeAttention(key)} ${weight.toFixed(2)}`).join(", ")}`,
		})),
	];
	const more: ReportLine[] = [
		{ text: `maps kept in memory: at most ${cacheRoots} roots (FOVEA_CACHE_ROOTS)`, tone: "muted" },
		{
			text:
				stats === undefined
					? "observation: nothing observed yet"
					: `observation: probes ${stats.probes} (${stats.unchangedProbes} unchanged, ${stats.watchedProbes} answered by the change watch), refreshes ${stats.refreshes}, sweeps ${stats.sweeps}, baselines ${stats.baselines}${stats.gone > 0 ? `, roots gone ${stats.gone}` : ""}${stats.failures > 0 ? `, failed probes ${stats.failures}` : ""}`,
			tone: "muted",
		},
	];
	const shown = (line: ReportLine) => ({ ...line, text: printable(line.text) });
	const n = roaming.ring()?.size ?? 0;
	return {
		title: `Fovea status: ${n} root${n === 1 ? "" : "s"}`,
		verdict: "info",
		lines: lines.map(shown),
		more: more.map(shown),
	};
}

/**
 * One line per root with a map in memory: files mapped (best effort among them) and not mapped, as last built, and
 * what its change coupling was mined from, or why there is none.
 */
function coverageLines(roots: readonly string[], maps: FoveaMaps): string[] {
	const lines: string[] = [];
	for (const root of roots) {
		const snapshot = maps.residentSnapshot(root);
		if (snapshot === undefined) continue;
		const coupling = maps.residentCoupling(root);
		lines.push(`  ${root}: ${mappedCounts(snapshot)}${coupling === undefined ? "" : `; ${couplingLine(coupling)}`}`);
	}
	return lines;
}

/** `/fovea roots`: the ring, most recent root first, with how each was found, when and whether its map is loaded. */
export async function foveaRoots(roaming: Roaming): Promise<CommandReport> {
	const [head = "", ...rows] = await roaming.describe();
	return { title: `Fovea roots: ${head.replace(/:$/, "")}`, verdict: "info", lines: rows.map((text) => ({ text })) };
}
