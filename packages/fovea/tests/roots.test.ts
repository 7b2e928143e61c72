/**
 * Pure ring and session-persistence rules of the roaming-workspaces seed (`pi-fovea/workspace`):
 * - "`FOVEA_MAX_ROOTS`: 32 by default, clamped to 1–32" — `envInt`, the ring's default limit.
 * - "The recency ring refreshes on use; admitting root 33 retires the least recently used root rather than
 *   throwing." / "Retirement … invalidates its lease." / "Re-entry creates a new observation boundary." — leases.
 * - "Branch-local custom entries retain only bounded root metadata" / "reload/resume/fork/tree navigation restore the
 *   selected branch's roots" / "Reset explicitly clears the ring." — snapshot, restore, `latestWorkspaceEntry`.
 * - "Only matching nonempty session IDs and the other extension's source are accepted." — `peerWorkspaceRoot`;
 *   Crew's reports of its agents' roots travel on a channel of their own, checked by `crewAgentAccess`.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { CREW_AGENT_ACCESS_EVENT, crewAgentAccess, crewAgentAccessHint } from "../src/workspace/agent-access-check.ts";
import {
	ExecutionRoots,
	envInt,
	latestWorkspaceEntry,
	OBSERVED_ROOT_LIMIT,
	peerWorkspaceRoot,
	WORKSPACE_ACCESS_EVENT,
} from "../src/workspace/index.ts";
import { workspaceAccessHint } from "../src/workspace/peer-hints.ts";
import { CONTOUR_WORKSPACE_ENTRY, FOVEA_WORKSPACE_ENTRY } from "../src/workspace/session-entries.ts";

/** Runs `fn` with `process.env[name]` set to `value` (or deleted), then restores the previous value. */
function withEnv<T>(name: string, value: string | undefined, fn: () => T): T {
	const saved = Object.hasOwn(process.env, name) ? process.env[name] : undefined;
	const had = Object.hasOwn(process.env, name);
	if (value === undefined) delete process.env[name];
	else process.env[name] = value;
	try {
		return fn();
	} finally {
		if (had) process.env[name] = saved;
		else delete process.env[name];
	}
}

function ringOf(limit: number, ...roots: string[]): ExecutionRoots {
	const ring = new ExecutionRoots(limit);
	for (const root of roots) ring.admit(root);
	return ring;
}

describe("public constants", () => {
	it("names the bus channel pi-workspace:access:v1 and caps rings at 32 roots", () => {
		assert.equal(WORKSPACE_ACCESS_EVENT, "pi-workspace:access:v1");
		assert.equal(OBSERVED_ROOT_LIMIT, 32);
	});

	it("names the session custom entries pi-fovea-workspace and pi-contour-workspace", () => {
		assert.equal(FOVEA_WORKSPACE_ENTRY, "pi-fovea-workspace");
		assert.equal(CONTOUR_WORKSPACE_ENTRY, "pi-contour-workspace");
	});
});

