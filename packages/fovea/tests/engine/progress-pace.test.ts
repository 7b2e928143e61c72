/** `engine/pace/progress.ts`: reports passed on at most once an interval, the first and the last always. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pacedProgress } from "../../src/engine/pace/progress.ts";

describe("paced progress", () => {
	it("passes the first report, then one an interval, and always the last", () => {
		let clock = 1_000;
		const seen: string[] = [];
		const report = pacedProgress(
			(done, total) => seen.push(`${done}/${total}`),
			250,
			() => clock,
		);
		report(10, 100); // first: passed
		clock += 100;
		report(20, 100); // 100 ms later: held back
		clock += 149;
		report(30, 100); // 249 ms after the first: held back
		clock += 1;
		report(40, 100); // 250 ms: passed
		clock += 10;
		report(100, 100); // the last: passed however soon
		report(100, 100);
		assert.deepEqual(seen, ["10/100", "40/100", "100/100", "100/100"]);
	});
});
