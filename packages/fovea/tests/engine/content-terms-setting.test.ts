/**
 * A process that turns content terms off (`useContentTerms(false)`, as the contour CLI does) extracts facts without
 * them, on the main thread and in parsing threads alike, and caches them under keys of their own: a process that
 * ranks by text, on the same fact cache, parses the files again instead of taking incomplete facts.
 */
import assert from "node:assert/strict";
import { after, afterEach, describe, it } from "node:test";
import { FactCache } from "../../src/engine/cache/fact-cache.ts";
import { factKey } from "../../src/engine/cache-location.ts";
import { ExtractPool } from "../../src/engine/extract/pool.ts";
import { loadExtractor } from "../../src/engine/parse/parser.ts";
import { CodeIndex } from "../../src/engine/refresh/code-index.ts";
import { countsContentTerms, useContentTerms } from "../../src/engine/terms/content.ts";
import { makeTempDir, removeTempDir, writeTree } from "../support/temp-tree.ts";

const temps: string[] = [];
const pools: ExtractPool[] = [];
afterEach(() => useContentTerms(true));
after(async () => {
	for (const pool of pools) pool.close();
	await Promise.all(temps.map(removeTempDir));
});

async function temp(): Promise<string> {
	const dir = await makeTempDir();
	temps.push(dir);
	return dir;
}

const SOURCE = "/** Retries the upload. */\nexport function retryUpload(token: string): void {}\n";

describe("useContentTerms", () => {
	it("is on by default; off, the extractor leaves them out unless a call asks, and keys differ", async () => {
		assert.equal(countsContentTerms(), true);
		const extractor = await loadExtractor(["typescript"]);
		const withTerms = factKey("h", "a.ts", "typescript");
		assert.ok(extractor.extract("a.ts", SOURCE).contentTerms?.includes("upload"));
		useContentTerms(false);
		assert.equal(extractor.extract("a.ts", SOURCE).contentTerms, undefined);
		assert.ok(extractor.extract("a.ts", SOURCE, undefined, { contentTerms: true }).contentTerms?.includes("retry"));
		assert.notEqual(factKey("h", "a.ts", "typescript"), withTerms);
	});

	it("a parsing thread follows the job, not its own default", async () => {
		const extractor = await loadExtractor(["typescript"]);
		const pool = new ExtractPool({ threads: 1, startJobs: 0, minJobs: 1, idleMs: 60_000 });
		pools.push(pool);
		await pool.warm(["typescript"]);
		// Jobs long enough that the main thread cannot finish them all before the warm worker claims one.
		const jobs = Array.from({ length: 48 }, (_, i) => ({
			path: `f${i}.ts`,
			language: "typescript" as const,
			source: SOURCE.repeat(200),
			contentTerms: i % 2 === 0,
		}));
		const results = await pool.extract(extractor, jobs);
		assert.ok(pool.stats.jobsByWorkers > 0, "the worker took jobs");
		results.forEach((result, i) => {
			assert.ok(!(result instanceof Error));
			assert.equal(result.contentTerms !== undefined, i % 2 === 0, `job ${i}`);
		});
	});

	it("a process that counts them does not take facts cached without them", async () => {
		const root = await temp();
		const cacheDir = await temp();
		await writeTree(root, { "src/a.ts": SOURCE, "src/b.ts": "export const b = 1;\n" });
		const refresh = async () => {
			const cache = new FactCache(root, { cacheDir });
			const index = new CodeIndex(root, { cache });
			const snapshot = await index.refresh();
			await index.flush();
			return { snapshot, parsed: index.stats.filesParsed };
		};
		useContentTerms(false);
		const without = await refresh();
		assert.equal(without.parsed, 2);
		assert.equal(without.snapshot.files.get("src/a.ts")?.contentTerms, undefined);
		assert.equal((await refresh()).parsed, 0, "cached, for a process that counts none");
		useContentTerms(true);
		const counted = await refresh();
		assert.equal(counted.parsed, 2, "parsed again rather than taken without content terms");
		assert.ok(counted.snapshot.files.get("src/a.ts")?.contentTerms?.includes("upload"));
		assert.equal((await refresh()).parsed, 0);
	});
});