describe("envInt", () => {
	it("gives the fallback when the variable is unset or blank", () => {
		assert.equal(envInt("X", 7, 1, 32, {}), 7);
		assert.equal(envInt("X", 7, 1, 32, { X: undefined }), 7);
		assert.equal(envInt("X", 7, 1, 32, { X: "" }), 7);
		assert.equal(envInt("X", 7, 1, 32, { X: " " }), 7);
		assert.equal(envInt("X", 7, 1, 32, { X: "\t\n" }), 7);
	});

	it("gives the fallback for anything that is not an integer", () => {
		for (const raw of ["1.5", "12abc", "abc", "1e3", "0x10", "5 5", "--3", "+", "-", "NaN", "Infinity", "1_000"]) {
			assert.equal(envInt("X", 7, 1, 32, { X: raw }), 7, `raw ${JSON.stringify(raw)}`);
		}
	});

	it("clamps integers of any size, beyond the safe range too; only text that is no integer falls back", () => {
		assert.equal(envInt("X", 7, 1, 32, { X: "100000000000000000000" }), 32);
		assert.equal(envInt("X", 7, 1, 32, { X: "-100000000000000000000" }), 1);
		assert.equal(envInt("X", 7, 1, 32, { X: `9${"0".repeat(400)}` }), 32, "beyond any float: still the max");
		assert.equal(envInt("X", 7, 1, 32, { X: `-9${"0".repeat(400)}` }), 1);
		assert.equal(envInt("X", 7, 1, 32, { X: "+0000000000000000000000000000031" }), 31);
	});

	it("accepts whitespace-trimmed and signed integers", () => {
		assert.equal(envInt("X", 7, 1, 32, { X: " 12 " }), 12);
		assert.equal(envInt("X", 7, 1, 32, { X: "\t5\n" }), 5);
		assert.equal(envInt("X", 7, 1, 32, { X: "+9" }), 9);
		assert.equal(envInt("X", 7, -10, 32, { X: "-4" }), -4);
	});

	it("clamps the result to [min, max] on both sides", () => {
		assert.equal(envInt("X", 7, 1, 32, { X: "0" }), 1);
		assert.equal(envInt("X", 7, 1, 32, { X: "-5" }), 1);
		assert.equal(envInt("X", 7, 1, 32, { X: "33" }), 32);
		assert.equal(envInt("X", 7, 1, 32, { X: "100000" }), 32);
		assert.equal(envInt("X", 7, 1, 32, { X: "1" }), 1);
		assert.equal(envInt("X", 7, 1, 32, { X: "32" }), 32);
	});

	it("clamps the fallback too", () => {
		assert.equal(envInt("X", 99, 1, 32, {}), 32);
		assert.equal(envInt("X", -1, 1, 32, { X: "oops" }), 1);
	});

	it("reads only the explicit env object when one is given", () => {
		withEnv("FOVEA_TEST_ENVINT", "3", () => {
			assert.equal(envInt("FOVEA_TEST_ENVINT", 7, 1, 32, {}), 7);
			assert.equal(envInt("FOVEA_TEST_ENVINT", 7, 1, 32, { FOVEA_TEST_ENVINT: "11" }), 11);
			assert.equal(envInt("FOVEA_TEST_ENVINT", 7, 1, 32), 3);
		});
	});

	it("property: always an integer within [min, max], never throws", () => {
		fc.assert(
			fc.property(
				fc.option(fc.string(), { nil: undefined }),
				fc.integer({ min: -100, max: 100 }),
				fc.integer({ min: -50, max: 0 }),
				fc.integer({ min: 1, max: 50 }),
				(raw, fallback, min, max) => {
					const value = envInt("X", fallback, min, max, { X: raw });
					assert.ok(Number.isInteger(value));
					assert.ok(value >= min && value <= max);
					const trimmed = raw?.trim() ?? "";
					if (!/^[+-]?\d+$/.test(trimmed)) assert.equal(value, Math.min(max, Math.max(min, fallback)));
				},
			),
		);
	});
});

describe("ExecutionRoots: limit", () => {
	it("defaults to 32 when FOVEA_MAX_ROOTS is unset", () => {
		withEnv("FOVEA_MAX_ROOTS", undefined, () => assert.equal(new ExecutionRoots().limit, 32));
	});

	it("takes its default from FOVEA_MAX_ROOTS, clamped to 1–32", () => {
		withEnv("FOVEA_MAX_ROOTS", "5", () => assert.equal(new ExecutionRoots().limit, 5));
		withEnv("FOVEA_MAX_ROOTS", " 7 ", () => assert.equal(new ExecutionRoots().limit, 7));
		withEnv("FOVEA_MAX_ROOTS", "0", () => assert.equal(new ExecutionRoots().limit, 1));
		withEnv("FOVEA_MAX_ROOTS", "-3", () => assert.equal(new ExecutionRoots().limit, 1));
		withEnv("FOVEA_MAX_ROOTS", "99", () => assert.equal(new ExecutionRoots().limit, 32));
		withEnv("FOVEA_MAX_ROOTS", "abc", () => assert.equal(new ExecutionRoots().limit, 32));
		withEnv("FOVEA_MAX_ROOTS", "4.5", () => assert.equal(new ExecutionRoots().limit, 32));
	});

	it("reads FOVEA_MAX_ROOTS at construction, not at module load", () => {
		const a = withEnv("FOVEA_MAX_ROOTS", "2", () => new ExecutionRoots());
		const b = withEnv("FOVEA_MAX_ROOTS", "3", () => new ExecutionRoots());
		assert.equal(a.limit, 2);
		assert.equal(b.limit, 3);
	});

	it("clamps an explicit limit to 1–32", () => {
		assert.equal(new ExecutionRoots(0).limit, 1);
		assert.equal(new ExecutionRoots(-4).limit, 1);
		assert.equal(new ExecutionRoots(100).limit, 32);
		assert.equal(new ExecutionRoots(2.7).limit, 2);
		assert.equal(new ExecutionRoots(Number.NaN).limit, 32);
		assert.equal(new ExecutionRoots(Number.POSITIVE_INFINITY).limit, 32);
	});

	it("a ring with limit 1 holds only the most recent root", () => {
		const ring = ringOf(1, "/a");
		const admission = ring.admit("/b");
		assert.deepEqual(ring.list(), ["/b"]);
		assert.deepEqual(admission.retired, ["/a"]);
	});
});

