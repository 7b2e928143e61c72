/**
 * Compressed rows: a full assembly merges parallel edges, and a patch by the difference of two sets of per-file
 * edges gives the rows a full assembly of the new set gives (up to inert zero entries and order within a row).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compressedRows, patchRows } from "../../src/engine/graph/compressed-rows.ts";
import { RELATION_CODE } from "../../src/engine/graph/edges.ts";
import type { FileEdges } from "../../src/engine/graph/model.ts";
import type { SparseGraph } from "../../src/engine/graph/sparse-graph.ts";

function part(edges: [number, number, number][]): FileEdges {
	return {
		a: Int32Array.from(edges.map((e) => e[0])),
		b: Int32Array.from(edges.map((e) => e[1])),
		w: Float64Array.from(edges.map((e) => e[2])),
		r: new Uint8Array(edges.length).fill(RELATION_CODE.calls),
	};
}

/** Row → target → weight, zero entries left out. */
function entries(rows: SparseGraph): Map<number, Map<number, number>> {
	const out = new Map<number, Map<number, number>>();
	for (let i = 0; i < rows.size; i++) {
		const row = new Map<number, number>();
		for (let e = rows.offsets[i] as number; e < (rows.offsets[i + 1] as number); e++) {
			const weight = rows.weights[e] as number;
			assert.equal(row.has(rows.targets[e] as number), false, "one entry per target");
			if (weight !== 0) row.set(rows.targets[e] as number, Math.round(weight * 1e9) / 1e9);
		}
		if (row.size > 0) out.set(i, row);
	}
	return out;
}

describe("compressed rows", () => {
	it("merge parallel edges in both rows", () => {
		const rows = compressedRows(3, [
			part([[0, 1, 0.5]]),
			part([
				[1, 0, 0.5],
				[1, 2, 1],
			]),
		]);
		assert.deepEqual(
			entries(rows),
			new Map([
				[0, new Map([[1, 1]])],
				[
					1,
					new Map([
						[0, 1],
						[2, 1],
					]),
				],
				[2, new Map([[1, 1]])],
			]),
		);
	});

	it("a patch gives what a full assembly of the new edges gives: weights changed, removed, inserted, nodes added", () => {
		const keep = part([
			[0, 1, 1],
			[1, 2, 0.7],
		]);
		const before = part([
			[2, 3, 0.5],
			[3, 0, 0.9],
		]);
		const after = part([
			[2, 3, 0.5],
			[2, 3, 0.5],
			[0, 4, 1],
			[5, 1, 0.7],
		]);
		const rows = compressedRows(5, [keep, before]);
		const patch = patchRows(rows, 6, [before], [after]);
		assert.ok(patch);
		assert.deepEqual(entries(patch.rows), entries(compressedRows(6, [keep, after])));
		assert.equal(patch.zeroed, 2, "the 3-0 edge went to zero in both its rows");
		assert.deepEqual(new Set(patch.touched), new Set([0, 1, 2, 3, 4, 5]));
	});

	it("grows full buffers with room to spare, then inserts within them", () => {
		const rows = compressedRows(4, [part([[0, 1, 1]])]);
		const first = patchRows(rows, 4, [], [part([[2, 3, 1]])]);
		assert.ok(first);
		assert.notEqual(first.rows.targets.buffer, rows.targets.buffer, "full: grown");
		assert.ok(first.rows.targets.buffer.byteLength / 4 > first.rows.targets.length, "with room to spare");
		assert.deepEqual(
			entries(first.rows),
			entries(
				compressedRows(4, [
					part([
						[0, 1, 1],
						[2, 3, 1],
					]),
				]),
			),
		);
		const second = patchRows(
			first.rows,
			5,
			[],
			[
				part([
					[4, 0, 0.7],
					[1, 3, 0.5],
				]),
			],
		);
		assert.ok(second);
		assert.equal(second.rows.targets.buffer, first.rows.targets.buffer, "no new buffer");
		assert.deepEqual(
			entries(second.rows),
			entries(
				compressedRows(5, [
					part([
						[0, 1, 1],
						[2, 3, 1],
						[4, 0, 0.7],
						[1, 3, 0.5],
					]),
				]),
			),
		);
	});

	it("patches in place when no new link appears, and refuses to remove an edge that is not there", () => {
		const one = part([[0, 1, 1]]);
		const rows = compressedRows(2, [one, part([[0, 1, 0.5]])]);
		const patch = patchRows(rows, 2, [part([[0, 1, 0.5]])], [part([[1, 0, 0.25]])]);
		assert.equal(patch?.rows, rows, "the same arrays");
		assert.deepEqual(
			entries(rows),
			new Map([
				[0, new Map([[1, 1.25]])],
				[1, new Map([[0, 1.25]])],
			]),
		);
		assert.equal(patchRows(rows, 2, [part([[0, 1, 5]])], []), undefined);
		assert.equal(patchRows(compressedRows(3, [one]), 3, [part([[1, 2, 1]])], []), undefined);
	});
});
