// Our `contour review` against the published reference (`pi-contour` 0.4.4) on one outside repository, read from
// its bare mirror: the same parts as bench/contour-vs-reference.bench.ts (`prepareSelf` replays a commit as a staged
// change in a clone, `runTool` runs each CLI with its own caches), cold and no-change only, alternating the order of
// the tools. Reports the p50 wall ms of each and the ratio ours/reference. It measures; it does not tune.
//
//   node bench/contour-signal-speed.bench.ts --mirror /work/.mirror/gin-gonic+gin/repo --commit SHA [--reps 3]
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { prepareSelf } from "./support/contour-corpus.ts";
import { buildClis, locateTools, ourEntry, runTool, type ToolName } from "./support/contour-runs.ts";

const { values } = parseArgs({
	options: {
		mirror: { type: "string" },
		commit: { type: "string" },
		reps: { type: "string", default: "3" },
	},
});
if (values.mirror === undefined || values.commit === undefined)
	throw new Error("--mirror DIR and --commit SHA are needed");
const repo = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
if (ourEntry(repo) === "sources") buildClis(repo);
const tools = locateTools(repo);
const base = mkdtempSync(join(tmpdir(), "contour-signal-speed-"));
const reps = Number(values.reps);
const times: Record<"cold" | "noChange", Record<ToolName, number[]>> = {
	cold: { ours: [], reference: [] },
	noChange: { ours: [], reference: [] },
};
try {
	const corpus = await prepareSelf(values.mirror, join(base, "root"), values.commit);
	for (let rep = 0; rep < reps; rep++) {
		const order: ToolName[] = rep % 2 === 0 ? ["ours", "reference"] : ["reference", "ours"];
		for (const name of order) {
			const caches = join(base, `caches-${name}-${rep}`);
			mkdirSync(caches, { recursive: true });
			times.cold[name].push((await runTool(tools[name], corpus.root, caches)).ms);
			times.noChange[name].push((await runTool(tools[name], corpus.root, caches)).ms);
			rmSync(caches, { recursive: true, force: true });
		}
	}
	const p50 = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] as number;
	const phase = (name: "cold" | "noChange") => {
		const ours = p50(times[name].ours);
		const reference = p50(times[name].reference);
		return {
			oursMs: Math.round(ours),
			referenceMs: Math.round(reference),
			ratio: Math.round((ours / reference) * 100) / 100,
		};
	};
	console.log(
		JSON.stringify(
			{
				corpus: corpus.description,
				staged: corpus.staged.length,
				reps,
				cold: phase("cold"),
				noChange: phase("noChange"),
				times,
			},
			null,
			2,
		),
	);
} finally {
	rmSync(base, { recursive: true, force: true });
}
