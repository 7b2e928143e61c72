/**
 * Counting content terms is an option of each code map (`contentTerms`, default on), not a process setting: the
 * contour CLI's map turns it off while a map that ranks by words, in the same process and on the same root and fact
 * cache, keeps it. Its facts leave them out, on the main thread and in parsing threads alike, and are cached under
 * keys of their own, so neither map takes the other's facts.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { FactCache } from "../../src/engine/cache/fact-cache.ts";
import { factKey } from "../../src/engine/cache-location.ts";
import { ExtractPool } from "../../src/engine/extract/pool.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { loadExtractor } from "../../src/engine/parse/parser.ts";
import { CodeIndex } from "../../src/engine/refresh/code-index.ts";
import { tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
const pools: ExtractPool[] = [];
after(async () => {
	for (const pool of pools) pool.close();
	await temps.removeAll();
});

const SOURCE = "/** Retries the upload. */\nexport function retryUpload(token: string): void {}\n";

describe("the contentTerms option", () => {
	it("the extractor counts them unless a call says not to, and the cache keys differ", async () => {
		const extractor = await loadExtractor(["typescript"]);
		assert.ok(extractor.extract("a.ts", SOURCE).contentTerms?.includes("upload"));
		assert.equal(extractor.extract("a.ts", SOURCE, undefined, { contentTerms: false }).contentTerms, undefined);
		assert.notEqual(factKey("h", "a.ts", "typescript", false), factKey("h", "a.ts", "typescript", true));
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

	it("two maps of one root in one process differ, and neither takes the other's cached facts", async () => {
		const root = await temps.make();
		const cacheDir = await temps.make();
		await writeTree(root, {
			"src/a.ts": SOURCE,
			"src/store.ts": "/** Persists the invoice ledger. */\nexport function save(): void {}\n",
			"src/b.ts": "export const b = 1;\n",
		});
		const open = (options: { contentTerms?: boolean }) =>
			new CodeMap(root, { cache: new FactCache(root, { cacheDir }), ...options });
		const parsedBy = async (map: CodeMap) => {
			const { snapshot } = await map.refresh();
			await map.index.flush();
			return { snapshot, parsed: map.index.stats.filesParsed };
		};
		const without = open({ contentTerms: false });
		const counting = open({});
		const first = await parsedBy(without);
		assert.equal(first.parsed, 3);
		for (const facts of first.snapshot.files.values()) assert.equal(facts.contentTerms, undefined, facts.path);
		const second = await parsedBy(counting);
		assert.equal(second.parsed, 3, "parsed again rather than taken without content terms");
		assert.ok(second.snapshot.files.get("src/a.ts")?.contentTerms?.includes("upload"));
		const answer = await counting.focus({ text: "ledger" }, 1500);
		assert.equal(answer.files[0]?.file, "src/store.ts", answer.text);
		// Each variant is cached: fresh maps of either kind parse nothing.
		assert.equal((await parsedBy(open({ contentTerms: false }))).parsed, 0);
		assert.equal((await parsedBy(open({}))).parsed, 0);
		await without.close();
		await counting.close();
	});

	it("offered facts are taken as the index extracts them: terms dropped where none are counted, else required", async () => {
		const root = await temps.make();
		await writeTree(root, { "src/a.ts": SOURCE });
		const extractor = await loadExtractor(["typescript"]);
		const refreshed = async (contentTerms: boolean, offered: boolean) => {
			const index = new CodeIndex(root, { cache: new FactCache(root, { cacheDir: await temps.make() }), contentTerms });
			index.offer(extractor.extract("src/a.ts", SOURCE, undefined, { contentTerms: offered }));
			const snapshot = await index.refresh();
			return { facts: snapshot.files.get("src/a.ts"), parsed: index.stats.filesParsed };
		};
		const stripped = await refreshed(false, true);
		assert.equal(stripped.parsed, 0, "the offered facts spared the parse");
		assert.equal(stripped.facts?.contentTerms, undefined);
		const refused = await refreshed(true, false);
		assert.equal(refused.parsed, 1, "facts without content terms are not taken by an index that counts them");
		assert.ok(refused.facts?.contentTerms?.includes("upload"));
		assert.equal((await refreshed(true, true)).parsed, 0);
	});
});
