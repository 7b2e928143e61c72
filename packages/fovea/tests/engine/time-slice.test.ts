/** `TimeSlice` (`engine/pace/time-slice.ts`): a slice is due after its length, and a turn runs what waits on the loop. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TimeSlice } from "../../src/engine/pace/time-slice.ts";

function spin(ms: number): void {
	const end = performance.now() + ms;
	while (performance.now() < end) {}
}

describe("TimeSlice", () => {
	it("is due once its length has run, and a turn starts a new slice", async () => {
		// Lengths far from the waits, so a busy machine cannot flip an answer.
		assert.equal(new TimeSlice(60_000).due, false);
		const slice = new TimeSlice(200);
		spin(220);
		assert.equal(slice.due, true);
		await slice.turn();
		assert.equal(slice.due, false, "a new slice after the turn");
	});

	it("a turn lets callbacks waiting on the event loop run", async () => {
		const slice = new TimeSlice();
		let ran = false;
		setImmediate(() => {
			ran = true;
		});
		assert.equal(ran, false);
		await slice.turn();
		assert.equal(ran, true);
	});
});
