/**
 * `syncWhileFast`: calls run synchronously, in order, while each is fast; after a slow one the rest (and every later
 * call sharing the pace) run in their asynchronous form; the event loop gets a turn between synchronous calls.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Pace, syncWhileFast } from "../../src/engine/pace/sync-while-fast.ts";
import { TimeSlice } from "../../src/engine/pace/time-slice.ts";

function calls(): { log: string[]; fast: (i: number) => string; slow: (i: number) => Promise<string> } {
	const log: string[] = [];
	return {
		log,
		fast: (i) => {
			log.push(`fast ${i}`);
			return `r${i}`;
		},
		slow: async (i) => {
			log.push(`slow ${i}`);
			await new Promise((done) => setImmediate(done));
			return `r${i}`;
		},
	};
}

describe("syncWhileFast", () => {
	it("runs every call synchronously, in order, while calls are fast", async () => {
		const { log, fast, slow } = calls();
		const pace: Pace = { sync: true, slowMs: Number.POSITIVE_INFINITY };
		assert.deepEqual(await syncWhileFast(4, fast, slow, { pace, concurrency: 2 }), ["r0", "r1", "r2", "r3"]);
		assert.deepEqual(log, ["fast 0", "fast 1", "fast 2", "fast 3"]);
		assert.equal(pace.sync, true);
	});

	it("after a slow call runs the rest asynchronously, and so does every later bulk with the same pace", async () => {
		const { log, fast, slow } = calls();
		const pace: Pace = { sync: true, slowMs: -1 }; // every call counts as slow
		assert.deepEqual(await syncWhileFast(4, fast, slow, { pace, concurrency: 2 }), ["r0", "r1", "r2", "r3"]);
		assert.deepEqual(log, ["fast 0", "slow 1", "slow 2", "slow 3"]);
		assert.equal(pace.sync, false);
		log.length = 0;
		assert.deepEqual(await syncWhileFast(2, fast, slow, { pace, concurrency: 2 }), ["r0", "r1"]);
		assert.deepEqual(log, ["slow 0", "slow 1"]);
	});

	it("gives the event loop a turn between synchronous calls once a slice is due", async () => {
		const { log, fast, slow } = calls();
		setImmediate(() => log.push("turn"));
		const pace: Pace = { sync: true, slowMs: Number.POSITIVE_INFINITY };
		await syncWhileFast(3, fast, slow, { pace, concurrency: 1, slice: new TimeSlice(-1) });
		assert.deepEqual(log, ["fast 0", "turn", "fast 1", "fast 2"]);
	});

	it("stops at an aborted signal", async () => {
		const { fast, slow } = calls();
		const controller = new AbortController();
		controller.abort(new Error("stop"));
		await assert.rejects(
			syncWhileFast(2, fast, slow, { pace: { sync: true }, concurrency: 1, signal: controller.signal }),
			/stop/,
		);
	});
});
