// The process's shared code maps: one map per root for every user, residency bounded across users by
// FOVEA_CACHE_ROOTS, found again through globalThis by a second copy of pi-fovea, and forgotten only when the last
// user retires the root.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { cacheRootsLimit } from "../../src/engine/cache-roots.ts";
import { sharedResidentMaps } from "../../src/engine/residency.ts";
import { makeTempDir, removeTempDir, writeTree } from "../support/temp-tree.ts";

const KEY = Symbol.for("pi-fovea.resident-maps.v1");
const dirs: string[] = [];
after(async () => {
	for (const dir of dirs) await removeTempDir(dir);
});

async function root(): Promise<string> {
	const dir = await makeTempDir();
	dirs.push(dir);
	await writeTree(dir, { "a.ts": "export const a = 1;\n" });
	return dir;
}

describe("sharedResidentMaps", () => {
	it("gives every user the same map of a root, bounds residency across users, and forgets a root after its last user", async () => {
		delete (globalThis as Record<symbol, unknown>)[KEY];
		const saved = process.env.FOVEA_CACHE_ROOTS;
		process.env.FOVEA_CACHE_ROOTS = "1";
		try {
			const fovea = sharedResidentMaps("pi-fovea");
			const contour = sharedResidentMaps("pi-contour");
			assert.equal(contour.limit, 1, "FOVEA_CACHE_ROOTS bounds every user's maps");
			const [one, two] = [await root(), await root()];
			const map = fovea.use(one);
			assert.equal(contour.use(one), map, "one map per root");
			await map.refresh();
			assert.equal(map.stats.graphsBuilt, 1);
			assert.equal(fovea.isResident(one), true);
			await contour.use(two).refresh();
			assert.equal(fovea.isResident(one), false, "a second root, taken by another user, evicted the first");

			fovea.retire([one, two]);
			assert.equal(contour.get(one), map, "still held by pi-contour");
			assert.notEqual(contour.get(two), undefined, "a root pi-fovea never took is not its to forget");
			contour.retire([one, two]);
			assert.equal(fovea.get(one), undefined, "forgotten once its last user retired it");
			assert.equal(fovea.get(two), undefined);
		} finally {
			if (saved === undefined) delete process.env.FOVEA_CACHE_ROOTS;
			else process.env.FOVEA_CACHE_ROOTS = saved;
			sharedResidentMaps("pi-fovea").retire([...dirs]);
			sharedResidentMaps("pi-contour").retire([...dirs]);
			delete (globalThis as Record<symbol, unknown>)[KEY];
		}
	});

	it("FOVEA_CACHE_ROOTS keeps 2 roots resident by default, at least 1, and cuts a huge value to 1024", () => {
		delete (globalThis as Record<symbol, unknown>)[KEY];
		const saved = process.env.FOVEA_CACHE_ROOTS;
		try {
			delete process.env.FOVEA_CACHE_ROOTS;
			assert.equal(sharedResidentMaps("pi-fovea").limit, 2, "the seed's default");
			for (const [value, limit] of [
				["", 2],
				["two", 2],
				["0", 1],
				["-3", 1],
				["5", 5],
				["5000", 1024],
			] as const) {
				process.env.FOVEA_CACHE_ROOTS = value;
				assert.equal(sharedResidentMaps("pi-fovea").limit, limit, `FOVEA_CACHE_ROOTS=${value}`);
				assert.equal(cacheRootsLimit(), limit, "the status reads the same bound");
			}
		} finally {
			if (saved === undefined) delete process.env.FOVEA_CACHE_ROOTS;
			else process.env.FOVEA_CACHE_ROOTS = saved;
			delete (globalThis as Record<symbol, unknown>)[KEY];
		}
	});
});
