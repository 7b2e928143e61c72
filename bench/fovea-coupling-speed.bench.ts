// What mining change coupling costs beside indexing, on real histories (issue 31: at most 20% of a cold index, nothing
// on a warm query). Per repository, side by side in one run: the cold index of HEAD's tree (an empty fact cache, the
// graph built), the first mine of its newest commits (`ChangeCoupling.update()` from the bare mirror, the bounds the
// product uses: FOVEA_COUPLING_COMMITS / FOVEA_COUPLING_MAX_FILES, default 1,000 commits, 30 files), then warm impact
// queries with the history mined against the same queries on a map that has none, and the Git probes the warm
// queries ran (0 is the target: a warm query with nothing changed asks Git nothing), and the graph's coupled edges:
// how many, the time to build them from the mined commits, and builds during warm queries (0). Prints JSON.
//
//   node bench/fovea-coupling-speed.bench.ts [--corpus DIR] [--repos vuejs/core,gin-gonic/gin] [--queries 20]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { FactCache } from "../packages/fovea/src/engine/cache/fact-cache.ts";
import { CodeMap, isTestPath } from "../packages/fovea/src/engine/index.ts";
import { writeTree } from "./support/engine-tree.ts";
import { git } from "./support/git.ts";
import { corpusPath } from "./support/localization/corpora.ts";

const { values } = parseArgs({
	options: {
		corpus: { type: "string", default: process.env.FOVEA_BENCH_CORPUS ?? "/work/.mirror" },
		repos: { type: "string", default: "vuejs/core,pytest-dev/pytest,gin-gonic/gin,BurntSushi/ripgrep,google/gson" },
		queries: { type: "string", default: "20" },
	},
});
const queries = Math.max(1, Number.parseInt(values.queries ?? "20", 10) || 20);

/** The median of `xs` (0 for none). */
function median(xs: readonly number[]): number {
	const sorted = [...xs].sort((a, b) => a - b);
	return sorted.length === 0 ? 0 : (sorted[Math.floor(sorted.length / 2)] as number);
}

/** Milliseconds `run` takes, with its result. */
async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
	const t = performance.now();
	const value = await run();
	return { ms: performance.now() - t, value };
}

const rows: unknown[] = [];
for (const repo of (values.repos ?? "").split(",").filter((r) => r !== "")) {
	const mirror = corpusPath(values.corpus ?? "", repo);
	if (mirror === undefined) {
		rows.push({ repo, measured: false, reason: `not fetched under ${values.corpus}` });
		continue;
	}
	const work = mkdtempSync(join(tmpdir(), "fovea-coupling-speed-"));
	try {
		const head = (await git(mirror, ["rev-parse", "HEAD"])).trim();
		const tree = join(work, "tree");
		await writeTree(mirror, head, tree);
		const mapOf = (cache: string, history: boolean) =>
			new CodeMap(tree, {
				cache: new FactCache(tree, { cacheDir: join(work, cache) }),
				// Without history: a Git directory that does not exist, so the map says it has none.
				history: history ? { gitDir: mirror, head } : { gitDir: join(work, "none") },
			});
		const withHistory = mapOf("cache-a", true);
		const cold = await timed(() => withHistory.refresh());
		const files = [...cold.value.snapshot.files.keys()].filter((p) => !isTestPath(p)).sort();
		const mine = await timed(() => withHistory.coupling.update());
		// The graph's coupled edges, built from the mined commits in memory once per mined head (no Git).
		const graph = (await withHistory.refresh({ paths: [] })).graph.graph;
		const edges = await timed(async () => graph.coupled());
		const asked = Array.from({ length: queries }, (_, i) => files[Math.floor((i * files.length) / queries)] as string);
		const without = mapOf("cache-b", false);
		await without.refresh();
		// The first impact of each map: the content index is built and (for one) coupling brought to HEAD, once.
		await withHistory.impact({ files: [asked[0] as string], symbols: [] }, 1500, { paths: [] });
		await without.impact({ files: [asked[0] as string], symbols: [] }, 1500, { paths: [] });
		const probes = withHistory.coupling.stats.probes;
		const builds = withHistory.stats.coupledBuilds;
		const warmWith: number[] = [];
		const warmWithout: number[] = [];
		for (const file of asked) {
			warmWith.push((await timed(() => withHistory.impact({ files: [file], symbols: [] }, 1500, { paths: [] }))).ms);
			warmWithout.push((await timed(() => without.impact({ files: [file], symbols: [] }, 1500, { paths: [] }))).ms);
		}
		const status = withHistory.coupling.status;
		rows.push({
			repo,
			files: cold.value.snapshot.files.size,
			coldIndexMs: Math.round(cold.ms),
			mineMs: Math.round(mine.ms),
			mineShareOfCold: Math.round((mine.ms / cold.ms) * 1000) / 1000,
			mineTarget: "<= 0.2 of the cold index",
			mineMet: mine.ms <= 0.2 * cold.ms,
			commitsRead: withHistory.coupling.stats.commitsRead,
			hugeSkipped: withHistory.coupling.stats.hugeSkipped,
			pairs: withHistory.coupling.stats.pairs,
			coupledEdges: edges.value?.edges ?? 0,
			coupledEdgesMs: Math.round(edges.ms * 10) / 10,
			available: status.available,
			warmImpactP50Ms: {
				withHistory: Math.round(median(warmWith) * 10) / 10,
				without: Math.round(median(warmWithout) * 10) / 10,
			},
			gitProbesDuringWarmQueries: withHistory.coupling.stats.probes - probes,
			coupledBuildsDuringWarmQueries: withHistory.stats.coupledBuilds - builds,
		});
		process.stderr.write(`${repo}: ${JSON.stringify(rows.at(-1))}\n`);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}
process.stdout.write(`${JSON.stringify({ benchmark: "fovea change-coupling cost", queries, rows }, null, 2)}\n`);
