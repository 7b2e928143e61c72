/**
 * Contour's background observer on a manual clock, from the roaming-workspaces seed and its issue:
 * - "debounced after successful activity, a 5-second scheduling tick, one root per pass, alternating recently
 *   accessed roots with a round-robin backstop so no root starves."
 * - "It warms caches; it never shows, injects or steers anything." — the observer's only output is `warm`/`publish`.
 * - "CONTOUR_BACKGROUND=0 disables polling and keeps selection and explicit reviews."
 * - "An explicit checkpoint aborts speculative work" / "Retirement and session replacement cancel obsolete work;
 *   nothing stale publishes." / "`CONTOUR_MAX_ROOTS`: the same default/cap of 32."
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setImmediate } from "node:timers";
import {
	BackgroundObserver,
	type BackgroundObserverOptions,
	backgroundEnabled,
	contourMaxRoots,
	type WarmContext,
} from "../../src/observer/index.ts";
import { deferred, FakeClock } from "./fake-clock.ts";

const TICK = 5000;

interface Call {
	root: string;
	signal: AbortSignal;
	context: WarmContext;
}

/** An observer on a fake clock whose warms finish at once unless `hold` makes them wait for the test. */
function harness(options: Partial<BackgroundObserverOptions<string>> = {}, hold = false) {
	const clock = new FakeClock();
	const calls: Call[] = [];
	const published: string[] = [];
	const pending: ReturnType<typeof deferred<string>>[] = [];
	let inFlight = 0;
	let maxInFlight = 0;
	const observer = new BackgroundObserver<string>({
		enabled: true,
		maxRoots: 32,
		async warm(root, signal, context) {
			calls.push({ root, signal, context });
			inFlight++;
			maxInFlight = Math.max(maxInFlight, inFlight);
			try {
				if (!hold) return `warm ${root}`;
				const gate = deferred<string>();
				pending.push(gate);
				return await gate.promise;
			} finally {
				inFlight--;
			}
		},
		publish: (root, value) => published.push(`${root}=${value}`),
		now: clock.now,
		setTimer: clock.setTimer,
		...options,
	});
	/** One tick, then the pass it started, unless the test holds warms open and finishes them by hand. */
	const tick = async () => {
		clock.advance(observer.tickMs);
		if (hold) await new Promise(setImmediate);
		else await observer.idle();
	};
	return { clock, calls, published, pending, observer, tick, maxInFlight: () => maxInFlight };
}

describe("background observer: scheduling", () => {
	it("arms no timer before any activity, so an idle session never scans", () => {
		const { clock, observer } = harness();
		assert.equal(clock.pending, 0);
		observer.noteActivity("/a", 1);
		assert.equal(clock.pending, 1);
		observer.retire(["/a"]);
		assert.equal(clock.pending, 0, "no roots left, no timer");
	});

	it("warms one root per 5-second tick and never two at once", async () => {
		const h = harness();
		assert.equal(h.observer.tickMs, TICK);
		for (const root of ["/a", "/b", "/c"]) h.observer.noteActivity(root, 1);
		h.clock.advance(TICK - 1);
		assert.equal(h.calls.length, 0);
		for (let i = 1; i <= 6; i++) {
			await h.tick();
			assert.equal(h.calls.length, i);
		}
		assert.equal(h.maxInFlight(), 1);
		assert.deepEqual(h.observer.stats().passes, 6);
		assert.equal(h.published.length, 6);
	});

	it("a tick while a warm is still running is skipped, not queued", async () => {
		const h = harness({}, true);
		h.observer.noteActivity("/a", 1);
		h.observer.noteActivity("/b", 1);
		h.clock.advance(TICK * 3);
		assert.equal(h.calls.length, 1);
		assert.equal(h.observer.stats().skipped, 2);
		h.pending[0]?.resolve("done");
		await h.observer.idle();
		assert.deepEqual(h.published, ["/b=done"]);
	});

	it("alternates the most recently accessed root with the round-robin backstop", async () => {
		const h = harness();
		for (const root of ["/a", "/b", "/c", "/hot"]) h.observer.noteActivity(root, 1);
		const seen: string[] = [];
		for (let i = 0; i < 6; i++) {
			await h.tick();
			h.observer.noteActivity("/hot", 1);
			const last = h.calls.at(-1);
			seen.push(`${last?.context.reason}:${last?.root}`);
		}
		assert.deepEqual(seen, ["recent:/hot", "backstop:/a", "recent:/hot", "backstop:/b", "recent:/hot", "backstop:/c"]);
	});

	it("round-robin backstop: with 32 roots and one always busy, none starves within 64 passes", async () => {
		const h = harness();
		const roots = Array.from({ length: 32 }, (_, i) => `/r${i}`);
		for (const root of roots) h.observer.track(root, 1);
		for (let i = 0; i < 64; i++) {
			h.observer.noteActivity("/r5", 1);
			await h.tick();
		}
		const warmed = new Set(h.calls.map((c) => c.root));
		assert.deepEqual(
			roots.filter((r) => !warmed.has(r)),
			[],
		);
		assert.equal(h.observer.stats().passes, 64, "a 5-second tick is one pass, not one pass per root");
	});

	it("debounces: a root is not warmed until it has been quiet for debounceMs", async () => {
		const h = harness({ tickMs: 1000, debounceMs: 1500 });
		h.observer.noteActivity("/a", 1);
		await h.tick();
		assert.equal(h.calls.length, 0);
		assert.equal(h.observer.stats().skipped, 1);
		await h.tick();
		assert.deepEqual(
			h.calls.map((c) => c.root),
			["/a"],
		);
	});
});

