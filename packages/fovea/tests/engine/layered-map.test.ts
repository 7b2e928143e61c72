/**
 * layered-map: a map with changes laid over it reads, after any sequence of layers, exactly as a copy of the base
 * with the same changes applied by `set` and `delete` (iteration order included), never changes the map it was laid
 * over, and turns into a plain map once it carries too many changes.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type Change, LayeredMap, MAX_CHANGES, withChanges } from "../../src/engine/refresh/layered-map.ts";

const KEYS = ["a", "b", "c", "d", "e", "f", "g", "h"];

function readAll(map: ReadonlyMap<string, number>): unknown {
	const seen: [string, number][] = [];
	map.forEach((value, key) => {
		seen.push([key, value]);
	});
	return {
		entries: [...map],
		keys: [...map.keys()],
		values: [...map.values()],
		forEach: seen,
		size: map.size,
		lookups: [...KEYS, "absent"].map((key) => [key, map.has(key), map.get(key)]),
	};
}

describe("withChanges", () => {
	it("reads as a copy with the changes applied, layer after layer, and leaves every earlier layer as it was", () => {
		const change = fc.tuple(fc.constantFrom(...KEYS), fc.option(fc.integer({ min: 0, max: 99 }), { nil: undefined }));
		fc.assert(
			fc.property(
				fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: KEYS.length }),
				fc.array(fc.array(change, { maxLength: 6 }), { maxLength: 12 }),
				(baseKeys, layers) => {
					const base = new Map(baseKeys.map((key, i) => [key, i]));
					const baseRead = readAll(base);
					let map: ReadonlyMap<string, number> = base;
					let model = new Map(base);
					const earlier: [ReadonlyMap<string, number>, unknown][] = [];
					for (const layer of layers) {
						earlier.push([map, readAll(map)]);
						map = withChanges(map, layer as Change<string, number>[]);
						model = new Map(model);
						for (const [key, value] of layer) {
							if (value === undefined) model.delete(key);
							else model.set(key, value);
						}
						assert.deepEqual(readAll(map), readAll(model));
					}
					for (const [layer, read] of earlier) assert.deepEqual(readAll(layer), read, "an earlier layer");
					assert.deepEqual(readAll(base), baseRead, "the base");
				},
			),
		);
	});

	it("carries changes over one base, then flattens into a plain map", () => {
		const base = new Map(Array.from({ length: 1000 }, (_, i) => [i, i]));
		let map: ReadonlyMap<number, number> = base;
		for (let i = 0; i < MAX_CHANGES; i++) map = withChanges(map, [[i, -i]]);
		assert.ok(map instanceof LayeredMap, "layered while the changes are few");
		assert.equal(map.changes, MAX_CHANGES, "changes carried over, not stacked");
		map = withChanges(map, [[2000, 1]]);
		assert.ok(!(map instanceof LayeredMap) && map instanceof Map, "flattened past the bound");
		assert.equal(map.size, 1001);
		assert.equal(map.get(5), -5);
		assert.equal(base.get(5), 5);
	});
});
