/**
 * `useExtractWorkersFrom`: a process can change the size of a refresh from which the shared pool's
 * workers start; bad counts are refused by name and the default comes back with `undefined`.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { DEFAULT_START_JOBS } from "../../src/engine/extract/pool.ts";
import { sharedExtractPool, useExtractWorkersFrom } from "../../src/engine/shared-extract-pool.ts";

after(() => useExtractWorkersFrom(undefined));

describe("useExtractWorkersFrom", () => {
	it("sets the shared pool's start size, before and after the pool exists, and restores the default", () => {
		useExtractWorkersFrom(500);
		const pool = sharedExtractPool();
		assert.equal(pool.startJobs, 500);
		useExtractWorkersFrom(300);
		assert.equal(pool.startJobs, 300);
		useExtractWorkersFrom(undefined);
		assert.equal(pool.startJobs, DEFAULT_START_JOBS);
	});

	it("refuses a count that is not a non-negative integer", () => {
		for (const bad of [-1, 1.5, Number.NaN]) {
			assert.throws(() => useExtractWorkersFrom(bad), /useExtractWorkersFrom: .* is not a job count/);
		}
	});
});