describe("ExecutionRoots: recency and leases", () => {
	it("lists roots most recent first", () => {
		assert.deepEqual(ringOf(32, "/a", "/b", "/c").list(), ["/c", "/b", "/a"]);
	});

	it("a first admission is fresh, takes a lease and retires nothing", () => {
		const ring = new ExecutionRoots(32);
		const admission = ring.admit("/a");
		assert.equal(admission.fresh, true);
		assert.deepEqual(admission.retired, []);
		assert.equal(typeof admission.lease, "number");
		assert.equal(ring.lease("/a"), admission.lease);
		assert.equal(ring.has("/a"), true);
	});

	it("re-admitting refreshes order without a new lease and reports fresh:false", () => {
		const ring = new ExecutionRoots(32);
		const first = ring.admit("/a");
		ring.admit("/b");
		const again = ring.admit("/a");
		assert.deepEqual(again, { lease: first.lease, fresh: false, retired: [] });
		assert.deepEqual(ring.list(), ["/a", "/b"]);
		assert.equal(ring.lease("/a"), first.lease);
	});

	it("revision changes on membership and order changes only", () => {
		const ring = new ExecutionRoots(32);
		const r0 = ring.revision;
		ring.admit("/a");
		const r1 = ring.revision;
		assert.notEqual(r1, r0, "a new root changes membership");
		ring.admit("/a");
		assert.equal(ring.revision, r1, "re-admitting the head changes nothing");
		ring.admit("/b");
		const r2 = ring.revision;
		assert.notEqual(r2, r1);
		ring.admit("/a");
		const r3 = ring.revision;
		assert.notEqual(r3, r2, "moving /a to the front changes order");
		ring.admit("/a");
		assert.equal(ring.revision, r3);
		assert.equal(ring.retire("/nope"), false);
		assert.equal(ring.revision, r3, "retiring an unknown root changes nothing");
		ring.list();
		ring.snapshot();
		ring.owner("/a/x");
		ring.has("/b");
		assert.equal(ring.revision, r3, "reads change nothing");
		ring.retire("/b");
		const r4 = ring.revision;
		assert.notEqual(r4, r3);
		ring.reset();
		const r5 = ring.revision;
		assert.notEqual(r5, r4);
		ring.reset();
		assert.equal(ring.revision, r5, "resetting an empty ring changes nothing");
	});

	it("admitting root 33 into a full ring of 32 retires the least recently used root instead of throwing", () => {
		const ring = new ExecutionRoots(32);
		for (let i = 1; i <= 32; i++) ring.admit(`/r${i}`);
		ring.admit("/r1"); // refresh: /r2 is now least recently used
		const evictedLease = ring.lease("/r2");
		assert.equal(typeof evictedLease, "number");
		const admission = ring.admit("/r33");
		assert.equal(admission.fresh, true);
		assert.deepEqual(admission.retired, ["/r2"]);
		assert.equal(ring.list().length, 32);
		assert.equal(ring.list()[0], "/r33");
		assert.equal(ring.has("/r2"), false);
		assert.equal(ring.lease("/r2"), undefined);
		assert.equal(ring.has("/r1"), true);
	});

	it("a retired root's lease is gone, and re-admission takes a new, different lease", () => {
		const ring = new ExecutionRoots(32);
		const old = ring.admit("/a").lease;
		assert.equal(ring.retire("/a"), true);
		assert.equal(ring.lease("/a"), undefined);
		assert.equal(ring.has("/a"), false);
		const again = ring.admit("/a");
		assert.equal(again.fresh, true);
		assert.notEqual(again.lease, old);
		assert.equal(ring.lease("/a"), again.lease);
	});

	it("a root evicted by the limit re-enters with a new lease", () => {
		const ring = ringOf(2, "/a");
		const old = ring.lease("/a");
		ring.admit("/b");
		ring.admit("/c");
		assert.equal(ring.lease("/a"), undefined);
		const again = ring.admit("/a");
		assert.equal(again.fresh, true);
		assert.notEqual(again.lease, old);
		assert.deepEqual(again.retired, ["/b"]);
	});

	it("leases are unique across different ring instances", () => {
		const rings = [
			new ExecutionRoots(32),
			new ExecutionRoots(32),
			ExecutionRoots.restore({ version: 1, roots: ["/a"] }),
		];
		const leases = rings.map((ring) => ring.lease("/a") ?? ring.admit("/a").lease);
		assert.equal(new Set(leases).size, leases.length, `leases ${leases.join(",")}`);
	});

	it("admit of a relative or non-canonical path throws a TypeError naming the path", () => {
		const ring = new ExecutionRoots(32);
		for (const bad of ["relative/dir", "./x", "", "/a/../b", "/a/", "a\0b"]) {
			assert.throws(
				() => ring.admit(bad),
				(error: unknown) => error instanceof TypeError && error.message.includes(JSON.stringify(bad)),
				`admit(${JSON.stringify(bad)})`,
			);
		}
		assert.deepEqual(ring.list(), []);
		assert.equal(ring.revision, new ExecutionRoots(32).revision);
	});
});

