// The post-turn probe's round: a session's end stops the index in flight, and that is no failure; a file that stops
// being mapped is told as such, not as deleted.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { gitRepo } from "../../../test/e2e/support/workspaces.ts";
import { CodeMap } from "../src/engine/map/code-map.ts";
import { Baseline } from "../src/engine/observe/baseline.ts";
import { Provenance } from "../src/engine/observe/provenance.ts";
import { newProbeState, type ProbedRoot, type ProbeStats, probeRoots } from "../src/engine/observe/root-probe.ts";
import { ResidentMaps } from "../src/engine/residency.ts";
import { tempDirs, writeTree } from "./support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

function stats(): ProbeStats {
	return { probes: 0, unchangedProbes: 0, watchedProbes: 0, refreshes: 0, sweeps: 0, gone: 0, failures: 0 };
}

describe("probeRoots", () => {
	it("a session's end stops the round: the index in flight gets the signal, nothing counts as failed", async () => {
		const session = new AbortController();
		const refreshed: string[] = [];
		const signals: (AbortSignal | undefined)[] = [];
		// A code map whose first index is under way when the session ends; it stops as an aborted refresh does.
		const map = (root: string) =>
			({
				watch: undefined,
				refresh: (options: { signal?: AbortSignal } = {}) => {
					refreshed.push(root);
					signals.push(options.signal);
					session.abort();
					return Promise.reject(options.signal?.reason ?? new Error("not aborted"));
				},
			}) as unknown as CodeMap;
		const observations = new Map<string, ProbedRoot>();
		const counted = stats();
		await probeRoots(["/a", "/b"], () => true, {
			stats: counted,
			watchTrustMs: 0,
			observe: (root) => {
				const known = observations.get(root);
				if (known !== undefined) return known;
				const made = { baseline: new Baseline(), provenance: new Provenance(), pending: [], probe: newProbeState() };
				observations.set(root, made);
				return made;
			},
			map,
			peek: map,
			ensureBaseline: () => {},
			gone: () => assert.fail("no root is gone"),
			signal: session.signal,
		});
		assert.deepEqual(signals, [session.signal], "the index ran with the session's signal");
		assert.deepEqual(refreshed, ["/a"], "the round ended there: /b is not probed for an ended session");
		assert.equal(counted.failures, 0, "an obsolete round is not a failed probe");
	});

	it("an unchanged root's probe leaves the paging order alone: the graph in use stays resident", async () => {
		const base = await temps.make();
		const [used, quiet] = [join(base, "used"), join(base, "quiet")].map((dir) =>
			gitRepo(dir, { "src/a.ts": "export const a = 1;\n" }, { commit: true }),
		) as [string, string];
		const maps = new ResidentMaps(1, { cache: false });
		const observations = new Map<string, ProbedRoot>();
		const context = {
			stats: stats(),
			watchTrustMs: 0,
			observe: (root: string) => {
				const made = observations.get(root) ?? {
					baseline: new Baseline(),
					provenance: new Provenance(),
					pending: [],
					probe: newProbeState(),
				};
				observations.set(root, made);
				return made;
			},
			map: (root: string) => maps.use(root),
			peek: (root: string) => maps.get(root),
			ensureBaseline: (root: string, files: Parameters<Baseline["establish"]>[0]) => {
				const baseline = observations.get(root)?.baseline;
				if (baseline?.established === false) baseline.establish(files);
			},
			gone: () => assert.fail("both roots are there"),
		};
		await probeRoots([quiet], () => true, context); // its first index sets its baseline
		await probeRoots([quiet], () => true, context); // and the first status probe its signature
		await maps.use(used).refresh();
		assert.equal(maps.isResident(used), true);
		const unchangedBefore = context.stats.unchangedProbes;
		await probeRoots([quiet], () => true, context);
		assert.equal(context.stats.unchangedProbes, unchangedBefore + 1, "the quiet root was probed, unchanged");
		assert.equal(maps.isResident(used), true, "and the graph in use was not paged out for it");
		assert.equal(maps.isResident(quiet), false);
		await maps.use(used).close();
		await maps.get(quiet)?.close();
	});

	it("a file grown past the size limit is drift told as no longer mapped, not as deleted", async () => {
		const root = await temps.make();
		await writeTree(root, {
			"src/a.ts": "export function a() {\n\treturn 1;\n}\n",
			"src/b.ts": "export const b = 1;\n",
		});
		const map = new CodeMap(root, { cache: false, maxFileBytes: 400 });
		const observation = { baseline: new Baseline(), provenance: new Provenance(), pending: [], probe: newProbeState() };
		const context = {
			stats: stats(),
			watchTrustMs: 0,
			observe: () => observation,
			map: () => map,
			peek: () => map,
			ensureBaseline: (_root: string, files: Parameters<Baseline["establish"]>[0]) => {
				if (!observation.baseline.established) observation.baseline.establish(files);
			},
			gone: () => assert.fail("the root is there"),
		};
		await probeRoots([root], () => true, context); // the first index sets the baseline
		assert.equal(observation.baseline.size, 2);
		await writeFile(join(root, "src/a.ts"), `export const big = "${"x".repeat(500)}";\n`);
		await writeFile(join(root, "src/b.ts"), "export const b = 2;\nexport const c = 3;\n");
		observation.probe.lastSweep = 0; // a root without Git is swept at most every 30 s
		await probeRoots([root], () => true, context);
		assert.deepEqual(
			observation.pending.map((d: { path: string; kind: string; details: string[] }) => [d.path, d.kind, d.details]),
			[
				["src/a.ts", "changed", ["no longer mapped (too-large)"]],
				["src/b.ts", "changed", ["~ constant b: export const b = 2", "+ constant c (line 2)"]],
			],
		);
	});
});
