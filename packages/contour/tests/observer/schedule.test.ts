/**
 * The observer's pure schedule, from the roaming-workspaces seed:
 * - "Contour alternates recently accessed projects with a round-robin backstop, one root per scan." — `nextRoot`.
 * - "A 5-second scheduling tick is not a 5-second per-repository guarantee at 32 roots." — the backstop bound is
 *   in passes (2N for N roots), not in time.
 * - "`CONTOUR_MAX_ROOTS`: the same default/cap of 32." / "Retirement clears root-local session/sync state and
 *   invalidates its lease." / "Re-entry creates a new observation boundary." — eviction, retirement, leases.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
	createSchedule,
	isDue,
	nextRoot,
	type Pick,
	recencyOrder,
	recordActivity,
	recordWarm,
	retireRoots,
	type Schedule,
	trackRoot,
} from "../../src/observer/schedule.ts";

const DEBOUNCE = 1500;

function active(schedule: Schedule, now: number, ...roots: string[]): Schedule {
	let next = schedule;
	for (const root of roots) next = recordActivity(next, root, 1, now).schedule;
	return next;
}

/** Runs `passes` picking passes at `now`, recording each warm as published; returns the picks. */
function run(schedule: Schedule, now: number, passes: number): { schedule: Schedule; picks: Pick[] } {
	let next = schedule;
	const picks: Pick[] = [];
	for (let i = 0; i < passes; i++) {
		const chosen = nextRoot(next, now, DEBOUNCE);
		if (chosen.pick === undefined) break;
		picks.push(chosen.pick);
		next = recordWarm(chosen.schedule, chosen.pick, now);
	}
	return { schedule: next, picks };
}

describe("schedule: one root per pass", () => {
	it("an empty schedule picks nothing and moves nothing", () => {
		const empty = createSchedule(32);
		const chosen = nextRoot(empty, 10_000, DEBOUNCE);
		assert.equal(chosen.pick, undefined);
		assert.equal(chosen.schedule, empty);
	});

	it("rejects a bound that is not a positive integer", () => {
		assert.throws(() => createSchedule(0), /maxRoots must be a positive integer, got 0/);
		assert.throws(() => createSchedule(1.5), /maxRoots/);
	});

	it("recency turns take the most recently accessed dirty root; backstop turns walk the ring", () => {
		let s = active(createSchedule(32), 0, "/a", "/b", "/c");
		s = recordWarm(s, { root: "/b", lease: 1, touches: 1, reason: "recent" }, 0);
		s = recordWarm(s, { root: "/c", lease: 1, touches: 1, reason: "recent" }, 0);
		s = active(s, 100, "/c");
		const { picks } = run(s, 10_000, 4);
		assert.deepEqual(
			picks.map((p) => `${p.reason}:${p.root}`),
			// /c is the only dirty root; the backstop starts at /a; /a is now clean, so recency falls back to the ring.
			["recent:/c", "backstop:/a", "backstop:/b", "backstop:/c"],
		);
	});

	it("the backstop passes over the root the previous pass just warmed while another is due", () => {
		const s = active(active(createSchedule(32), 0, "/a", "/b"), 1, "/a");
		const { picks } = run(s, 10_000, 2);
		assert.deepEqual(
			picks.map((p) => p.root),
			["/a", "/b"],
		);
	});
});

describe("schedule: debounce", () => {
	it("a root with activity younger than the debounce waits; at the interval it is due", () => {
		const s = active(createSchedule(32), 1000, "/a");
		assert.equal(nextRoot(s, 1000 + DEBOUNCE - 1, DEBOUNCE).pick, undefined);
		assert.equal(nextRoot(s, 1000 + DEBOUNCE, DEBOUNCE).pick?.root, "/a");
	});

	it("a busy root waits while a quieter dirty root is warmed", () => {
		let s = active(createSchedule(32), 0, "/quiet");
		s = active(s, 9000, "/busy");
		assert.equal(nextRoot(s, 10_000, DEBOUNCE).pick?.root, "/quiet");
	});

	it("tracked roots that were never active are always due", () => {
		const s = trackRoot(createSchedule(32), "/restored", 7).schedule;
		assert.equal(isDue(s.roots[0] ?? assert.fail(), 0, DEBOUNCE), true);
		assert.deepEqual(nextRoot(s, 0, DEBOUNCE).pick, { root: "/restored", lease: 7, touches: 0, reason: "backstop" });
	});
});