describe("ExecutionRoots: owner, retire, reset", () => {
	it("owner is the longest enrolled root containing the path", () => {
		const ring = ringOf(32, "/a/b", "/a", "/c");
		assert.equal(ring.owner("/a/b/x/y.ts"), "/a/b");
		assert.equal(ring.owner("/a/b"), "/a/b");
		assert.equal(ring.owner("/a/x.ts"), "/a");
		assert.equal(ring.owner("/c/d"), "/c");
		assert.equal(ring.owner("/d"), undefined);
		// order of admission does not matter
		assert.equal(ringOf(32, "/a", "/a/b").owner("/a/b/z"), "/a/b");
	});

	it("owner does not match look-alike prefixes", () => {
		const ring = ringOf(32, "/a/b");
		assert.equal(ring.owner("/a/bc/x"), undefined);
		assert.equal(ring.owner("/a/bc"), undefined);
		assert.equal(ring.owner("/a/b-old/x"), undefined);
		assert.equal(ring.owner("/a"), undefined);
		assert.equal(ringOf(32, "/a", "/a/b").owner("/a/bc/x"), "/a");
	});

	it("the filesystem root owns everything when enrolled", () => {
		const ring = ringOf(32, "/");
		assert.equal(ring.owner("/x/y"), "/");
		assert.equal(ring.owner("/"), "/");
	});

	it("retire removes one root and reports whether it was enrolled", () => {
		const ring = ringOf(32, "/a", "/b", "/c");
		assert.equal(ring.retire("/b"), true);
		assert.deepEqual(ring.list(), ["/c", "/a"]);
		assert.equal(ring.retire("/b"), false);
		assert.equal(ring.owner("/b/x"), undefined);
	});

	it("reset retires everything, returns it most recent first and clears every lease", () => {
		const ring = ringOf(32, "/a", "/b", "/c");
		const leases = ring.list().map((root) => ring.lease(root));
		assert.deepEqual(ring.reset(), ["/c", "/b", "/a"]);
		assert.deepEqual(ring.list(), []);
		for (const root of ["/a", "/b", "/c"]) {
			assert.equal(ring.lease(root), undefined);
			assert.equal(ring.has(root), false);
		}
		assert.deepEqual(ring.snapshot(), { version: 1, roots: [] });
		const again = ring.admit("/a");
		assert.equal(again.fresh, true);
		assert.ok(!leases.includes(again.lease));
		assert.deepEqual(new ExecutionRoots(32).reset(), []);
	});

	it("list() and the value returned by reset() are copies", () => {
		const ring = ringOf(32, "/a", "/b");
		ring.list().push("/evil");
		assert.deepEqual(ring.list(), ["/b", "/a"]);
		ring.snapshot().roots.push("/evil");
		assert.deepEqual(ring.list(), ["/b", "/a"]);
		const retired = ring.reset();
		ring.admit("/c");
		assert.deepEqual(retired, ["/b", "/a"]);
	});
});

