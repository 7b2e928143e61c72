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
			assert.throws(() => useExtractWorkersFrom(500, bad), /useExtractWorkersFrom: .* is not a byte count/);
		}
	});

	it("starts workers for few files of many bytes once a byte count is set, and for files alone without it", () => {
		const pool = sharedExtractPool();
		if (pool.threads === 0) return; // FOVEA_EXTRACT_THREADS=0: no worker ever starts
		useExtractWorkersFrom(500);
		assert.equal(pool.startsWorkersFor(60, 1_500_000), false, "60 files: below the file count, bytes not weighed");
		assert.equal(pool.startsWorkersFor(500, 0), true);
		useExtractWorkersFrom(500, 1_000_000);
		assert.equal(pool.startBytes, 1_000_000);
		assert.equal(pool.startsWorkersFor(60, 1_500_000), true, "60 files of 1.5 MB");
		assert.equal(pool.startsWorkersFor(60, 999_999), false);
		assert.equal(pool.sharesWithWorkers(60, 60, 1_500_000), true);
		useExtractWorkersFrom(undefined);
		assert.equal(pool.startBytes, Number.POSITIVE_INFINITY, "bytes are not weighed by default");
	});
});
