/**
 * The whole root is mapped, and memory, not a count of files, bounds the index (`refresh/fact-budget.ts`):
 * - a walk lists every file of a root past the 20,000 files it once stopped at, and says nothing was cut;
 * - with a small fact budget every file is still indexed; the facts kept whole stay within the budget, the rest are
 *   summaries (no call sites, no content terms), the account equals the facts resident, and answers and
 *   `IndexSnapshot.summarized` say how many files were summarized;
 * - a one-file refresh and a restart from the fact cache keep the same account;
 * - with a fact cache, summaries page their symbols' signatures out (less resident than the same summaries without a
 *   cache, which keep them) and answers read back the ones they show: the same text and items as without paging.
 * Bounds are asserted as work counts and estimated bytes, never timings.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { FactCache } from "../../src/engine/cache/index.ts";
import { factKey } from "../../src/engine/cache-location.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import type { FileFacts } from "../../src/engine/model/index.ts";
import { MAX_PAGED, PAGED_OUT, pagedSignatureCount } from "../../src/engine/model/index.ts";
import { CodeIndex } from "../../src/engine/refresh/code-index.ts";
import { factBytes, isSummary, summarize } from "../../src/engine/refresh/fact-budget.ts";
import type { IndexSnapshot } from "../../src/engine/refresh/snapshot.ts";
import { MANIFEST_CHUNK } from "../../src/engine/refresh/update-states.ts";
import { scanRoot } from "../../src/engine/scan/index.ts";
import { writeChainedTree } from "../support/generated-tree.ts";
import { tempDirs } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

/** Estimated bytes of the facts a snapshot holds, and of those kept whole. */
function accounted(snapshot: IndexSnapshot): { all: number; whole: number; summaries: number } {
	let all = 0;
	let whole = 0;
	let summaries = 0;
	for (const facts of snapshot.files.values()) {
		all += factBytes(facts);
		if (isSummary(facts)) summaries++;
		else whole += factBytes(facts);
	}
	return { all, whole, summaries };
}

