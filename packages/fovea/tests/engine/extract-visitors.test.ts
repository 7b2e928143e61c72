/**
 * The extract pool's hand-over of work to its threads (`engine/extract/pool.ts`, `tree-visitor.ts`,
 * `worker-service.ts`) with real worker threads and grammars: a call whose main thread has other work first
 * (`mainAfter`) is the workers' alone until then; a job's tree visitor runs in whichever thread extracts it, its
 * result reaching the caller (`onVisited`) beside facts equal to plain extraction's; the caller's own parse takes the
 * main thread's share (`here`); a thread without the visitor registered gives the facts only.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { ExtractJob } from "../../src/engine/extract/job.ts";
import { ExtractPool } from "../../src/engine/extract/pool.ts";
import type { FileFacts } from "../../src/engine/model/facts.ts";
import { type Extractor, loadExtractor } from "../../src/engine/parse/parser.ts";
import { registerTestVisitors } from "../support/test-visitors.ts";

const VISITING_WORKER = new URL("../support/visiting-worker.ts", import.meta.url);
const PLAIN_WORKER = new URL("../../src/engine/extract/worker.ts", import.meta.url);

let extractor: Extractor;
const pools: ExtractPool[] = [];

function pool(script: URL): ExtractPool {
	const created = new ExtractPool({ threads: 1, startJobs: 0, idleMs: 60_000, script });
	pools.push(created);
	return created;
}

/** `count` TypeScript files of `n + 3` lines each, naming the visitor `visit`. */
function jobs(count: number, visit?: string): ExtractJob[] {
	return Array.from({ length: count }, (_, n) => ({
		path: `src/f${n}.ts`,
		language: "typescript" as const,
		source: `export function f${n}(x: number): number {\n${"\tx += 1;\n".repeat(n)}\treturn x;\n}\n`,
		contentTerms: false,
		...(visit === undefined ? {} : { visit, visitWith: { n } }),
	}));
}

const plain = (list: readonly ExtractJob[]) =>
	list.map((job) => extractor.extract(job.path, job.source, job.language, { contentTerms: false }));

/** The facts without their hash-independent identity: the fields extraction fills. */
const facts = (results: readonly (FileFacts | Error)[]) =>
	results.map((result) => (result instanceof Error ? result.message : result));

before(async () => {
	extractor = await loadExtractor(["typescript"]);
	registerTestVisitors();
});

after(() => {
	for (const created of pools) created.close();
});

describe("extract pool hand-over", () => {
	it("leaves a call to the worker until the main thread may join, and runs each job's visitor where it is parsed", async () => {
		const shared = pool(VISITING_WORKER);
		await shared.warm(["typescript"]);
		const list = jobs(12, "rows");
		const seen = new Map<number, unknown>();
		// The main thread never joins: every job is the worker's.
		const results = await shared.extract(extractor, list, {
			mainAfter: new Promise(() => {}),
			onVisited: (index, visited) => seen.set(index, visited),
		});
		assert.deepEqual(facts(results), plain(list));
		assert.deepEqual([shared.stats.jobsByWorkers, shared.stats.jobsByMain], [12, 0]);
		assert.deepEqual(
			[...seen].sort((a, b) => a[0] - b[0]).map(([, visited]) => visited),
			list.map((job, n) => ({ rows: n + 3, symbols: 1, path: job.path, extra: { n }, main: false })),
		);
	});

	it("runs the visitor on the main thread's share too, or the caller's own parse when it takes the job", async () => {
		const shared = pool(VISITING_WORKER);
		const list = jobs(6, "rows");
		const seen = new Map<number, unknown>();
		// No worker runs: the main thread takes every job, once `mainAfter` settles.
		let joined = false;
		const results = await shared.extract(extractor, list, {
			mainAfter: new Promise<void>((resolve) =>
				setTimeout(() => {
					joined = true;
					resolve();
				}, 20),
			),
			onVisited: (index, visited) => {
				assert.ok(joined, "no job is taken before the main thread may join");
				seen.set(index, visited);
			},
			here: (job) => (job.path === "src/f0.ts" ? extractor.extract(job.path, job.source, job.language) : undefined),
		});
		assert.equal(shared.stats.jobsByMain, 6);
		assert.deepEqual(facts(results).slice(1), plain(list).slice(1));
		assert.deepEqual(
			[...seen.keys()].sort(),
			[1, 2, 3, 4, 5],
			"the caller's own parse of f0 reports no visit; the rest are visited here",
		);
		assert.equal((seen.get(3) as { main: boolean }).main, true);
	});

	it("gives the facts alone where the visitor is not registered or reports nothing", async () => {
		const shared = pool(PLAIN_WORKER);
		await shared.warm(["typescript"]);
		const seen: unknown[] = [];
		const list = [...jobs(4, "rows"), ...jobs(4, "nothing")];
		const results = await shared.extract(extractor, list, {
			mainAfter: new Promise(() => {}),
			onVisited: (_, visited) => seen.push(visited),
		});
		assert.deepEqual(facts(results), plain(list));
		assert.equal(shared.stats.jobsByWorkers, 8);
		assert.deepEqual(seen, [], "the plain worker has no visitor; `nothing` returns nothing");
	});
});