describe("ExecutionRoots: snapshot and restore", () => {
	it("snapshot() is { version: 1, roots } most recent first", () => {
		assert.deepEqual(ringOf(32, "/a", "/b").snapshot(), { version: 1, roots: ["/b", "/a"] });
		assert.deepEqual(new ExecutionRoots(32).snapshot(), { version: 1, roots: [] });
	});

	it("restore round-trips order", () => {
		const ring = ringOf(32, "/a", "/b", "/c", "/a");
		const restored = ExecutionRoots.restore(ring.snapshot(), 32);
		assert.deepEqual(restored.list(), ["/a", "/c", "/b"]);
		assert.deepEqual(ExecutionRoots.restore(JSON.parse(JSON.stringify(ring.snapshot())), 32).list(), ring.list());
	});

	it("restore gives every restored root a live lease", () => {
		const restored = ExecutionRoots.restore({ version: 1, roots: ["/a", "/b"] }, 32);
		const leases = restored.list().map((root) => restored.lease(root));
		assert.ok(leases.every((lease) => typeof lease === "number"));
		assert.equal(new Set(leases).size, 2);
	});

	it("restore drops malformed snapshots", () => {
		for (const bad of [
			undefined,
			null,
			"{}",
			42,
			[],
			["/a"],
			{},
			{ version: 2, roots: ["/a"] },
			{ version: "1", roots: ["/a"] },
			{ roots: ["/a"] },
			{ version: 1 },
			{ version: 1, roots: "/a" },
			{ version: 1, roots: { 0: "/a" } },
		]) {
			assert.deepEqual(ExecutionRoots.restore(bad, 32).list(), [], `snapshot ${JSON.stringify(bad)}`);
		}
	});

	it("restore drops malformed roots: relative, non-string, non-normalized, trailing slash", () => {
		const restored = ExecutionRoots.restore(
			{
				version: 1,
				roots: [
					"/ok1",
					"relative",
					"./x",
					"",
					42,
					null,
					{ root: "/x" },
					["/y"],
					"/a/../b",
					"/a/./b",
					"/a//b",
					"/a/",
					"/nul\0x",
					"/ok2",
				],
			},
			32,
		);
		assert.deepEqual(restored.list(), ["/ok1", "/ok2"]);
	});

	it("restore deduplicates, keeping each root's most recent place", () => {
		assert.deepEqual(ExecutionRoots.restore({ version: 1, roots: ["/a", "/b", "/a", "/c", "/b"] }, 32).list(), [
			"/a",
			"/b",
			"/c",
		]);
	});

	it("restore cuts to the limit, keeping the most recent roots", () => {
		const roots = Array.from({ length: 40 }, (_, i) => `/r${i}`);
		assert.deepEqual(ExecutionRoots.restore({ version: 1, roots }, 3).list(), ["/r0", "/r1", "/r2"]);
		assert.deepEqual(ExecutionRoots.restore({ version: 1, roots }).list(), roots.slice(0, 32));
		const withJunk = ExecutionRoots.restore({ version: 1, roots: ["rel", "/r0", "rel2", "/r0", "/r1", "/r2"] }, 2);
		assert.deepEqual(withJunk.list(), ["/r0", "/r1"], "junk and duplicates do not use up the limit");
	});

	it("restore uses FOVEA_MAX_ROOTS when no limit is given", () => {
		const roots = Array.from({ length: 10 }, (_, i) => `/r${i}`);
		const ring = withEnv("FOVEA_MAX_ROOTS", "4", () => ExecutionRoots.restore({ version: 1, roots }));
		assert.equal(ring.limit, 4);
		assert.deepEqual(ring.list(), roots.slice(0, 4));
	});

	it("restore never touches the filesystem: missing roots survive and symlinks are not resolved", async () => {
		const base = await mkdtemp(join(tmpdir(), "fovea-"));
		try {
			await symlink(tmpdir(), join(base, "alias"));
			const roots = [join(base, "alias"), "/definitely/not/here/fovea-xyz", join(base, "missing")];
			assert.deepEqual(ExecutionRoots.restore({ version: 1, roots }, 32).list(), roots);
		} finally {
			await rm(base, { recursive: true, force: true });
		}
	});

	it("restore ignores extra fields", () => {
		assert.deepEqual(ExecutionRoots.restore({ version: 1, roots: ["/a"], heat: 3, trust: true }, 32).list(), ["/a"]);
	});
});

// A deliberately naive model of the ring: an array, most recent first.
class RingModel {
	roots: string[] = [];
	readonly limit: number;
	constructor(limit: number) {
		this.limit = limit;
	}
	admit(root: string): { fresh: boolean; retired: string[] } {
		if (this.roots.includes(root)) {
			this.roots = [root, ...this.roots.filter((r) => r !== root)];
			return { fresh: false, retired: [] };
		}
		this.roots = [root, ...this.roots];
		const retired = this.roots.slice(this.limit);
		this.roots = this.roots.slice(0, this.limit);
		return { fresh: true, retired };
	}
	retire(root: string): boolean {
		const had = this.roots.includes(root);
		this.roots = this.roots.filter((r) => r !== root);
		return had;
	}
	reset(): string[] {
		const retired = this.roots;
		this.roots = [];
		return retired;
	}
}

type RingOp = { op: "admit"; root: string } | { op: "retire"; root: string } | { op: "reset" };

const ALPHABET = Array.from({ length: 40 }, (_, i) => `/w/p${i}`);
const rootArb = fc.constantFrom(...ALPHABET);
const opArb: fc.Arbitrary<RingOp> = fc.oneof(
	{ arbitrary: rootArb.map((root) => ({ op: "admit" as const, root })), weight: 8 },
	{ arbitrary: rootArb.map((root) => ({ op: "retire" as const, root })), weight: 2 },
	{ arbitrary: fc.constant({ op: "reset" as const }), weight: 1 },
);