describe("background observer: CONTOUR_BACKGROUND=0", () => {
	it("no pass ever runs, but activity is still recorded for selection", async () => {
		const h = harness({ enabled: undefined, env: { CONTOUR_BACKGROUND: "0" } });
		assert.equal(h.observer.enabled, false);
		h.observer.noteActivity("/a", 1);
		h.observer.noteActivity("/b", 1);
		assert.equal(h.clock.pending, 0, "no timer at all");
		h.clock.advance(TICK * 100);
		assert.deepEqual(await h.observer.runPass(), { kind: "skipped", why: "disabled" });
		assert.equal(h.calls.length, 0);
		assert.equal(h.observer.stats().passes, 0);
		assert.deepEqual(h.observer.selectionOrder(), ["/b", "/a"]);
	});

	it("only the value 0 disables polling", () => {
		assert.equal(backgroundEnabled({ CONTOUR_BACKGROUND: "0" }), false);
		assert.equal(backgroundEnabled({ CONTOUR_BACKGROUND: " 0 " }), false);
		assert.equal(backgroundEnabled({}), true);
		assert.equal(backgroundEnabled({ CONTOUR_BACKGROUND: "1" }), true);
		assert.equal(backgroundEnabled({ CONTOUR_BACKGROUND: "false" }), true);
	});
});

describe("background observer: checkpoints, retirement, sessions", () => {
	it("a checkpoint aborts the warm in flight and holds passes until every release", async () => {
		const h = harness({}, true);
		h.observer.noteActivity("/a", 1);
		await h.tick();
		const first = h.calls[0] ?? assert.fail("a warm started");
		const release = h.observer.checkpoint("/a");
		const second = h.observer.checkpoint("/b");
		assert.equal(first.signal.aborted, true);
		h.pending[0]?.resolve("late");
		await h.observer.idle();
		assert.deepEqual(h.published, [], "the aborted warm publishes nothing");
		for (let i = 0; i < 3; i++) await h.tick();
		assert.equal(h.calls.length, 1, "no pass while a checkpoint holds");
		release();
		release();
		await h.tick();
		assert.equal(h.calls.length, 1, "one release is not every release");
		second();
		await h.tick();
		assert.equal(h.calls.length, 2);
		const stats = h.observer.stats();
		assert.equal(stats.aborted, 1);
		assert.equal(stats.perRoot["/a"]?.aborted, 1);
	});

	it("retirement aborts that root's warm in flight and the root is never picked again", async () => {
		const h = harness({}, true);
		h.observer.noteActivity("/a", 1);
		h.observer.noteActivity("/b", 1);
		await h.tick();
		const first = h.calls[0] ?? assert.fail("a warm started");
		assert.equal(first.root, "/b");
		h.observer.retire(["/b"]);
		assert.equal(first.signal.aborted, true);
		h.pending[0]?.reject(first.signal.reason);
		await h.observer.idle();
		for (let i = 0; i < 5; i++) {
			await h.tick();
			h.pending.at(-1)?.resolve("ok");
			await h.observer.idle();
		}
		assert.deepEqual(new Set(h.calls.slice(1).map((c) => c.root)), new Set(["/a"]));
		assert.deepEqual(h.observer.selectionOrder(), ["/a"]);
		assert.equal(h.observer.stats().aborted, 1);
		assert.equal(h.observer.stats().errors, 0, "an abort is not an error");
	});

	it("session replacement aborts work in flight and forgets the previous session's roots", async () => {
		const h = harness({}, true);
		h.observer.setSession("s1");
		h.observer.noteActivity("/a", 1);
		await h.tick();
		const first = h.calls[0] ?? assert.fail("a warm started");
		h.observer.setSession("s1");
		assert.equal(first.signal.aborted, false, "the same session is not a replacement");
		h.observer.setSession("s2");
		assert.equal(first.signal.aborted, true);
		h.pending[0]?.resolve("stale");
		await h.observer.idle();
		assert.deepEqual(h.published, []);
		assert.deepEqual(h.observer.selectionOrder(), []);
		assert.deepEqual(h.observer.stats().perRoot, {});
		assert.equal(h.clock.pending, 0);
		h.clock.advance(TICK * 10);
		assert.equal(h.calls.length, 1);
	});

	it("a pass whose lease changed during the await publishes nothing, even if the warm ignored its signal", async () => {
		const h = harness({}, true);
		h.observer.noteActivity("/a", 1);
		await h.tick();
		h.observer.noteActivity("/a", 2);
		h.pending[0]?.resolve("old lease");
		await h.observer.idle();
		assert.deepEqual(h.published, []);
		assert.equal(h.calls[0]?.signal.aborted, true);
		assert.deepEqual(h.observer.stats().warmed, 0);
		assert.deepEqual(h.observer.stats().aborted, 1);
	});

	it("an outside lease check that fails before or after the warm keeps the pass from publishing", async () => {
		let current = true;
		const h = harness({ isCurrent: () => current }, true);
		h.observer.noteActivity("/a", 1);
		await h.tick();
		current = false;
		h.pending[0]?.resolve("retired meanwhile");
		await h.observer.idle();
		assert.deepEqual(h.published, []);
		assert.deepEqual(await h.observer.runPass(), { kind: "skipped", why: "stale" });
		assert.deepEqual(h.observer.selectionOrder(), [], "a root the ring no longer holds is dropped");
	});

	it("errors in warm or publish are counted, never thrown, and the observer carries on", async () => {
		let fail = true;
		const h = harness({
			debounceMs: 0,
			warm: (root) => {
				if (root === "/sync") throw new Error("sync failure");
				return Promise.reject(new Error("async failure"));
			},
		});
		h.observer.noteActivity("/sync", 1);
		h.observer.noteActivity("/async", 1);
		const outcome = await h.observer.runPass();
		assert.equal(outcome.kind, "error");
		assert.equal((await h.observer.runPass()).kind, "error");
		const publishing = harness({
			publish: () => {
				if (fail) throw new Error("publish failure");
			},
		});
		publishing.observer.noteActivity("/a", 1);
		await publishing.tick();
		fail = false;
		publishing.observer.noteActivity("/a", 1);
		await publishing.tick();
		assert.deepEqual(h.observer.stats().errors, 2);
		assert.deepEqual(publishing.observer.stats().errors, 1);
		assert.deepEqual(publishing.observer.stats().warmed, 1);
	});

	it("stop aborts the warm in flight and disarms the timer", async () => {
		const h = harness({}, true);
		h.observer.noteActivity("/a", 1);
		await h.tick();
		h.observer.stop();
		assert.equal(h.calls[0]?.signal.aborted, true);
		assert.equal(h.clock.pending, 0);
		h.observer.noteActivity("/b", 1);
		assert.equal(h.clock.pending, 0);
		assert.deepEqual(h.observer.selectionOrder(), ["/b", "/a"]);
	});
});

