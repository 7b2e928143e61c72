/**
 * Many enrolled roots stay within the memory of the few resident ones (`residency.ts`): a root paged out keeps no
 * facts in memory (its index holds no snapshot and no bytes against its budget, and it has no graph), and a return to
 * it takes its facts from the fact cache without parsing. Asserted as entries kept and estimated bytes resident.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { ResidentMaps } from "../../src/engine/residency.ts";
import { writeChainedTree } from "../support/generated-tree.ts";
import { makeTempDir, removeTempDir } from "../support/temp-tree.ts";

const temps: string[] = [];
after(async () => {
	for (const dir of temps) await removeTempDir(dir);
});

async function tempDir(): Promise<string> {
	const dir = await makeTempDir();
	temps.push(dir);
	return dir;
}

const ROOTS = 6;
const FILES = 200;

describe("paged-out roots", () => {
	it("keep no facts in memory, and come back from the fact cache without parsing", async () => {
		const roots: string[] = [];
		for (let i = 0; i < ROOTS; i++) roots.push(await writeChainedTree(await tempDir(), FILES));
		// Every map caches its facts in the user's cache directory, as the extension's maps do: here a temporary one.
		const saved = process.env.FOVEA_CACHE_DIR;
		process.env.FOVEA_CACHE_DIR = await tempDir();
		after(() => {
			if (saved === undefined) delete process.env.FOVEA_CACHE_DIR;
			else process.env.FOVEA_CACHE_DIR = saved;
		});
		const resident = new ResidentMaps(2);
		let largest = 0;
		for (const root of roots) {
			const map = resident.use(root);
			const answer = await map.focus({ text: "ledger reconciliation" }, 800);
			assert.equal(answer.snapshot.files.size, FILES);
			largest = Math.max(largest, map.index.residentFacts.bytes);
		}
		let residentBytes = 0;
		for (const [i, root] of roots.entries()) {
			const map = resident.get(root);
			assert.ok(map !== undefined);
			const paged = i < ROOTS - 2;
			assert.equal(resident.isResident(root), !paged, root);
			if (paged) {
				assert.equal(map.resident, false, "no graph");
				assert.equal(map.index.snapshot, undefined, "no facts");
				assert.equal(map.index.residentFacts.bytes, 0, "nothing against the budget");
			}
			residentBytes += map.index.residentFacts.bytes;
		}
		assert.ok(residentBytes <= 2 * largest, `${residentBytes} bytes resident for ${ROOTS} roots`);

		const back = resident.use(roots[0] as string);
		await back.focus({ text: "ledger" }, 800);
		assert.equal(back.index.stats.filesParsed, 0, "a return parses nothing");
		assert.equal(back.index.stats.cacheHits, FILES);
		resident.retire(roots);
	});
});
