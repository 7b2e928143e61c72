/**
 * id-lists: a map of ids kept as one id or a list reads, at every step of any sequence of additions and removals,
 * exactly as a map of plain lists does (order included), and never holds a one-element or empty list.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { addId, dropId, firstId, type Ids, idCount, idsOf, trimIds } from "../../src/engine/id-lists.ts";

type Step = { add: boolean; key: string; id: number };

describe("id lists", () => {
	it("read as plain lists after any additions and removals", () => {
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
						// Callers add an id once per key, as the term index and the graph store do.
						if (list.includes(id)) continue;
						addId(ids, key, id);
						model.set(key, [...list, id]);
					} else {
						dropId(ids, key, id);
						const at = list.lastIndexOf(id);
						const next = at < 0 ? list : [...list.slice(0, at), ...list.slice(at + 1)];
						if (next.length === 0) model.delete(key);
						else model.set(key, next);
					}
					if (trim) trimIds(ids);
					assert.deepEqual([...ids.keys()].sort(), [...model.keys()].sort());
					for (const [key, list] of model) {
						const held = ids.get(key);
						assert.deepEqual(idsOf(held), list, `ids of ${key}`);
						assert.equal(idCount(held), list.length);
						assert.equal(firstId(held), list[0]);
						assert.equal(typeof held === "number", list.length === 1, "one id is kept alone");
					}
				}
				assert.deepEqual(idsOf(ids.get("absent")), []);
				assert.equal(idCount(undefined), 0);
				assert.equal(firstId(undefined), undefined);
			}),
		);
	});

	it("trims a list grown by push to a copy of its ids", () => {
		const ids = new Map<string, Ids>();
		for (let id = 0; id < 3; id++) addId(ids, "k", id);
		const grown = ids.get("k");
		trimIds(ids);
		assert.notEqual(ids.get("k"), grown, "a new list");
		assert.deepEqual(ids.get("k"), [0, 1, 2]);
	});
});