describe("ExecutionRoots: properties against a model", () => {
	it("any admit/retire/reset sequence keeps the ring bounded, duplicate-free, leased and restorable", () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 32 }), fc.array(opArb, { maxLength: 200 }), (limit, ops) => {
				const ring = new ExecutionRoots(limit);
				const model = new RingModel(limit);
				const issued = new Set<number>();
				const pastLeases = new Map<string, Set<number>>();
				for (const step of ops) {
					const before = ring.list();
					const revisionBefore = ring.revision;
					if (step.op === "admit") {
						const leaseBefore = ring.lease(step.root);
						const got = ring.admit(step.root);
						const want = model.admit(step.root);
						assert.equal(got.fresh, want.fresh);
						assert.deepEqual(got.retired, want.retired);
						assert.equal(ring.list()[0], step.root, "the last admitted root is first");
						if (got.fresh) {
							assert.ok(!issued.has(got.lease), `lease ${got.lease} reused`);
							issued.add(got.lease);
							const past = pastLeases.get(step.root) ?? new Set<number>();
							assert.ok(!past.has(got.lease), "a re-admitted root never gets an old lease back");
							past.add(got.lease);
							pastLeases.set(step.root, past);
						} else {
							assert.equal(got.lease, leaseBefore, "re-admission keeps the lease");
						}
						for (const gone of got.retired) assert.equal(ring.lease(gone), undefined);
					} else if (step.op === "retire") {
						assert.equal(ring.retire(step.root), model.retire(step.root));
						assert.equal(ring.lease(step.root), undefined);
					} else {
						assert.deepEqual(ring.reset(), model.reset());
					}
					const after = ring.list();
					assert.deepEqual(after, model.roots);
					assert.ok(after.length <= limit, "never exceeds its limit");
					assert.equal(new Set(after).size, after.length, "no duplicates");
					const live = after.map((root) => ring.lease(root));
					assert.ok(
						live.every((lease) => typeof lease === "number"),
						"each live root has a lease",
					);
					assert.equal(new Set(live).size, live.length, "live leases are distinct");
					for (const root of ALPHABET) assert.equal(ring.has(root), after.includes(root));
					const changed = JSON.stringify(before) !== JSON.stringify(after);
					assert.equal(ring.revision !== revisionBefore, changed, "revision changes iff membership/order does");
					assert.deepEqual(ExecutionRoots.restore(ring.snapshot(), limit).list(), after);
				}
			}),
			{ numRuns: 300 },
		);
	});
});

describe("crewAgentAccess: Crew's own channel", () => {
	const report = {
		version: 1,
		root: "/work/repo/.worktrees/r1/t1",
		sessionId: "session-1",
		origin: { kind: "crew-agent", agentId: "r1:t1", runId: "r1", taskId: "t1" },
	};
	const self = { sessionId: "session-1" };

	it("has a channel of its own, apart from the seed's workspace hints", () => {
		assert.equal(CREW_AGENT_ACCESS_EVENT, "pi-crew:agent-access:v1");
		assert.notEqual(CREW_AGENT_ACCESS_EVENT, WORKSPACE_ACCESS_EVENT);
	});

	it("accepts a report of this session's agent, with the agent as origin", () => {
		assert.deepEqual(crewAgentAccess(report, self), { root: report.root, origin: report.origin });
		const built = crewAgentAccessHint(report.root, "session-1", { ...report.origin, kind: "crew-agent" });
		assert.deepEqual(built, report);
		assert.deepEqual(crewAgentAccess({ ...report, source: "crew", extra: 1 }, self), {
			root: report.root,
			origin: report.origin,
		});
	});

	it("rejects another or an empty session, a bad version or root, and a missing or malformed origin", () => {
		assert.equal(crewAgentAccess({ ...report, sessionId: "session-2" }, self), undefined);
		assert.equal(crewAgentAccess({ ...report, sessionId: "" }, { sessionId: "" }), undefined);
		assert.equal(crewAgentAccess({ ...report, version: 2 }, self), undefined);
		assert.equal(crewAgentAccess({ ...report, root: "relative" }, self), undefined);
		const { origin: _, ...noOrigin } = report;
		assert.equal(crewAgentAccess(noOrigin, self), undefined);
		for (const origin of ["agent", null, { ...report.origin, agentId: "" }, { ...report.origin, kind: "human" }]) {
			assert.equal(crewAgentAccess({ ...report, origin }, self), undefined, `origin ${JSON.stringify(origin)}`);
		}
		for (const payload of [null, undefined, "x", [report], 1]) assert.equal(crewAgentAccess(payload, self), undefined);
	});

	it("is no workspace hint: Crew's report and a crew source are refused by peerWorkspaceRoot", () => {
		for (const source of ["fovea", "contour"] as const) {
			const me = { source, sessionId: "session-1" };
			assert.equal(peerWorkspaceRoot(report, me), undefined);
			assert.equal(peerWorkspaceRoot({ ...report, source: "crew" }, me), undefined);
		}
	});
});

