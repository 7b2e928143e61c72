/** When the CLI gives a cold review a parsing thread (`src/spare-core.ts`): two cores or more, half of one idle. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { spareCore } from "../src/spare-core.ts";

describe("a core to spare", () => {
	it("needs two cores and half a core idle by the last minute's load average", () => {
		assert.equal(spareCore(2, 0), true);
		assert.equal(spareCore(2, 1.2), true, "the lead's idle benchmark machine");
		assert.equal(spareCore(2, 1.5), true);
		assert.equal(spareCore(2, 1.6), false);
		assert.equal(spareCore(2, 8), false, "every core busy: the thread would only compete");
		assert.equal(spareCore(1, 0), false, "one core: nothing to overlap");
		assert.equal(spareCore(4, 3.4), true);
	});
});
