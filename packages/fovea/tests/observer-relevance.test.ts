// Which roots the observer counts as worked in (probed after turns, their drift told): attention fades by turns, but
// a root stays relevant for a while after its attention has faded, and the strongest come first.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Observer } from "../src/engine/observe/observer.ts";
import { ResidentMaps } from "../src/engine/residency.ts";

describe("Observer.relevant", () => {
	it("keeps a root relevant for 50 turns after its last attention, strongest and then most recent first", () => {
		const observer = new Observer(new ResidentMaps(1, { cache: false }));
		observer.attend("/work/early", "/work/early/src/a.ts", "edit");
		for (let turn = 0; turn < 20; turn++) observer.decay();
		assert.equal(observer.attention("/work/early")?.size, 0, "its attention has faded by now");
		observer.attend("/work/later", "/work/later/src/b.ts", "read");
		observer.decay();
		observer.attend("/work/faded", "/work/faded/src/c.ts", "read");
		for (let turn = 0; turn < 15; turn++) observer.decay();
		assert.deepEqual(observer.relevant(), ["/work/faded", "/work/later", "/work/early"]);
		for (let turn = 0; turn < 20; turn++) observer.decay();
		assert.deepEqual(observer.relevant(), ["/work/faded", "/work/later"], "50 turns after its last attention");
	});
});
