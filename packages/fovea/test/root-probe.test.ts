// The post-turn probe's round: a session's end stops the index in flight, and that is no failure.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Baseline } from "../src/engine/baseline.ts";
import type { CodeMap } from "../src/engine/code-map.ts";
import { Provenance } from "../src/engine/provenance.ts";
import { newProbeState, type ProbedRoot, type ProbeStats, probeRoots } from "../src/extension/root-probe.ts";

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
			ensureBaseline: () => {},
			gone: () => assert.fail("no root is gone"),
			signal: session.signal,
		});
		assert.deepEqual(signals, [session.signal], "the index ran with the session's signal");
		assert.deepEqual(refreshed, ["/a"], "the round ended there: /b is not probed for an ended session");
		assert.equal(counted.failures, 0, "an obsolete round is not a failed probe");
	});
});