describe("peerWorkspaceRoot", () => {
	const self = { source: "fovea" as const, sessionId: "session-1" };
	const good = { version: 1, source: "contour", root: "/work/repo", sessionId: "session-1" };

	it("accepts a version-1 hint from the other extension with our session id", () => {
		assert.equal(peerWorkspaceRoot(good, self), "/work/repo");
		assert.equal(
			peerWorkspaceRoot({ ...good, source: "fovea" }, { source: "contour", sessionId: "session-1" }),
			"/work/repo",
		);
		assert.equal(
			peerWorkspaceRoot(workspaceAccessHint("contour", "/r", "s"), { source: "fovea", sessionId: "s" }),
			"/r",
		);
	});

	it("rejects our own source (no echo)", () => {
		assert.equal(peerWorkspaceRoot({ ...good, source: "fovea" }, self), undefined);
		assert.equal(peerWorkspaceRoot(workspaceAccessHint("fovea", "/r", "session-1"), self), undefined);
	});

	it("rejects unknown sources", () => {
		for (const source of ["crew", "Crew", "Contour", "", undefined, 1]) {
			assert.equal(peerWorkspaceRoot({ ...good, source }, self), undefined, `source ${String(source)}`);
		}
	});

	it("rejects another session", () => {
		assert.equal(peerWorkspaceRoot({ ...good, sessionId: "session-2" }, self), undefined);
		assert.equal(peerWorkspaceRoot({ ...good, sessionId: 1 }, self), undefined);
	});

	it("rejects empty session ids on either side", () => {
		assert.equal(peerWorkspaceRoot({ ...good, sessionId: "" }, { source: "fovea", sessionId: "" }), undefined);
		assert.equal(peerWorkspaceRoot({ ...good, sessionId: "" }, self), undefined);
		assert.equal(peerWorkspaceRoot(good, { source: "fovea", sessionId: "" }), undefined);
		const { sessionId: _, ...noSession } = good;
		assert.equal(peerWorkspaceRoot(noSession, { source: "fovea", sessionId: "" }), undefined);
	});

	it("rejects a wrong version", () => {
		for (const version of [0, 2, "1", undefined, null, 1.5]) {
			assert.equal(peerWorkspaceRoot({ ...good, version }, self), undefined, `version ${String(version)}`);
		}
	});

	it("rejects non-object payloads", () => {
		for (const payload of [null, undefined, "/work/repo", JSON.stringify(good), [good], [], 1, true]) {
			assert.equal(peerWorkspaceRoot(payload, self), undefined, `payload ${JSON.stringify(payload)}`);
		}
	});

	it("rejects missing, relative and non-normalized roots", () => {
		for (const root of [undefined, null, "", "repo", "./repo", "/a/../b", "/a/./b", "/a//b", "/a/", 42, ["/a"]]) {
			assert.equal(peerWorkspaceRoot({ ...good, root }, self), undefined, `root ${JSON.stringify(root)}`);
		}
	});

	it("tolerates extra fields", () => {
		assert.equal(peerWorkspaceRoot({ ...good, heat: 9, content: "x", extra: { a: 1 } }, self), "/work/repo");
	});

	it("property: random payloads never throw and an accepted result is exactly payload.root", () => {
		const hintLike = fc.record(
			{
				version: fc.oneof(fc.constant(1), fc.anything()),
				source: fc.oneof(fc.constantFrom("fovea", "contour", "crew", ""), fc.anything()),
				root: fc.oneof(fc.constantFrom("/a", "/a/b", "/", "a", "/a/", "/a/../b", ""), fc.string(), fc.anything()),
				sessionId: fc.oneof(fc.constantFrom("", "s1", "s2"), fc.anything()),
			},
			{ requiredKeys: [] },
		);
		const selfArb = fc.record({
			source: fc.constantFrom("fovea" as const, "contour" as const),
			sessionId: fc.constantFrom("", "s1", "s2"),
		});
		fc.assert(
			fc.property(fc.oneof(hintLike, fc.anything(), fc.jsonValue()), selfArb, (payload, me) => {
				const root = peerWorkspaceRoot(payload, me);
				if (root === undefined) return;
				const p = payload as Record<string, unknown>;
				assert.equal(root, p.root);
				assert.equal(p.version, 1);
				// Exactly the seed's two sources, and never our own echo.
				assert.ok(p.source === "fovea" || p.source === "contour");
				assert.notEqual(p.source, me.source);
				assert.ok(me.sessionId.length > 0);
				assert.equal(p.sessionId, me.sessionId);
				assert.ok(root.startsWith("/"));
			}),
			{
				numRuns: 500,
				// Always checked, not only when the generator happens to produce it: a hint from a third source.
				examples: [
					[
						{ version: 1, source: "crew", root: "/a", sessionId: "s1" },
						{ source: "fovea", sessionId: "s1" },
					],
				],
			},
		);
	});
});