describe("the whole root is mapped within a memory budget", () => {
	it("a walk lists every file past 20,000, with nothing cut", async () => {
		const root = await writeChainedTree(await temps.make(), 20_150, false);
		const scan = await scanRoot(root);
		assert.equal(scan.files.length, 20_150);
		assert.equal(scan.truncated, false);
		assert.equal(scan.stats.filesStatted, 20_150);
	});

	it("keeps every file, summarizes past the budget, accounts exactly and says so", async () => {
		const root = await writeChainedTree(await temps.make(), 300);
		const budget = 200 * 1024;
		const cacheDir = await temps.make();
		const map = new CodeMap(root, { cache: new FactCache(root, { cacheDir }), factBudgetBytes: budget });
		const answer = await map.focus({ text: "ledger reconciliation" }, 1500);
		const snapshot = answer.snapshot;
		assert.equal(snapshot.files.size, 300, "no file is left out");
		assert.equal(snapshot.truncated, false);
		const { all, whole, summaries } = accounted(snapshot);
		assert.ok(summaries > 0 && summaries < 300, `summarized ${summaries}`);
		assert.equal(snapshot.summarized, summaries);
		assert.ok(whole <= budget, `whole facts ${whole} within ${budget}`);
		assert.equal(map.index.residentFacts.bytes, all, "the account is the facts resident");
		let summaryBytes = 0;
		// Summaries hold no call sites of their own: every one shares the same empty, frozen columns.
		const summaryCalls = new Set<unknown>();
		for (const facts of snapshot.files.values()) {
			if (!isSummary(facts)) continue;
			summaryCalls.add(facts.calls);
			assert.ok(Object.isFrozen(facts.calls.callee));
			assert.equal(facts.calls.callee.length, 0);
			assert.equal(facts.contentTerms, undefined);
			assert.ok(facts.symbols.length > 0 && facts.imports.length > 0, "names and imports stay");
			summaryBytes = Math.max(summaryBytes, factBytes(facts));
		}
		assert.ok(summaryBytes < whole / (300 - summaries), "a summary is smaller than a whole file's facts");
		assert.equal(summaryCalls.size, 1, "one set of empty call sites for every summary");
		assert.match(answer.text, new RegExp(`${summaries} files are kept summarized to fit the memory budget`));

		// A one-file refresh keeps the account exact.
		const first = [...snapshot.files.keys()].find((path) => !isSummary(snapshot.files.get(path) as never)) as string;
		await writeFile(join(root, first), "export function tiny() {}\n");
		const edited = await map.index.refresh({ paths: [first] });
		assert.equal(edited.files.size, 300);
		assert.equal(map.index.residentFacts.bytes, accounted(edited).all);
		assert.equal(edited.summarized, accounted(edited).summaries);
		await map.index.flush();

		// A restart takes the facts from the cache, parses nothing, and holds the same budget.
		const restarted = new CodeIndex(root, { cache: new FactCache(root, { cacheDir }), factBudgetBytes: budget });
		const again = await restarted.refresh();
		assert.equal(restarted.stats.filesParsed, 0);
		assert.equal(again.files.size, 300);
		assert.ok(again.summarized > 0);
		assert.ok(accounted(again).whole <= budget);
		assert.equal(restarted.residentFacts.bytes, accounted(again).all);
	});

	it("pages summaries' signatures out, and answers read back the ones they show", async () => {
		const root = await writeChainedTree(await temps.make(), 300);
		const budget = 200 * 1024;
		const pagingCache = await temps.make();
		const paging = new CodeMap(root, {
			cache: new FactCache(root, { cacheDir: pagingCache }),
			factBudgetBytes: budget,
		});
		// Without a cache there is nothing to read signatures back from: summaries keep them.
		const keeping = new CodeMap(root, { cache: false, factBudgetBytes: budget });
		const queries = ["ledger reconciliation", "step250 settle", "reconcile290 refund duplicates"];
		for (const text of queries) {
			const paged = await paging.focus({ text }, 1500);
			const kept = await keeping.focus({ text }, 1500);
			assert.equal(paged.text, kept.text, `the same answer to "${text}"`);
			assert.deepEqual(paged.symbols, kept.symbols);
		}
		const impactPaged = await paging.impact({ files: ["pkg2/f250.ts"], symbols: [] }, 1500);
		const impactKept = await keeping.impact({ files: ["pkg2/f250.ts"], symbols: [] }, 1500);
		assert.equal(impactPaged.text, impactKept.text);
		assert.deepEqual(impactPaged.symbols, impactKept.symbols);
		assert.ok(paging.stats.signaturePages.signaturesRead > 0, "signatures of summarized files were read back");
		assert.equal(keeping.stats.signaturePages.filesRead, 0);

		const pagedSnapshot = paging.index.snapshot as IndexSnapshot;
		const keptSnapshot = keeping.index.snapshot as IndexSnapshot;
		assert.equal(pagedSnapshot.summarized, keptSnapshot.summarized);
		assert.ok(pagedSnapshot.summarized > 0);
		let signatureBytes = 0;
		for (const [path, facts] of pagedSnapshot.files) {
			if (!isSummary(facts)) continue;
			for (const symbol of facts.symbols) assert.equal(symbol.signature, PAGED_OUT, `${path} ${symbol.name}`);
			// A TypeScript import's names are read by no resolution: a summary keeps none.
			for (const imported of facts.imports) assert.equal(imported.names, undefined);
			for (const symbol of (keptSnapshot.files.get(path) as FileFacts).symbols) {
				assert.notEqual(symbol.signature, PAGED_OUT);
				signatureBytes += symbol.signature.length;
			}
		}
		// What summaries leave out links nothing: their files import what the whole facts import.
		const whole = new CodeMap(root, { cache: false });
		const { graph: wholeGraph } = await whole.refresh({ paths: [] });
		const { graph: pagedGraph } = await paging.refresh({ paths: [] });
		assert.equal((await whole.index.refresh()).summarized, 0);
		assert.equal(pagedGraph.graph.edgeCounts.imports, wholeGraph.graph.edgeCounts.imports);
		assert.ok(wholeGraph.graph.edgeCounts.imports >= 299);
		// The cache keeps every file's whole facts, signatures included, to read them back from.
		await paging.index.flush();
		const summarized = [...pagedSnapshot.files.values()].filter(isSummary);
		const stored = await new FactCache(root, { cacheDir: pagingCache }).getMany(
			summarized.map((facts) => factKey(facts.hash, facts.path, facts.language, true)),
		);
		assert.equal(stored.size, summarized.length);
		for (const facts of stored.values()) assert.ok(facts.symbols.every((symbol) => symbol.signature.length > 0));
		// Bytes resident: the summaries hold none of their signatures' characters.
		const paged = paging.index.residentFacts.bytes;
		const kept = keeping.index.residentFacts.bytes;
		assert.ok(kept - paged >= signatureBytes, `paged ${paged}, kept ${kept}, signatures ${signatureBytes}`);
	});

	it("summarizes facts it owns in place and copies those held elsewhere; keeps a bounded store of read-back signatures", async () => {
		const root = await writeChainedTree(await temps.make(), 3);
		const facts = (await new CodeIndex(root, { cache: false }).refresh()).files.get("pkg0/f1.ts") as FileFacts;
		const signatures = facts.symbols.map((symbol) => symbol.signature);
		assert.deepEqual(facts.imports[0]?.names, ["step0"]);
		const copied = summarize(facts, true, false);
		assert.deepEqual(facts.imports[0]?.names, ["step0"], "facts held elsewhere keep their imported names");
		assert.equal(copied.imports[0]?.names, undefined);
		assert.deepEqual(
			facts.symbols.map((symbol) => symbol.signature),
			signatures,
			"facts held elsewhere are not changed",
		);
		assert.notEqual(copied.symbols, facts.symbols);
		assert.ok(copied.symbols.every((symbol) => symbol.signature === PAGED_OUT));
		const owned = summarize(facts, true, true);
		assert.equal(owned.symbols, facts.symbols, "owned facts keep their symbols");
		assert.equal(owned.imports, facts.imports);
		assert.equal(owned.imports[0]?.names, undefined);
		assert.ok(owned.symbols.every((symbol) => symbol.signature === PAGED_OUT));
		assert.equal(summarize(owned, true, true), owned);
		assert.ok(pagedSignatureCount() <= MAX_PAGED);
	});

	it("a restart takes facts from the cache a segment's worth at a time, never every file's at once", async () => {
		const files = MANIFEST_CHUNK + 100;
		const root = await writeChainedTree(await temps.make(), files, false);
		const cacheDir = await temps.make();
		// Files just written are racy (re-read, not taken from the manifest): none is, here.
		const cold = new CodeIndex(root, { cache: new FactCache(root, { cacheDir }), racyWindowMs: 0 });
		await cold.refresh();
		await cold.flush();
		/** The real cache, recording how many facts each lookup asked for. */
		class CountingCache extends FactCache {
			readonly asked: number[] = [];
			override getMany(keys: readonly string[]): Promise<Map<string, FileFacts>> {
				this.asked.push(keys.length);
				return super.getMany(keys);
			}
		}
		const cache = new CountingCache(root, { cacheDir });
		const restarted = new CodeIndex(root, { cache, racyWindowMs: 0 });
		const snapshot = await restarted.refresh();
		assert.equal(snapshot.files.size, files);
		assert.equal(restarted.stats.filesParsed, 0);
		assert.equal(restarted.stats.cacheHits, files);
		assert.deepEqual(cache.asked, [MANIFEST_CHUNK, 100]);
	});

	it("a root larger than the fact cache's bounds keeps all its facts there, and restarts without parsing", async () => {
		const root = await writeChainedTree(await temps.make(), 60);
		const cacheDir = await temps.make();
		const bounded = () => new FactCache(root, { cacheDir, maxEntries: 20 });
		// Files just written are racy and read again; none is, here.
		const cold = new CodeIndex(root, { cache: bounded(), racyWindowMs: 0 });
		await cold.refresh();
		await cold.flush();
		assert.equal(cold.cache?.stats.evictions, 0);
		assert.ok((cold.cache?.bounds.maxEntries ?? 0) >= 60);
		const restarted = new CodeIndex(root, { cache: bounded(), racyWindowMs: 0 });
		await restarted.refresh();
		assert.equal(restarted.stats.filesParsed, 0);
		assert.equal(restarted.stats.cacheHits, 60);
	});

	it("summarizes nothing when the facts fit", async () => {
		const root = await writeChainedTree(await temps.make(), 50);
		const index = new CodeIndex(root, { cache: false });
		const snapshot = await index.refresh();
		assert.equal(snapshot.summarized, 0);
		assert.equal(snapshot.files.size, 50);
		assert.equal(index.residentFacts.bytes, accounted(snapshot).all);
	});
});
