/**
 * The CLI's cache on disk: reports by analysis key (bounded per root), measures by content, and anything unreadable
 * or foreign treated as a miss rather than trusted.
 */
import assert from "node:assert/strict";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { contourCacheDir, DiskCache, REPORTS_ON_DISK } from "../../src/checkpoint/disk-cache.ts";
import { MeasureCache } from "../../src/checkpoint/measure-cache.ts";
import { type FileMeasure, MEASURE_VERSION } from "../../src/review/index.ts";
import { cleanup, tempDir } from "../git/support.ts";
import { makeReport } from "../report/support.ts";

after(cleanup);

const key = (n: number) => n.toString(16).padStart(64, "0");

describe("disk cache", () => {
	it("keeps the newest reports of a root, frozen when read back, and refuses a report of another root or key", async () => {
		const disk = new DiskCache(tempDir("contour-disk-"));
		const reports = Array.from({ length: REPORTS_ON_DISK + 2 }, (_, i) => makeReport("/r", { key: key(i + 1) }));
		for (const report of reports) await disk.saveReport(report);
		const [dir] = readdirSync(disk.dir);
		assert.equal(readdirSync(join(disk.dir, dir as string, "reports")).length, REPORTS_ON_DISK);
		const last = reports.at(-1);
		assert.ok(last);
		const loaded = await disk.loadReport("/r", last.key);
		assert.deepEqual(loaded, last);
		assert.ok(Object.isFrozen(loaded?.findings[0]));
		assert.equal(await disk.loadReport("/other", last.key), undefined);
		assert.equal(await disk.loadReport("/r", "../../escape"), undefined);
		writeFileSync(join(disk.dir, dir as string, "reports", `${last.key}.json`), "{ not json");
		assert.equal(await disk.loadReport("/r", last.key), undefined, "a damaged file is a miss");
	});

	it("round-trips measures and skips entries of another shape or version", async () => {
		const disk = new DiskCache(tempDir("contour-disk-"));
		const cache = new MeasureCache();
		const measure: FileMeasure = {
			version: MEASURE_VERSION,
			path: "a.ts",
			language: "typescript",
			bytes: 10,
			lines: 1,
			sourceLines: 1,
			moduleDecisions: 0,
			parseErrors: 0,
			callables: [],
			needless: [],
		};
		cache.putMeasure("abc", "a.ts", 100, measure);
		cache.putImports("abc", "a.ts", [{ specifier: "./b.ts", line: 1 }]);
		await disk.saveMeasures("/r", cache);
		const fresh = new MeasureCache();
		assert.equal(await disk.loadMeasures("/r", fresh), 2);
		assert.deepEqual(fresh.measure("abc", "src/moved.ts", 100), { ...measure, path: "src/moved.ts" });
		assert.deepEqual(fresh.imports("abc", "a.ts"), [{ specifier: "./b.ts", line: 1 }]);
		assert.equal(
			fresh.restore([
				["m999:x:typescript:100", { kind: "measure", value: measure }],
				[`m${MEASURE_VERSION}:y:typescript:100`, { kind: "measure", value: { version: 0 } }],
				["i1:z:typescript", { kind: "imports", value: "not a list" }],
			]),
			0,
		);
	});

	it("lives in CONTOUR_CACHE_DIR, else beside Fovea's cache, else the user's cache directory", () => {
		assert.equal(contourCacheDir({ CONTOUR_CACHE_DIR: "/c", FOVEA_CACHE_DIR: "/f" }), "/c");
		assert.equal(contourCacheDir({ FOVEA_CACHE_DIR: "/f" }), "/f/contour");
		assert.equal(contourCacheDir({ XDG_CACHE_HOME: "/x" }), "/x/pi-contour");
	});
});