describe("latestWorkspaceEntry", () => {
	const type = FOVEA_WORKSPACE_ENTRY;
	const entry = (data: unknown, customType: string = type) => ({ type: "custom", customType, data });

	it("the newest valid entry of the given custom type wins", () => {
		const branch = [entry({ version: 1, roots: ["/old"] }), entry({ version: 1, roots: ["/new", "/old"] })];
		assert.deepEqual(latestWorkspaceEntry(branch, type), { version: 1, roots: ["/new", "/old"] });
	});

	it("gives exactly the seed's snapshot {version, roots}: whatever else an entry carries is not restored", () => {
		const branch = [entry({ version: 1, roots: ["/a", "/b"], explicit: ["/a"], heat: { "/a": 3 }, trust: true })];
		assert.deepEqual(latestWorkspaceEntry(branch, type), { version: 1, roots: ["/a", "/b"] });
	});

	it("ignores other custom types and non-custom entries", () => {
		const branch = [
			entry({ version: 1, roots: ["/mine"] }),
			entry({ version: 1, roots: ["/contour"] }, CONTOUR_WORKSPACE_ENTRY),
			{ type: "message", customType: type, data: { version: 1, roots: ["/message"] } },
			{ type: "compaction", summary: "x" },
			{ customType: type, data: { version: 1, roots: ["/untyped"] } },
		];
		assert.deepEqual(latestWorkspaceEntry(branch, type), { version: 1, roots: ["/mine"] });
		assert.deepEqual(latestWorkspaceEntry(branch, CONTOUR_WORKSPACE_ENTRY), { version: 1, roots: ["/contour"] });
		assert.equal(latestWorkspaceEntry(branch, "pi-other"), undefined);
	});

	it("a malformed newest entry falls back to an older valid one", () => {
		const older = entry({ version: 1, roots: ["/a", "/b"] });
		for (const bad of [null, undefined, "x", 1, [], { version: 2, roots: ["/z"] }, { roots: ["/z"] }, { version: 1 }]) {
			const withData = [older, entry(bad)];
			assert.deepEqual(latestWorkspaceEntry(withData, type), { version: 1, roots: ["/a", "/b"] }, JSON.stringify(bad));
		}
		assert.deepEqual(latestWorkspaceEntry([older, { type: "custom", customType: type }], type), {
			version: 1,
			roots: ["/a", "/b"],
		});
	});

	it("an empty-roots snapshot (a reset) is a valid newest entry", () => {
		const branch = [entry({ version: 1, roots: ["/a"] }), entry({ version: 1, roots: [] })];
		assert.deepEqual(latestWorkspaceEntry(branch, type), { version: 1, roots: [] });
	});

	it("returns only canonical absolute roots, deduplicated", () => {
		const branch = [entry({ version: 1, roots: ["/a", "rel", 3, "/a/../b", "/b", "/a"] })];
		const got = latestWorkspaceEntry(branch, type);
		assert.ok(got !== undefined);
		for (const root of got.roots) assert.ok(root.startsWith("/") && !root.includes("/.."), root);
		assert.deepEqual(
			got.roots.filter((r) => r === "/a" || r === "/b"),
			["/a", "/b"],
		);
	});

	it("the limit applies", () => {
		const roots = Array.from({ length: 40 }, (_, i) => `/r${i}`);
		assert.deepEqual(latestWorkspaceEntry([entry({ version: 1, roots })], type, 3), {
			version: 1,
			roots: ["/r0", "/r1", "/r2"],
		});
		assert.equal(latestWorkspaceEntry([entry({ version: 1, roots })], type)?.roots.length, 32);
	});

	it("junk branch items do not throw", () => {
		const branch = [entry({ version: 1, roots: ["/a"] }), null, undefined, 0, 7, "custom", [], [entry({})], true];
		assert.deepEqual(latestWorkspaceEntry(branch, type), { version: 1, roots: ["/a"] });
		assert.equal(latestWorkspaceEntry([null, 1, "x"], type), undefined);
		assert.equal(latestWorkspaceEntry([], type), undefined);
		assert.equal(latestWorkspaceEntry(undefined as unknown as unknown[], type), undefined);
		assert.equal(latestWorkspaceEntry({ length: 2 } as unknown as unknown[], type), undefined);
	});

	it("the result restores into the same ring", () => {
		const ring = ringOf(32, "/a", "/b", "/c");
		const branch = [entry(ring.snapshot())];
		assert.deepEqual(ExecutionRoots.restore(latestWorkspaceEntry(branch, type), 32).list(), ring.list());
	});

	it("property: random branches never throw and always give a bounded, valid snapshot or undefined", () => {
		const data = fc.oneof(
			fc.anything(),
			fc.record({ version: fc.constantFrom(1, 2), roots: fc.array(fc.oneof(rootArb, fc.string(), fc.anything())) }),
		);
		const item = fc.oneof(
			fc.anything(),
			fc.record({ type: fc.constantFrom("custom", "message"), customType: fc.constantFrom(type, "other"), data }),
		);
		fc.assert(
			fc.property(fc.array(item, { maxLength: 20 }), fc.integer({ min: 1, max: 32 }), (branch, limit) => {
				const got = latestWorkspaceEntry(branch, type, limit);
				if (got === undefined) return;
				assert.equal(got.version, 1);
				assert.ok(got.roots.length <= limit);
				assert.equal(new Set(got.roots).size, got.roots.length);
				assert.deepEqual(ExecutionRoots.restore(got, limit).list(), got.roots);
			}),
			{ numRuns: 300 },
		);
	});
});
