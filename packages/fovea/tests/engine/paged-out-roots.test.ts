/**
 * Many enrolled roots stay within the memory of the few resident ones (`residency.ts`): a root paged out keeps no
 * facts in memory (its index holds no snapshot and no bytes against its budget, and it has no graph) and no mined
 * history, and a return to it takes its facts from the fact cache without parsing and its history from the store
 * without mining. Asserted as entries kept and estimated bytes resident.
 */
import assert from "node:assert/strict";
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { git, gitRepo } from "../../../../test/e2e/support/workspaces.ts";
import { ResidentMaps } from "../../src/engine/residency.ts";
import { rememberedIgnoreFiles } from "../../src/engine/scan/index.ts";
import { writeChainedTree } from "../support/generated-tree.ts";
import { tempDirs } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

const ROOTS = 6;
const FILES = 200;

describe("paged-out roots", () => {
	it("keep no facts and no history in memory, and come back from the caches without parsing or mining", async () => {
		const roots: string[] = [];
		for (let i = 0; i < ROOTS; i++) {
			// A history of two commits: the second, which changes two files together, is the one mined.
			const root = gitRepo(
				await writeChainedTree(await temps.make(), FILES),
				{ ".gitignore": "dist/\n" },
				{ commit: true },
			);
			for (const file of ["pkg0/f1.ts", "pkg0/f2.ts"]) await appendFile(join(root, file), "// settled\n");
			git(root, "commit", "-q", "-am", "settle");
			roots.push(root);
		}
		// Every map caches its facts in the user's cache directory, as the extension's maps do: here a temporary one.
		const saved = process.env.FOVEA_CACHE_DIR;
		process.env.FOVEA_CACHE_DIR = await temps.make();
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
			assert.equal(map.coupling.heldCommits, 1, "the first focus mined the history");
			assert.ok(rememberedIgnoreFiles(root) > 0, "its walk compiled the root's ignore rules");
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
				assert.equal(map.coupling.heldCommits, 0, "no mined commits");
				assert.equal(map.coupling.status.available, "unknown");
				assert.equal(rememberedIgnoreFiles(root), 0, "no compiled ignore rules");
			}
			residentBytes += map.index.residentFacts.bytes;
		}
		assert.ok(residentBytes <= 2 * largest, `${residentBytes} bytes resident for ${ROOTS} roots`);

		const back = resident.use(roots[0] as string);
		await back.focus({ text: "ledger" }, 800);
		assert.equal(back.index.stats.filesParsed, 0, "a return parses nothing");
		assert.equal(back.index.stats.cacheHits, FILES);
		assert.equal(back.coupling.heldCommits, 1, "the history is back");
		assert.deepEqual([back.coupling.stats.fullMines, back.coupling.stats.storeHits], [1, 1], "read back, not mined");
		resident.retire(roots);
	});
});
