/**
 * one-or-many: a map of values kept as one value or a list reads, at every step of any sequence of additions and removals,
 * exactly as a map of plain lists does (order included), and never holds a one-element or empty list.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { addOne, countOf, dropOne, firstOf, type Ids, manyOf, trimMany } from "../../src/engine/model/one-or-many.ts";

type Step = { add: boolean; key: string; id: number };

describe("one or many", () => {
	it("reads as plain lists after any additions and removals", () => {
		const step = fc.record({
			add: fc.boolean(),
			key: fc.constantFrom("a", "b", "c"),
			id: fc.integer({ min: 0, max: 5 }),
		});
		fc.assert(
			fc.property(fc.array(step, { maxLength: 60 }), fc.boolean(), (steps: Step[], trim) => {
				const ids = new Map<string, Ids>();
				const model = new Map<string, number[]>();
				for (const { add, key, id } of steps) {
					const list = model.get(key) ?? [];
					if (add) {
						// Callers add a value once per key, as the term index and the graph store do.
						if (list.includes(id)) continue;
						addOne(ids, key, id);
						model.set(key, [...list, id]);
					} else {
						dropOne(ids, key, id);
						const at = list.lastIndexOf(id);
						const next = at < 0 ? list : [...list.slice(0, at), ...list.slice(at + 1)];
						if (next.length === 0) model.delete(key);
						else model.set(key, next);
					}
					if (trim) trimMany(ids);
					assert.deepEqual([...ids.keys()].sort(), [...model.keys()].sort());
					for (const [key, list] of model) {
						const held = ids.get(key);
						assert.deepEqual(manyOf(held), list, `ids of ${key}`);
						assert.equal(countOf(held), list.length);
						assert.equal(firstOf(held), list[0]);
						assert.equal(typeof held === "number", list.length === 1, "one value is kept alone");
					}
				}
				assert.deepEqual(manyOf(ids.get("absent")), []);
				assert.equal(countOf(undefined), 0);
				assert.equal(firstOf(undefined), undefined);
			}),
		);
	});

	it("keeps strings as it keeps ids", () => {
		const paths = new Map<string, string | string[]>();
		addOne(paths, "name", "a.ts");
		assert.equal(paths.get("name"), "a.ts");
		addOne(paths, "name", "b.ts");
		assert.deepEqual(manyOf(paths.get("name")), ["a.ts", "b.ts"]);
		dropOne(paths, "name", "a.ts");
		assert.equal(paths.get("name"), "b.ts");
		dropOne(paths, "name", "b.ts");
		assert.equal(paths.has("name"), false);
	});

	it("trims a list grown by push to a copy of its ids", () => {
		const ids = new Map<string, Ids>();
		for (let id = 0; id < 3; id++) addOne(ids, "k", id);
		const grown = ids.get("k");
		trimMany(ids);
		assert.notEqual(ids.get("k"), grown, "a new list");
		assert.deepEqual(ids.get("k"), [0, 1, 2]);
	});
});
