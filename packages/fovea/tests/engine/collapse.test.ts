/** Repeated names shown once with their count (`render/collapse.ts`). */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { countedNames, groupBy } from "../../src/engine/render/collapse.ts";

describe("collapse", () => {
	it("lists each name once, where it first came, with its count", () => {
		assert.deepEqual(countedNames(["assertThrows", "get", "assertThrows", "send", "assertThrows"]), [
			"assertThrows ×3",
			"get",
			"send",
		]);
		assert.deepEqual(countedNames([]), []);
	});

	it("groups items by key in the order of their first member", () => {
		const groups = groupBy([3, 1, 4, 1, 5, 9, 2, 6], (n) => String(n % 3));
		assert.deepEqual(
			groups.map((g) => [g.first, g.members]),
			[
				[3, [3, 9, 6]],
				[1, [1, 4, 1]],
				[5, [5, 2]],
			],
		);
	});
});
