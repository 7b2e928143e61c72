/**
 * The on-disk fact cache (`engine/cache/fact-cache.ts`) on real temporary directories:
 * - "Facts are content-addressed (hash of content + extractor version) and cached on disk per root, bounded in bytes
 *   and entries, so a restart or the CLI reuses them."
 * - writes are atomic; "a corrupt or truncated cache file is ignored and removed, never crashes".
 * - a per-root manifest (path → size, mtime, hash) survives a restart.
 * - the cache directory is never inside the analysed root.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdir, readFile, stat, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { DEFAULT_CACHE_MAX_BYTES, DEFAULT_CACHE_MAX_ENTRIES, FactCache } from "../../src/engine/cache/fact-cache.ts";
import { ROWS_A_PART } from "../../src/engine/cache/json-list-parts.ts";
import { type ManifestEntry, manifestParts } from "../../src/engine/cache/manifest.ts";
import { READ_WINDOW } from "../../src/engine/cache/segments.ts";
import { defaultCacheDir, factKey, rootCacheDir } from "../../src/engine/cache-location.ts";
import { EXTRACTOR_VERSION, type FileFacts, noCalls } from "../../src/engine/model/facts.ts";
import { tempDirs } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

function contentHash(text: Buffer): string {
	return createHash("sha256").update(text).digest("hex");
}

function facts(path: string, n = 1): FileFacts {
	return {
		path,
		language: "typescript",
		hash: contentHash(Buffer.from(path)),
		bytes: 10 * n,
		lines: n,
		symbols: Array.from({ length: n }, (_, i) => ({
			name: `f${i}`,
			kind: "function" as const,
			line: i + 1,
			endLine: i + 1,
			signature: `function f${i}()`,
		})),
		imports: [],
		calls: noCalls(),
		inherits: [],
		parseErrors: 0,
	};
}

function keyOf(path: string): string {
	return factKey(contentHash(Buffer.from(path)), path, "typescript", true);
}

async function packFiles(cache: FactCache): Promise<string[]> {
	return (await readdir(join(cache.dir, "packs"))).filter((n) => n.endsWith(".pack"));
}

async function setup(options: { maxEntries?: number; maxBytes?: number } = {}) {
	const root = await temps.make();
	const cacheDir = await temps.make();
	return { root, cacheDir, cache: new FactCache(root, { cacheDir, ...options }) };
}

describe("keys and locations", () => {
	it("qualifies content hashes by path and language", () => {
		const h = contentHash(Buffer.from("export {};\n"));
		assert.notEqual(factKey(h, "a.ts", "typescript", true), factKey(h, "b.ts", "typescript", true));
		assert.notEqual(factKey(h, "a.ts", "typescript", true), factKey(h, "a.ts", "tsx", true));
		assert.equal(factKey(h, "a.ts", "typescript", true), factKey(h, "a.ts", "typescript", true));
		assert.match(factKey(h, "a.ts", "typescript", true), /^[0-9a-f]{64}$/);
	});

	it("defaults to $FOVEA_CACHE_DIR, then $XDG_CACHE_HOME/pi-fovea, then ~/.cache/pi-fovea; one dir per root", () => {
		assert.equal(defaultCacheDir({ FOVEA_CACHE_DIR: "/c/f", XDG_CACHE_HOME: "/x" }), "/c/f");
		assert.equal(defaultCacheDir({ XDG_CACHE_HOME: "/x" }), "/x/pi-fovea");
		assert.match(defaultCacheDir({ XDG_CACHE_HOME: "relative" }), /\.cache[/\\]pi-fovea$/);
		assert.match(rootCacheDir("/c", "/p/one"), /^\/c\/[0-9a-f]{16}$/);
		assert.notEqual(rootCacheDir("/c", "/p/one"), rootCacheDir("/c", "/p/two"));
		assert.equal(DEFAULT_CACHE_MAX_ENTRIES, 50_000);
		assert.equal(DEFAULT_CACHE_MAX_BYTES, 256 * 1024 * 1024);
	});
});

describe("FactCache", () => {
	it("keeps no facts object it was given until the flush: a put's facts are its record line", async () => {
		setFlagsFromString("--expose-gc");
		const gc = runInNewContext("gc") as () => void;
		const { cache } = await setup();
		let given: FileFacts | undefined = facts("kept.ts", 3);
		const handle = new WeakRef(given);
		cache.put(keyOf("kept.ts"), given);
		given = undefined;
		// A function boundary: the object must not stay reachable from this frame's registers.
		await new Promise((resolve) => setImmediate(resolve));
		gc();
		assert.equal(handle.deref(), undefined, "the facts object is collectable while its record waits");
		assert.equal(cache.pendingCount, 1);
		assert.deepEqual(cache.pending(keyOf("kept.ts")), facts("kept.ts", 3));
		assert.deepEqual(await cache.get(keyOf("kept.ts")), facts("kept.ts", 3));
		await cache.flush();
		assert.equal(cache.stats.writes, 1);
	});

	it("keeps at most 200 bytes of heap per entry it placed in a segment, its key included", async () => {
		setFlagsFromString("--expose-gc");
		const gc = runInNewContext("gc") as () => void;
		let { cache } = await setup();
		const count = 4000;
		for (let i = 0; i < count; i++) cache.put(keyOf(`src/entries/file${i}.ts`), facts(`src/entries/file${i}.ts`));
		await cache.flush();
		assert.equal(cache.stats.writes, count);
		const held = await settledHeap(gc);
		cache = new FactCache(await temps.make(), { cacheDir: await temps.make() });
		const perEntry = (held - (await settledHeap(gc))) / count;
		assert.ok(perEntry <= 200, `${Math.round(perEntry)} bytes of heap per entry`);
	});

	it("round-trips facts through one segment per flush, readable by a new instance (a restart)", async () => {
		const { root, cacheDir, cache } = await setup();
		for (let i = 0; i < 100; i++) cache.put(keyOf(`f${i}.ts`), facts(`f${i}.ts`, 3));
		assert.deepEqual(await cache.get(keyOf("f7.ts")), facts("f7.ts", 3), "pending facts are visible before flush");
		await cache.flush();
		assert.equal(cache.stats.writes, 100);
		assert.equal(cache.stats.segmentsWritten, 1);
		assert.equal((await packFiles(cache)).length, 1);
		assert.equal(cache.size, 100);

		// The index save was not due yet (one small segment): the new instance finds the segment by scanning it.
		const reopened = new FactCache(root, { cacheDir });
		const got = await reopened.getMany([keyOf("f1.ts"), keyOf("f99.ts"), keyOf("nope.ts")]);
		assert.deepEqual(got.get(keyOf("f1.ts")), facts("f1.ts", 3));
		assert.deepEqual(got.get(keyOf("f99.ts")), facts("f99.ts", 3));
		assert.equal(got.has(keyOf("nope.ts")), false);
		assert.deepEqual([reopened.stats.hits, reopened.stats.misses], [2, 1]);

		// With the index saved, a restart reads it instead.
		await reopened.flush({ force: true });
		assert.equal(reopened.stats.indexSaves, 1);
		const third = new FactCache(root, { cacheDir });
		assert.deepEqual(await third.get(keyOf("f50.ts")), facts("f50.ts", 3));
	});

	it("reads a segment larger than its read window back whole, records across window edges and larger than it", async () => {
		const { root, cacheDir, cache } = await setup();
		// ~2.5 windows of records of uneven sizes (so edges fall inside records), one record larger than a window.
		const all = new Map<string, FileFacts>();
		for (let i = 0; i < 240; i++) {
			const path = `w${i}.ts`;
			const terms = "t".repeat(7_000 + ((i * 7_919) % 6_000));
			all.set(keyOf(path), { ...facts(path, 2), contentTerms: i === 120 ? "x".repeat(READ_WINDOW + 10) : terms });
		}
		for (const [key, value] of all) cache.put(key, value);
		await cache.flush({ force: true });
		const [pack] = await packFiles(cache);
		assert.ok((await stat(join(cache.dir, "packs", pack as string))).size > 2 * READ_WINDOW);
		const got = await new FactCache(root, { cacheDir }).getMany([...all.keys()]);
		assert.equal(got.size, all.size);
		for (const [key, value] of all) assert.deepEqual(got.get(key), value);
	});

	it("stores a key once: putting known facts again writes nothing", async () => {
		const { cache } = await setup();
		cache.put(keyOf("a.ts"), facts("a.ts"));
		await cache.flush();
		cache.put(keyOf("a.ts"), facts("a.ts"));
		await cache.flush();
		assert.equal(cache.stats.writes, 1);
		assert.equal(cache.stats.segmentsWritten, 1);
	});

	it("leaves no temp files behind and writes only inside its own directory", async () => {
		const { root, cacheDir, cache } = await setup();
		cache.put(keyOf("a.ts"), facts("a.ts"));
		await cache.flush({ force: true });
		await cache.saveManifest(new Map([["a.ts", { size: 1, mtimeMs: 2, ctimeMs: 2, hash: "h" }]]));
		assert.deepEqual(await readdir(root), []);
		assert.deepEqual(await readdir(cacheDir), [cache.dir.slice(cacheDir.length + 1)]);
		assert.deepEqual((await readdir(cache.dir)).sort(), ["index.json", "manifest.json", "packs"]);
		assert.equal((await readdir(join(cache.dir, "packs"))).filter((n) => n.startsWith(".tmp-")).length, 0);
		assert.equal((await stat(cache.dir)).mode & 0o777, 0o700);
	});

	it("ignores and removes a damaged segment: a miss, never a crash", async () => {
		const { root, cacheDir, cache } = await setup();
		for (let i = 0; i < 10; i++) cache.put(keyOf(`f${i}.ts`), facts(`f${i}.ts`));
		await cache.flush({ force: true });
		const [pack] = await packFiles(cache);
		assert.ok(pack !== undefined);
		const path = join(cache.dir, "packs", pack);
		const data = await readFile(path);
		data.fill(0x7b, 60, 160); // same length, garbage inside the records
		await writeFile(path, data);

		const reopened = new FactCache(root, { cacheDir });
		assert.equal(await reopened.get(keyOf("f0.ts")), undefined, "the damaged record is a miss");
		assert.equal(reopened.stats.corrupt, 1);
		assert.equal(await reopened.get(keyOf("f3.ts")), undefined, "nothing from a damaged file is trusted");
		assert.deepEqual(await packFiles(reopened), [], "the damaged segment is removed");
		assert.equal(reopened.size, 0);
		// And the cache keeps working.
		reopened.put(keyOf("f3.ts"), facts("f3.ts"));
		await reopened.flush();
		assert.deepEqual(await new FactCache(root, { cacheDir }).get(keyOf("f3.ts")), facts("f3.ts"));
	});

	it("ignores and removes a truncated segment and a damaged index", async () => {
		const { root, cacheDir, cache } = await setup();
		for (let i = 0; i < 10; i++) cache.put(keyOf(`f${i}.ts`), facts(`f${i}.ts`));
		await cache.flush({ force: true });
		const [pack] = await packFiles(cache);
		assert.ok(pack !== undefined);
		const size = (await stat(join(cache.dir, "packs", pack))).size;
		await truncate(join(cache.dir, "packs", pack), size - 20);
		await writeFile(join(cache.dir, "index.json"), '{"v":1,"segm');

		const reopened = new FactCache(root, { cacheDir });
		assert.equal(await reopened.get(keyOf("f0.ts")), undefined);
		assert.equal(reopened.stats.corrupt, 2, "the index and the segment");
		assert.deepEqual(await packFiles(reopened), []);
	});

	it("rebuilds a lost index from the segments", async () => {
		const { root, cacheDir, cache } = await setup();
		for (let i = 0; i < 5; i++) cache.put(keyOf(`f${i}.ts`), facts(`f${i}.ts`));
		await cache.flush({ force: true });
		await writeFile(join(cache.dir, "index.json"), "not json");
		const reopened = new FactCache(root, { cacheDir });
		assert.deepEqual(await reopened.get(keyOf("f4.ts")), facts("f4.ts"));
		assert.equal(reopened.size, 5);
	});

	it("evicts least recently used entries beyond maxEntries and rewrites their segments", async () => {
		const { root, cacheDir, cache } = await setup({ maxEntries: 10 });
		for (let i = 0; i < 8; i++) cache.put(keyOf(`old${i}.ts`), facts(`old${i}.ts`));
		await cache.flush();
		const [oldPack] = await packFiles(cache);
		// Use old0 so it is recent; the other old entries are the least recently used.
		assert.ok(await cache.get(keyOf("old0.ts")));
		for (let i = 0; i < 6; i++) cache.put(keyOf(`new${i}.ts`), facts(`new${i}.ts`));
		await cache.flush();
		assert.equal(cache.size, 9, "evicted to 90% of maxEntries");
		assert.equal(cache.stats.evictions, 5);
		assert.ok(await cache.get(keyOf("old0.ts")), "recently used survives");
		assert.ok(await cache.get(keyOf("new5.ts")), "newest survives");
		assert.equal(await cache.get(keyOf("old1.ts")), undefined, "least recently used is gone");
		const packs = await packFiles(cache);
		assert.equal(packs.length, 2, "the new segment, and the old one rewritten without its evicted records");
		assert.ok(oldPack !== undefined && !packs.includes(oldPack), "the old segment file is gone");

		const reopened = new FactCache(root, { cacheDir, maxEntries: 10 });
		assert.equal(await reopened.get(keyOf("old2.ts")), undefined);
		assert.ok(await reopened.get(keyOf("new0.ts")));
		assert.equal(reopened.size, 9);
	});

	it("keeps the bytes on disk under maxBytes", async () => {
		const maxBytes = 64 * 1024;
		const { cache } = await setup({ maxBytes });
		for (let round = 0; round < 6; round++) {
			for (let i = 0; i < 20; i++) cache.put(keyOf(`r${round}-${i}.ts`), facts(`r${round}-${i}.ts`, 20));
			await cache.flush();
			let onDisk = 0;
			for (const name of await packFiles(cache)) onDisk += (await stat(join(cache.dir, "packs", name))).size;
			assert.ok(onDisk <= maxBytes, `round ${round}: ${onDisk} bytes on disk`);
			assert.equal(onDisk, cache.bytes);
		}
		assert.ok(cache.stats.evictions > 0);
		assert.ok(await cache.get(keyOf("r5-19.ts")), "the newest facts are kept");
	});

	it("merges small segments so one-file flushes do not pile up files", async () => {
		const { cache } = await setup();
		for (let i = 0; i < 120; i++) {
			cache.put(keyOf(`f${i}.ts`), facts(`f${i}.ts`));
			await cache.flush();
		}
		assert.equal(cache.size, 120);
		assert.ok((await packFiles(cache)).length <= 48);
		const all = await cache.getMany(Array.from({ length: 120 }, (_, i) => keyOf(`f${i}.ts`)));
		assert.equal(all.size, 120);
	});

	it("persists the manifest atomically; a damaged one is ignored and removed", async () => {
		const { root, cacheDir, cache } = await setup();
		assert.equal(await cache.loadManifest(), undefined);
		const manifest = new Map<string, ManifestEntry>([
			["src/a.ts", { size: 10, mtimeMs: 1234.5, ctimeMs: 1300.25, hash: "ab".repeat(32) }],
			["src/gen.go", { size: 99, mtimeMs: 7, ctimeMs: 8, gap: "generated", racy: true }],
		]);
		await cache.saveManifest(manifest);
		assert.deepEqual(await new FactCache(root, { cacheDir }).loadManifest(), manifest);

		// The manifest of many files is written as its entries come (a few hundred rows a part), read back whole.
		const many = new Map<string, ManifestEntry>();
		for (let i = 0; i < 3 * ROWS_A_PART + 7; i++)
			many.set(`src/f${i}.ts`, { size: i, mtimeMs: i + 0.5, ctimeMs: i, hash: "cd".repeat(32) });
		let taken = 0;
		const counted = (function* () {
			for (const entry of many) {
				taken++;
				yield entry;
			}
		})();
		const parts: string[] = [];
		const takenAt: number[] = [];
		for (const part of manifestParts(root, counted)) {
			parts.push(part);
			takenAt.push(taken);
		}
		// Each part of rows is made having taken no entry beyond its own.
		for (const [i, n] of takenAt.slice(1, -1).entries())
			assert.ok(n <= (i + 1) * ROWS_A_PART, `part ${i + 1} took ${n}`);
		assert.equal(parts.length, 2 + 4);
		assert.equal(
			parts.join(""),
			JSON.stringify({
				v: 2,
				extractor: EXTRACTOR_VERSION,
				root,
				files: [...many].map(([path, e]) => [path, e.size, e.mtimeMs, e.ctimeMs, e.hash, null, 0]),
			}),
		);
		await cache.saveManifest(many);
		assert.deepEqual(await new FactCache(root, { cacheDir }).loadManifest(), many);
		// Another root's cache directory does not see it.
		assert.equal(await new FactCache(join(root, "x"), { cacheDir }).loadManifest(), undefined);

		await writeFile(join(cache.dir, "manifest.json"), '{"v":1,"extractor":1,"root":"');
		const reopened = new FactCache(root, { cacheDir });
		assert.equal(await reopened.loadManifest(), undefined);
		assert.equal(reopened.stats.corrupt, 1);
		assert.equal((await readdir(cache.dir)).includes("manifest.json"), false);
	});

	it("never writes inside the analysed root, even when told to", async () => {
		const root = await temps.make();
		const cache = new FactCache(root, { cacheDir: join(root, ".cache", "pi-fovea") });
		assert.ok(cache.disabled);
		cache.put(keyOf("a.ts"), facts("a.ts"));
		await cache.flush({ force: true });
		await cache.saveManifest(new Map([["a.ts", { size: 1, mtimeMs: 1, ctimeMs: 1, hash: "h" }]]));
		assert.equal(await cache.get(keyOf("a.ts")), undefined);
		assert.deepEqual(await readdir(root), []);
	});
});

/**
 * The heap in use once what a flush's file writes hold until their callbacks run is gone: collected until two
 * readings 10 ms apart agree within 4 KB (on a loaded machine a write finished after one tick or several, and the
 * measure moved by ~50 bytes an entry with it).
 */
async function settledHeap(gc: () => void): Promise<number> {
	let last = Number.NaN;
	for (let round = 0; round < 50; round++) {
		await new Promise((resolve) => setTimeout(resolve, 10));
		gc();
		gc();
		const used = process.memoryUsage().heapUsed;
		if (Math.abs(used - last) < 4096) return used;
		last = used;
	}
	return last;
}