describe("schedule: warms, leases and retirement", () => {
	it("a published warm cleans the root unless activity arrived while it ran", () => {
		let s = active(createSchedule(32), 0, "/a");
		const first = nextRoot(s, 5000, DEBOUNCE);
		const pick = first.pick ?? assert.fail("picked");
		s = active(first.schedule, 5001, "/a");
		s = recordWarm(s, pick, 5002);
		assert.equal(s.roots[0]?.dirty, true, "activity during the warm keeps the root dirty");
		assert.equal(s.roots[0]?.lastWarmed, 5002);
		const again = nextRoot(s, 9000, DEBOUNCE).pick ?? assert.fail("picked again");
		s = recordWarm(s, again, 9001);
		assert.equal(s.roots[0]?.dirty, false);
	});

	it("a new lease is a new observation boundary: the last warm no longer counts and a stale warm records nothing", () => {
		let s = active(createSchedule(32), 0, "/a");
		const pick = nextRoot(s, 5000, DEBOUNCE).pick ?? assert.fail("picked");
		s = recordActivity(s, "/a", 2, 5001).schedule;
		const after = recordWarm(s, pick, 5002);
		assert.equal(after, s, "a warm under the old lease changes nothing");
		assert.equal(after.roots[0]?.lease, 2);
		assert.equal(after.roots[0]?.lastWarmed, undefined);
	});

	it("retired roots are never picked again and the cursor keeps its place", () => {
		let s = active(createSchedule(32), 0, "/a", "/b", "/c", "/d");
		s = retireRoots(s, ["/d"]);
		const { picks } = run(s, 10_000, 12);
		assert.ok(picks.every((p) => p.root !== "/d"));
		const cursorAtC = { ...s, cursor: 2, turn: "backstop" as const, lastPick: undefined };
		const retired = retireRoots(cursorAtC, ["/a"]);
		assert.equal(retired.roots[retired.cursor]?.root, "/c");
		assert.equal(retireRoots(retired, ["/nope"]), retired);
	});

	it("admitting past maxRoots evicts the least recently accessed root, tracked-only roots first", () => {
		let s = trackRoot(createSchedule(3), "/restored", 1).schedule;
		s = active(s, 0, "/a", "/b");
		const first = recordActivity(s, "/c", 1, 1);
		assert.deepEqual(first.evicted, ["/restored"]);
		const second = recordActivity(first.schedule, "/d", 1, 2);
		assert.deepEqual(second.evicted, ["/a"]);
		assert.deepEqual(recencyOrder(second.schedule), ["/d", "/c", "/b"]);
		assert.equal(second.schedule.roots.length, 3);
	});
});

describe("schedule: properties", () => {
	const scenario = fc.integer({ min: 1, max: 32 }).chain((n) =>
		fc.record({
			n: fc.constant(n),
			tracked: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
			steps: fc.array(fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 4 }), {
				minLength: 2 * n,
				maxLength: 6 * n,
			}),
		}),
	);

	/** Plays the scenario: each step some roots see activity, the clock passes the debounce, and one pass runs. */
	function play(n: number, tracked: boolean[], steps: number[][]) {
		let s = createSchedule(32);
		let now = 0;
		for (let i = 0; i < n; i++) {
			s = tracked[i] ? trackRoot(s, `/r${i}`, 1).schedule : recordActivity(s, `/r${i}`, 1, now).schedule;
		}
		const passes: { pick: Pick | undefined; before: Schedule; now: number }[] = [];
		for (const touched of steps) {
			for (const i of touched) s = recordActivity(s, `/r${i}`, 1, now).schedule;
			now += DEBOUNCE;
			const chosen = nextRoot(s, now, DEBOUNCE);
			passes.push({ pick: chosen.pick, before: s, now });
			s = chosen.pick === undefined ? chosen.schedule : recordWarm(chosen.schedule, chosen.pick, now);
		}
		return passes;
	}

	it("no root starves: when all are due, every root is chosen in every window of 2N passes", () => {
		fc.assert(
			fc.property(scenario, ({ n, tracked, steps }) => {
				const picks = play(n, tracked, steps).map((p) => p.pick?.root);
				assert.ok(
					picks.every((p) => p !== undefined),
					"a due root is always picked",
				);
				for (let start = 0; start + 2 * n <= picks.length; start++) {
					const seen: Set<string | undefined> = new Set(picks.slice(start, start + 2 * n));
					assert.equal(seen.size, n, `window at ${start} of ${picks.length} misses a root`);
				}
			}),
			{ numRuns: 300 },
		);
	});

	it("recency wins on alternate passes: every recency turn with a dirty due root takes the most recent one", () => {
		fc.assert(
			fc.property(scenario, ({ n, tracked, steps }) => {
				const passes = play(n, tracked, steps);
				passes.forEach(({ pick, before, now }, i) => {
					const candidates = before.roots.filter((r) => r.dirty && isDue(r, now, DEBOUNCE));
					if (before.turn === "recent" && candidates.length > 0) {
						const newest = candidates.reduce((a, b) => (b.accessSeq > a.accessSeq ? b : a));
						assert.equal(pick?.root, newest.root);
						assert.equal(pick?.reason, "recent");
					}
					const next = passes[i + 1];
					if (next !== undefined) assert.notEqual(next.before.turn, before.turn, "turns alternate");
				});
			}),
			{ numRuns: 300 },
		);
	});
});
