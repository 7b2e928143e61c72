/**
 * The CLI's cache on disk: reports by analysis key (bounded per root), measures by content, and anything unreadable
 * or foreign treated as a miss rather than trusted.
 */
import assert from "node:assert/strict";
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { EXTRACTOR_VERSION } from "pi-fovea/engine";
import { contourCacheDir, DiskCache, MEASURES_ON_DISK, REPORTS_ON_DISK } from "../../src/checkpoint/disk-cache.ts";
import { MeasureCache } from "../../src/checkpoint/measure-cache.ts";
import { type FileMeasure, MEASURE_VERSION } from "../../src/review/index.ts";
import { cleanup, tempDir } from "../git/support.ts";
import { makeReport } from "../report/support.ts";

after(cleanup);

const key = (n: number) => n.toString(16).padStart(64, "0");

function measureOf(path: string): FileMeasure {
	return {
		version: MEASURE_VERSION,
		path,
		language: "typescript",
		bytes: 10,
		lines: 1,
		sourceLines: 1,
		moduleDecisions: 0,
		parseErrors: 0,
		callables: [],
		needless: [],
	};
}

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

	it("keeps nothing for a root that holds the cache directory (a home directory under Git)", async () => {
		const home = tempDir("contour-home-");
		const disk = new DiskCache(join(home, ".cache", "pi-contour"));
		await disk.saveReport(makeReport(home, { key: key(1) }));
		const measures = new MeasureCache();
		measures.putMeasure("abc", "a.ts", 100, measureOf("a.ts"));
		await disk.saveMeasures(home, measures);
		assert.equal(existsSync(join(home, ".cache")), false, "nothing was written inside the root");
		await disk.saveReport(makeReport("/elsewhere", { key: key(2) }));
		assert.equal((await disk.listReports("/elsewhere")).length, 1, "other roots keep theirs");
	});

	it("lists a root's kept reports newest first, leaving out damaged files and other files of the folder", async () => {
		const disk = new DiskCache(tempDir("contour-disk-"));
		assert.deepEqual(await disk.listReports("/r"), [], "none kept yet");
		const made = [1, 2, 3].map((n) => ({
			...makeReport("/r", { key: key(n) }),
			createdAt: `2026-12-0${n}T10:00:00.000Z`,
		}));
		for (const report of [made[1], made[0], made[2]]) await disk.saveReport(report as (typeof made)[number]);
		await disk.saveReport(makeReport("/other", { key: key(9) }));
		const [dir] = readdirSync(disk.dir).filter((name) => readdirSync(join(disk.dir, name, "reports")).length === 3);
		writeFileSync(join(disk.dir, dir as string, "reports", `${key(2)}.json`), "{ torn");
		writeFileSync(join(disk.dir, dir as string, "reports", "notes.txt"), "not a report");
		assert.deepEqual(
			(await disk.listReports("/r")).map((report) => report.key),
			[key(3), key(1)],
		);
	});

	it("round-trips measures and skips entries of another shape or version", async () => {
		const disk = new DiskCache(tempDir("contour-disk-"));
		const cache = new MeasureCache();
		cache.putMeasure("abc", "a.ts", 100, measureOf("a.ts"));
		cache.putImports("abc", "a.ts", [{ specifier: "./b.ts", line: 1 }]);
		await disk.saveMeasures("/r", cache);
		const fresh = new MeasureCache();
		assert.equal(await new DiskCache(disk.dir).loadMeasures("/r", fresh), 2);
		assert.deepEqual(fresh.measure("abc", "src/moved.ts", 100), { ...measureOf("a.ts"), path: "src/moved.ts" });
		assert.deepEqual(fresh.imports("abc", "a.ts"), [{ specifier: "./b.ts", line: 1 }]);
		const badMeasure = JSON.stringify({ kind: "measure", value: { version: 0 } });
		assert.equal(
			fresh.restore([
				["m999:x:typescript:100", JSON.stringify({ kind: "measure", value: measureOf("a.ts") })],
				[`m${MEASURE_VERSION}:y:typescript:100`, badMeasure],
				[`i${EXTRACTOR_VERSION}:z:typescript`, JSON.stringify({ kind: "imports", value: "not a list" })],
				[`i${EXTRACTOR_VERSION}:w:typescript`, "{ torn"],
			]),
			3,
			"keys of another version are not taken",
		);
		assert.equal(fresh.measure("y", "a.ts", 100), undefined, "a wrong shape is a miss when used");
		assert.equal(fresh.imports("z", "a.ts"), undefined);
		assert.equal(fresh.imports("w", "a.ts"), undefined);
		assert.equal(fresh.stats.entries, 2, "the entries that failed their check are dropped");
	});

	it("appends only what a run added, survives a torn last line, and compacts a long log", async () => {
		const disk = new DiskCache(tempDir("contour-disk-"));
		const first = new MeasureCache();
		first.putMeasure("a1", "a.ts", 100, measureOf("a.ts"));
		await disk.saveMeasures("/r", first);
		const [dir] = readdirSync(disk.dir);
		const log = join(disk.dir, dir as string, "measures.log");
		const lines = () =>
			readFileSync(log, "utf8")
				.split("\n")
				.filter((line) => line !== "");

		// A second process: loads one entry, adds one, appends one line; saving again with nothing new writes nothing.
		const secondDisk = new DiskCache(disk.dir);
		const second = new MeasureCache();
		assert.equal(await secondDisk.loadMeasures("/r", second), 1);
		second.putMeasure("b2", "b.ts", 100, measureOf("b.ts"));
		await secondDisk.saveMeasures("/r", second);
		assert.equal(lines().length, 3, "header and two entries");
		const before = statSync(log).mtimeMs;
		await secondDisk.saveMeasures("/r", second);
		assert.equal(statSync(log).mtimeMs, before, "nothing added, nothing written");

		// A writer that died mid-line: the entries before it still load, the torn one is a miss.
		appendFileSync(log, `m${MEASURE_VERSION}:c3:typescript:100\t{"kind":"meas`);
		const third = new MeasureCache();
		await new DiskCache(disk.dir).loadMeasures("/r", third);
		assert.ok(third.measure("a1", "a.ts", 100));
		assert.ok(third.measure("b2", "b.ts", 100));
		assert.equal(third.measure("c3", "c.ts", 100), undefined);

		// Past twice the bound, the log is rewritten with the most recently used entries only.
		const bulkDisk = new DiskCache(disk.dir);
		const bulk = new MeasureCache();
		await bulkDisk.loadMeasures("/r", bulk);
		for (let i = 0; i < 2 * MEASURES_ON_DISK; i++) bulk.putImports(`f${i}`, "f.ts", []);
		await bulkDisk.saveMeasures("/r", bulk);
		assert.equal(lines().length, MEASURES_ON_DISK + 1);
		assert.equal(lines()[0], "contour measures 2");
		const last = new MeasureCache();
		assert.equal(await new DiskCache(disk.dir).loadMeasures("/r", last), MEASURES_ON_DISK);
		assert.deepEqual(last.imports(`f${2 * MEASURES_ON_DISK - 1}`, "f.ts"), [], "the newest entry is kept");
		assert.equal(last.imports("f0", "f.ts"), undefined, "the oldest is dropped");
	});

	it("ignores a measures log of another form", async () => {
		const disk = new DiskCache(tempDir("contour-disk-"));
		const cache = new MeasureCache();
		cache.putMeasure("a1", "a.ts", 100, measureOf("a.ts"));
		await disk.saveMeasures("/r", cache);
		const [dir] = readdirSync(disk.dir);
		const log = join(disk.dir, dir as string, "measures.log");
		writeFileSync(log, readFileSync(log, "utf8").replace("contour measures 2", "contour measures 1"));
		assert.equal(await new DiskCache(disk.dir).loadMeasures("/r", new MeasureCache()), 0);
	});

	it("lives in CONTOUR_CACHE_DIR, else beside Fovea's cache, else the user's cache directory", () => {
		assert.equal(contourCacheDir({ CONTOUR_CACHE_DIR: "/c", FOVEA_CACHE_DIR: "/f" }), "/c");
		assert.equal(contourCacheDir({ FOVEA_CACHE_DIR: "/f" }), "/f/contour");
		assert.equal(contourCacheDir({ XDG_CACHE_HOME: "/x" }), "/x/pi-contour");
	});

	it("ignores a relative setting, by Fovea's rule: a relative XDG_CACHE_HOME is invalid in the XDG specification", () => {
		const home = join(homedir(), ".cache", "pi-contour");
		assert.equal(contourCacheDir({ XDG_CACHE_HOME: "relative" }), home);
		assert.equal(contourCacheDir({ CONTOUR_CACHE_DIR: "relative", FOVEA_CACHE_DIR: "also-relative" }), home);
		assert.equal(contourCacheDir({ CONTOUR_CACHE_DIR: "rel", FOVEA_CACHE_DIR: "/f" }), "/f/contour");
	});
});