describe("background observer: bounds and input", () => {
	it("keeps at most maxRoots roots, evicting the least recently accessed and aborting its work", async () => {
		const h = harness({ maxRoots: 2 }, true);
		h.observer.noteActivity("/a", 1);
		h.observer.noteActivity("/b", 1);
		h.observer.noteActivity("/a", 1);
		await h.tick();
		assert.equal(h.calls[0]?.root, "/a");
		assert.deepEqual(h.observer.noteActivity("/c", 1), ["/b"]);
		assert.deepEqual(h.observer.noteActivity("/d", 1), ["/a"]);
		assert.equal(h.calls[0]?.signal.aborted, true);
		assert.deepEqual(h.observer.selectionOrder(), ["/d", "/c"]);
	});

	it("CONTOUR_MAX_ROOTS defaults to 32 and is clamped to 1–32", () => {
		assert.equal(contourMaxRoots({}), 32);
		assert.equal(contourMaxRoots({ CONTOUR_MAX_ROOTS: "99" }), 32);
		assert.equal(contourMaxRoots({ CONTOUR_MAX_ROOTS: "0" }), 1);
		assert.equal(contourMaxRoots({ CONTOUR_MAX_ROOTS: "4" }), 4);
		assert.equal(contourMaxRoots({ CONTOUR_MAX_ROOTS: "4.5" }), 32);
		assert.equal(contourMaxRoots({ CONTOUR_MAX_ROOTS: "-100000000000000000000" }), 1, "any integer clamps");
		const { observer } = harness({ maxRoots: undefined, env: { CONTOUR_MAX_ROOTS: "3" } });
		assert.equal(observer.maxRoots, 3);
	});

	it("rejects bad options and bad activity with errors that name the problem", () => {
		const warm = async () => {};
		assert.throws(() => new BackgroundObserver({ warm, maxRoots: 33 }), /maxRoots must be an integer in 1–32, got 33/);
		assert.throws(() => new BackgroundObserver({ warm, tickMs: 0 }), /tickMs/);
		assert.throws(() => new BackgroundObserver({ warm, debounceMs: -1 }), /debounceMs/);
		assert.throws(() => new BackgroundObserver({} as BackgroundObserverOptions<void>), /options\.warm/);
		const observer = new BackgroundObserver({ warm, enabled: false });
		assert.throws(() => observer.noteActivity("", 1), /root must be a nonempty string/);
		assert.throws(() => observer.noteActivity("/a", Number.NaN), /lease of \/a must be an integer/);
		assert.throws(() => observer.checkpoint(""), /root is required/);
	});
});
