/**
 * The extract pool (`engine/extract/pool.ts`, `engine/extract/run.ts`, `engine/extract/worker.ts`,
 * `engine/extract/thread-count.ts`) with real worker threads and real grammars: the same facts as the main thread on a
 * mixed-language set (with a syntax error and an unsupported language), results in job order, no worker for small
 * calls, custom extractors or FOVEA_EXTRACT_THREADS=0, the finished prefix on abort, jobs of a lost or never-started
 * worker extracted on the main thread, and processes that exit as soon as their own work is done.
 */
import assert from "node:assert/strict";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { bundleStandsForSources } from "../../bin/launch.js";
import type { ExtractJob } from "../../src/engine/extract/job.ts";
import { extractMany } from "../../src/engine/extract/many.ts";
import { ExtractPool } from "../../src/engine/extract/pool.ts";
import { extractThreads, MAX_EXTRACT_THREADS } from "../../src/engine/extract/thread-count.ts";
import { defaultWorkerScript } from "../../src/engine/extract/worker-script.ts";
import type { FileFacts, LanguageId } from "../../src/engine/model/facts.ts";
import { LANGUAGES } from "../../src/engine/model/languages.ts";
import { type Extractor, loadExtractor } from "../../src/engine/parse/parser.ts";
import { sharedExtractPool } from "../../src/engine/shared-extract-pool.ts";
import { runNode } from "../support/run-node.ts";
import { tempDirs } from "../support/temp-tree.ts";

const SOURCES: Record<string, { language: LanguageId; source: (n: number) => string }> = {
	"src/app.ts": {
		language: "typescript",
		source: (n) => `import { helper } from "./util.ts";
export class Service${n} extends Base {
	run(input: string): number {
		return helper(input).length + ${n};
	}
}
export function start${n}(): void {
	new Service${n}().run("x");
}
`,
	},
	"src/view.tsx": {
		language: "tsx",
		source: (n) => `import { h } from "./h.ts";
export function View${n}(props: { title: string }) {
	return <div title={props.title}>{format(${n})}</div>;
}
`,
	},
	"lib/mod.py": {
		language: "python",
		source: (n) => `from .base import Base

class Model${n}(Base):
    def save(self, value):
        return store(value, ${n})

def load_${n}(path):
    return Model${n}().save(path)
`,
	},
	"cmd/main.go": {
		language: "go",
		source: (n) => `package main

import "example.com/shop/util"

type Server${n} struct{}

func (s *Server${n}) Serve() int {
	return util.Count(${n})
}

func main() { (&Server${n}{}).Serve() }
`,
	},
	"src/lib.rs": {
		language: "rust",
		source: (n) => `use crate::util::count;

pub struct Cart${n} { items: Vec<u32> }

impl Cart${n} {
    pub fn total(&self) -> u32 { count(&self.items) + ${n} }
}
`,
	},
	"src/main/java/shop/Order.java": {
		language: "java",
		source: (n) => `package shop;

import shop.util.Money;

public class Order${n} extends Base implements Priced {
    public int price() { return Money.of(${n}).cents(); }
}
`,
	},
	"src/broken.ts": {
		language: "typescript",
		source: (n) => `export function broken${n}( {\n\treturn call(${n};\n}\n`,
	},
	"docs/notes.cob": {
		language: "cobol" as LanguageId, // an unsupported language: the job's result is an error
		source: (n) => `IDENTIFICATION DIVISION. ${n}\n`,
	},
};

/** `copies` variants of every source, interleaved so each run mixes languages. */
function mixedJobs(copies: number): ExtractJob[] {
	const jobs: ExtractJob[] = [];
	for (let n = 0; n < copies; n++) {
		for (const [path, { language, source }] of Object.entries(SOURCES)) {
			jobs.push({ path: path.replace(/(\.\w+)$/, `${n}$1`), language, source: source(n) });
		}
	}
	return jobs;
}

/** What the main thread alone gives for `jobs`. */
function direct(extractor: Extractor, jobs: readonly ExtractJob[]): (FileFacts | string)[] {
	return jobs.map((job) => {
		try {
			return extractor.extract(job.path, job.source, job.language);
		} catch (error) {
			return (error as Error).message;
		}
	});
}

const comparable = (results: readonly (FileFacts | Error)[]) =>
	results.map((result) => (result instanceof Error ? result.message : result));

let extractor: Extractor;
const pools: ExtractPool[] = [];
const temps = tempDirs();

/** The worker's sources: the unit tests run them, whether or not the checkout's bundle is current. */
const SOURCE_WORKER = new URL("../../src/engine/extract/worker.ts", import.meta.url);
const PACKAGE_DIR = new URL("../../", import.meta.url);

/**
 * A pool that every test closes afterwards: one thread that any shared call may start, and a long idle time so no
 * worker retires mid-test.
 */
function pool(options: ConstructorParameters<typeof ExtractPool>[0] = {}): ExtractPool {
	const created = new ExtractPool({ threads: 1, startJobs: 0, idleMs: 60_000, script: SOURCE_WORKER, ...options });
	pools.push(created);
	return created;
}

before(async () => {
	extractor = await loadExtractor([...LANGUAGES]);
});

after(async () => {
	for (const created of pools) created.close();
	await temps.removeAll();
});

describe("extract pool", () => {
	it("gives the main thread's facts, in job order, with the work shared between both threads", async () => {
		const jobs = mixedJobs(40);
		const expected = direct(extractor, jobs);
		assert.ok(
			expected.some((r) => typeof r !== "string" && r.parseErrors > 0),
			"the set has a syntax error",
		);
		assert.ok(expected.some((r) => typeof r === "string" && r.includes("unsupported language")));
		const shared = pool();
		await shared.warm(LANGUAGES);
		let finished = 0;
		const results = await shared.extract(extractor, jobs, { onEach: () => finished++ });
		assert.deepEqual(comparable(results), expected);
		assert.equal(finished, jobs.length, "onEach once per job");
		const { workersStarted, jobsByWorkers, jobsByMain, recoveredJobs, workerFailures } = shared.stats;
		assert.deepEqual(
			{ workersStarted, recoveredJobs, workerFailures },
			{ workersStarted: 1, recoveredJobs: 0, workerFailures: 0 },
		);
		assert.ok(jobsByWorkers > 0 && jobsByMain > 0, `both threads extracted (${jobsByWorkers} / ${jobsByMain})`);
		assert.equal(jobsByWorkers + jobsByMain, jobs.length);

		// The worker stays for the next call.
		const again = await shared.extract(extractor, jobs.slice(0, 60));
		assert.deepEqual(comparable(again), expected.slice(0, 60));
		assert.equal(shared.stats.workersStarted, 1);
	});

	it("runs the package's bundled worker while the bundle is current, else the sources'", () => {
		const engine = new URL("../../src/engine/extract/pool.ts", import.meta.url).href;
		const bundled = new URL("dist/extract-worker.js", PACKAGE_DIR).href;
		assert.equal(defaultWorkerScript(engine, () => true).href, bundled);
		assert.equal(defaultWorkerScript(engine, () => false).href, SOURCE_WORKER.href);
		const unreadable = () => {
			throw new Error("EACCES");
		};
		assert.equal(defaultWorkerScript(engine, unreadable).href, SOURCE_WORKER.href);
		// A bundled engine (a CLI) names its worker itself; its default stays beside it.
		const cli = new URL("dist/cli.js", PACKAGE_DIR).href;
		assert.equal(defaultWorkerScript(cli, () => true).href, new URL("dist/worker.ts", PACKAGE_DIR).href);
		assert.equal(defaultWorkerScript().href, bundleStandsForSources(PACKAGE_DIR) ? bundled : SOURCE_WORKER.href);
	});

	it("the bundled worker extracts as the sources do", {
		skip: bundleStandsForSources(PACKAGE_DIR) ? false : "the checkout's bundle is not current (npm run build)",
	}, async () => {
		const jobs = mixedJobs(20);
		const bundled = pool({ script: new URL("dist/extract-worker.js", PACKAGE_DIR) });
		await bundled.warm(LANGUAGES);
		assert.deepEqual(comparable(await bundled.extract(extractor, jobs)), direct(extractor, jobs));
		assert.ok(bundled.stats.jobsByWorkers > 0, "the bundled worker took part");
		assert.equal(bundled.stats.workerFailures, 0);
	});

	it("retires idle workers as soon as a call marked last is over, not after their idle time", async () => {
		const jobs = mixedJobs(20);
		const shared = pool();
		await shared.warm(LANGUAGES);
		assert.deepEqual(comparable(await shared.extract(extractor, jobs)), direct(extractor, jobs));
		assert.equal(shared.liveWorkers, 1, "an ordinary call leaves its worker for the next one");
		assert.deepEqual(comparable(await shared.extract(extractor, jobs, { last: true })), direct(extractor, jobs));
		assert.ok(shared.stats.jobsByWorkers > 0, "the worker took part");
		assert.equal(shared.liveWorkers, 0, "the last call's worker retires at once (idle time 60 s)");
		for (let i = 0; i < 200 && shared.stats.workersRetired === 0; i++) await new Promise((r) => setTimeout(r, 10));
		assert.deepEqual([shared.stats.workersRetired, shared.stats.workerFailures], [1, 0]);
	});

	it("keeps its worker between the calls of one refresh for longer than its idle time, while more jobs follow", async () => {
		const jobs = mixedJobs(20);
		const shared = pool({ idleMs: 30 });
		await shared.warm(LANGUAGES);
		const pause = () => new Promise((resolve) => setTimeout(resolve, 120));
		// Reading the next batch can outlast the idle time (a busy machine): the worker stays for it.
		await pause();
		await shared.extract(extractor, jobs, { expected: 3 * jobs.length });
		await pause();
		await shared.extract(extractor, jobs, { expected: 2 * jobs.length });
		await pause();
		await shared.extract(extractor, jobs, { expected: jobs.length, last: true });
		assert.ok(shared.stats.jobsByWorkers > 0, "the worker took part");
		assert.equal(shared.stats.workersStarted, 1, "one worker for the whole refresh");
		assert.equal(shared.liveWorkers, 0, "the last call retires it");
		// Without more jobs expected, the usual idle time holds.
		await shared.extract(extractor, jobs);
		for (let i = 0; i < 200 && shared.stats.workersRetired < 2; i++) await new Promise((r) => setTimeout(r, 10));
		assert.equal(shared.stats.workersStarted, 2);
		assert.equal(shared.stats.workersRetired, 2, "an idle worker with nothing expected retires after its idle time");
	});

	it("counts a thread started ahead once a call takes it, and it extracts like any worker", async () => {
		const jobs = mixedJobs(20);
		const shared = pool();
		shared.prestart();
		shared.prestart(); // one spare at most
		assert.deepEqual([shared.stats.workersStarted, shared.liveWorkers], [0, 0], "not counted before it is taken");
		await shared.warm(LANGUAGES);
		assert.deepEqual(comparable(await shared.extract(extractor, jobs)), direct(extractor, jobs));
		const { workersStarted, sparesRetired, workerFailures, jobsByWorkers } = shared.stats;
		assert.deepEqual(
			{ workersStarted, sparesRetired, workerFailures },
			{ workersStarted: 1, sparesRetired: 0, workerFailures: 0 },
		);
		assert.ok(jobsByWorkers > 0, "the thread started ahead took part");
		shared.prestart();
		assert.equal(shared.stats.workersStarted, 1, "no spare beside a running worker");
	});

	it("shares a call smaller than minJobs with a worker that runs already, and only then", async () => {
		const jobs = mixedJobs(2); // 16 jobs, under the default 48
		const expected = direct(extractor, jobs);
		const shared = pool({ startJobs: 1000 });
		assert.deepEqual(comparable(await shared.extract(extractor, jobs, { expected: 5000 })), expected);
		assert.deepEqual([shared.stats.sharedCalls, shared.stats.workersStarted], [0, 0], "no worker runs: main thread");
		await shared.warm(LANGUAGES);
		assert.deepEqual(comparable(await shared.extract(extractor, jobs)), expected);
		assert.equal(shared.stats.sharedCalls, 1, "the running worker is sent the small call");
		assert.deepEqual(comparable(await shared.extract(extractor, jobs.slice(0, 1))), expected.slice(0, 1));
		assert.equal(shared.stats.sharedCalls, 1, "one job stays on the main thread");
		assert.equal(shared.stats.jobsByWorkers + shared.stats.jobsByMain, 2 * jobs.length + 1);
	});

	it("retires a thread started ahead that no call takes, without counting it as a worker", async () => {
		const jobs = mixedJobs(10);
		const gated = pool({ startJobs: 1000 });
		gated.prestart();
		assert.deepEqual(comparable(await gated.extract(extractor, jobs, { expected: 999 })), direct(extractor, jobs));
		assert.equal(gated.stats.jobsByMain, jobs.length, "a small total leaves the spare alone");
		gated.dropSpare();
		for (let i = 0; i < 500 && gated.stats.sparesRetired === 0; i++) await new Promise((r) => setTimeout(r, 10));
		const { workersStarted, workersRetired, sparesRetired, workerFailures } = gated.stats;
		assert.deepEqual(
			{ workersStarted, workersRetired, sparesRetired, workerFailures },
			{ workersStarted: 0, workersRetired: 0, sparesRetired: 1, workerFailures: 0 },
		);
		// A later large call starts a worker of its own.
		await gated.extract(extractor, jobs, { expected: 1000 });
		assert.equal(gated.stats.workersStarted, 1);
	});

	it("starts no worker for a small call, a small total, a custom extractor or zero threads", async () => {
		const jobs = mixedJobs(10); // 80 jobs
		const expected = direct(extractor, jobs);

		const small = pool({ minJobs: 100 });
		assert.deepEqual(comparable(await small.extract(extractor, jobs)), expected);
		assert.deepEqual([small.stats.workersStarted, small.stats.jobsByMain, small.liveWorkers], [0, jobs.length, 0]);

		// A worker starts only for a call that is part of a large total; once running it serves smaller totals too.
		const gated = pool({ startJobs: 1000 });
		await gated.extract(extractor, jobs, { expected: 999 });
		assert.equal(gated.stats.workersStarted, 0);
		await gated.extract(extractor, jobs, { expected: 1000 });
		assert.equal(gated.stats.workersStarted, 1);
		await gated.warm(LANGUAGES);
		const served = gated.stats.jobsByWorkers;
		assert.deepEqual(comparable(await gated.extract(extractor, mixedJobs(40))), direct(extractor, mixedJobs(40)));
		assert.ok(gated.stats.jobsByWorkers > served, "the running worker took part in a call of 320 jobs");
		assert.equal(gated.stats.workersStarted, 1);

		const wrapped: Extractor = {
			...extractor,
			extract: (path, source, language) => extractor.extract(path, source, language),
		};
		const custom = pool({ minJobs: 1 });
		assert.deepEqual(comparable(await custom.extract(wrapped, jobs)), expected);
		assert.deepEqual([custom.stats.workersStarted, custom.stats.jobsByMain], [0, jobs.length]);

		const off = pool({ threads: 0, minJobs: 1 });
		assert.deepEqual(comparable(await off.extract(extractor, jobs)), expected);
		await off.warm();
		assert.deepEqual([off.stats.workersStarted, off.stats.jobsByMain], [0, jobs.length]);

		// `extractMany` goes through the shared pool, which a one-file refresh never makes start a worker.
		const one = mixedJobs(1).slice(0, 1);
		assert.deepEqual(comparable(await extractMany(extractor, one)), expected.slice(0, 1));
		assert.equal(sharedExtractPool().stats.workersStarted, 0);
	});

	it("returns the contiguous prefix of finished jobs on abort, every one of them counted", async () => {
		const jobs = mixedJobs(40);
		const expected = direct(extractor, jobs);
		const shared = pool();
		await shared.warm(LANGUAGES);
		const controller = new AbortController();
		let finished = 0;
		const results = await shared.extract(extractor, jobs, {
			signal: controller.signal,
			onEach: () => {
				if (++finished === 50) controller.abort();
			},
		});
		assert.ok(results.length >= 1 && results.length < jobs.length, `a prefix (${results.length})`);
		assert.deepEqual(comparable(results), expected.slice(0, results.length));
		assert.ok(finished >= results.length, "jobs finished past a gap are counted but not returned");
		assert.equal(shared.stats.jobsByMain + shared.stats.jobsByWorkers, finished);

		const before = shared.stats.jobsByMain + shared.stats.jobsByWorkers;
		assert.deepEqual(await shared.extract(extractor, jobs, { signal: controller.signal }), []);
		assert.equal(shared.stats.jobsByMain + shared.stats.jobsByWorkers, before, "an aborted signal extracts nothing");
	});

	it("extracts the jobs of a worker terminated mid-run on the main thread", async () => {
		const jobs = mixedJobs(40);
		const expected = direct(extractor, jobs);
		const shared = pool();
		await shared.warm(LANGUAGES);
		let finished = 0;
		const results = await shared.extract(extractor, jobs, {
			onEach: () => {
				if (++finished === 40) shared.close();
			},
		});
		assert.deepEqual(comparable(results), expected);
		assert.equal(finished, jobs.length);
		assert.equal(shared.stats.jobsByMain + shared.stats.jobsByWorkers, jobs.length, "no job twice, none lost");
		assert.deepEqual([shared.stats.workersRetired, shared.liveWorkers], [1, 0]);

		// The next large call starts a new worker.
		assert.deepEqual(comparable(await shared.extract(extractor, jobs)), expected);
		assert.equal(shared.stats.workersStarted, 2);
	});

	it("extracts everything on the main thread when the worker cannot start, and stops trying", async () => {
		const jobs = mixedJobs(10);
		const expected = direct(extractor, jobs);
		const broken = pool({ minJobs: 1, script: new URL("./no-such-extract-worker.js", import.meta.url) });
		assert.deepEqual(comparable(await broken.extract(extractor, jobs)), expected);
		await broken.warm(); // the failed start is settled
		assert.deepEqual(comparable(await broken.extract(extractor, jobs)), expected);
		const { workersStarted, workerFailures, jobsByMain, jobsByWorkers } = broken.stats;
		assert.deepEqual(
			{ workersStarted, workerFailures, jobsByMain, jobsByWorkers },
			{ workersStarted: 1, workerFailures: 1, jobsByMain: 2 * jobs.length, jobsByWorkers: 0 },
		);
	});
});

describe("FOVEA_EXTRACT_THREADS", () => {
	it("defaults to one thread fewer than the cores, at most three", () => {
		assert.deepEqual(
			[1, 2, 4, 16].map((cores) => extractThreads({}, cores).threads),
			[0, 1, 3, 3],
		);
		assert.equal(extractThreads({ FOVEA_EXTRACT_THREADS: " " }, 2).threads, 1);
	});

	it("takes a non-negative integer, clamped; anything else gives the default and a warning naming it", () => {
		assert.deepEqual(extractThreads({ FOVEA_EXTRACT_THREADS: "0" }, 8), { threads: 0 });
		assert.deepEqual(extractThreads({ FOVEA_EXTRACT_THREADS: "2" }, 2), { threads: 2 });
		assert.deepEqual(extractThreads({ FOVEA_EXTRACT_THREADS: "999" }, 2), { threads: MAX_EXTRACT_THREADS });
		for (const value of ["-1", "1.5", "two", "3x"]) {
			const { threads, warning } = extractThreads({ FOVEA_EXTRACT_THREADS: value }, 2);
			assert.equal(threads, 1, value);
			assert.match(warning ?? "", /^FOVEA_EXTRACT_THREADS must be a non-negative integer/, value);
			assert.ok(warning?.includes(JSON.stringify(value)), value);
		}
	});
});

describe("processes using the pool", () => {
	const engine = (name: string) => new URL(`../../src/engine/${name}`, import.meta.url).href;
	/** Indexes `root` in a child process and prints the shared pool's counters at exit. */
	const INDEX_SCRIPT = `
import { CodeIndex } from ${JSON.stringify(engine("refresh/code-index.ts"))};
import { sharedExtractPool } from ${JSON.stringify(engine("shared-extract-pool.ts"))};
const index = new CodeIndex(process.argv.at(-1), { cache: false });
await index.refresh();
const pool = sharedExtractPool();
const liveAfterIndex = pool.liveWorkers;
// A worker started afresh and left idle (its idle time is a second): it must not hold the process either.
if (process.env.WARM_AFTER === "1") await pool.warm();
process.on("exit", () => {
	console.log(JSON.stringify({ filesParsed: index.stats.filesParsed, threads: pool.threads, liveAfterIndex, liveWorkers: pool.liveWorkers, ...pool.stats }));
});
`;

	// A worker holding the process would show as a killed run here, long before the test runner's own timeout.
	const run = (args: string[], env: Record<string, string>) => runNode(args, { env, timeoutMs: 60_000 });

	let root = "";
	let cache = "";
	let script = "";
	let supported = 0;
	before(async () => {
		root = temps.add(await mkdtemp(join(tmpdir(), "fovea-pool-")));
		cache = temps.add(await mkdtemp(join(tmpdir(), "fovea-pool-cache-")));
		script = join(cache, "pooled-index.mjs");
		await writeFile(script, INDEX_SCRIPT);
		let i = 0;
		// Enough files for the shared pool to start a worker (2,100 supported ones), each small so the test stays quick.
		for (const job of mixedJobs(300)) {
			await writeFile(join(root, `f${i++}-${job.path.replaceAll("/", "-")}`), job.source);
			if (job.language !== ("cobol" as LanguageId)) supported++;
		}
	});

	it("a pooled index retires its worker with its last batch; an idle worker does not hold the process", async () => {
		// A V8 flag on the command line: Node leaves it out of the worker's inherited options (it is process-wide).
		const { code, stdout, stderr } = await run(["--max-semi-space-size=16", script, root], {
			FOVEA_EXTRACT_THREADS: "1",
			WARM_AFTER: "1",
		});
		assert.equal(code, 0, stderr);
		const stats = JSON.parse(stdout);
		assert.equal(stats.filesParsed, supported, "every supported file (the .cob files are gaps)");
		assert.deepEqual(
			[stats.threads, stats.workerFailures, stats.liveAfterIndex],
			[1, 0, 0],
			`the index's worker retired when the index ended: ${stdout}`,
		);
		assert.ok(stats.jobsByWorkers > 0, stdout);
		assert.equal(stats.jobsByMain + stats.jobsByWorkers, supported);
		// The worker `warm` started afterwards was alive and idle when the process exited on its own.
		assert.deepEqual([stats.workersStarted, stats.liveWorkers], [2, 1], stdout);
	});

	it("starts its worker in a process running code given as a string", async () => {
		const { code, stdout, stderr } = await run(
			["--liftoff-only", "--input-type=module", "--eval", INDEX_SCRIPT, root],
			{
				FOVEA_EXTRACT_THREADS: "1",
			},
		);
		assert.equal(code, 0, stderr);
		const stats = JSON.parse(stdout);
		assert.deepEqual([stats.filesParsed, stats.workersStarted, stats.workerFailures], [supported, 1, 0], stdout);
	});

	it("FOVEA_EXTRACT_THREADS=0 starts no worker", async () => {
		const { code, stdout, stderr } = await run([script, root], { FOVEA_EXTRACT_THREADS: "0" });
		assert.equal(code, 0, stderr);
		const stats = JSON.parse(stdout);
		assert.deepEqual([stats.threads, stats.workersStarted, stats.jobsByMain], [0, 0, supported]);
	});

	it("a refresh starts its workers right after its walk, before any file is parsed", async () => {
		// Every file touched after a first index: the second refresh reads all 2,100 again, finds each unchanged and
		// parses none, so only its early start (prepareExtraction, before the first batch) can start a worker.
		const prepareScript = join(cache, "prepared-index.mjs");
		await writeFile(
			prepareScript,
			`
import { utimes } from "node:fs/promises";
import { join } from "node:path";
import { CodeIndex } from ${JSON.stringify(engine("refresh/code-index.ts"))};
import { FactCache } from ${JSON.stringify(engine("cache/fact-cache.ts"))};
import { sharedExtractPool } from ${JSON.stringify(engine("shared-extract-pool.ts"))};
const [root, cacheDir] = process.argv.slice(-2);
const index = new CodeIndex(root, { cache: new FactCache(root, { cacheDir }) });
const { files } = await index.refresh();
const pool = sharedExtractPool();
const first = { parsed: index.stats.filesParsed, read: index.stats.filesRead, started: pool.stats.workersStarted, live: pool.liveWorkers };
const later = new Date(Date.now() + 60_000);
for (const path of files.keys()) await utimes(join(root, path), later, later);
await index.refresh();
const second = { parsed: index.stats.filesParsed - first.parsed, read: index.stats.filesRead - first.read, started: pool.stats.workersStarted - first.started };
console.log(JSON.stringify({ first, second }));
`,
		);
		const preparedCache = temps.add(await mkdtemp(join(tmpdir(), "fovea-pool-prepared-")));
		const { code, stdout, stderr } = await run([prepareScript, root, preparedCache], { FOVEA_EXTRACT_THREADS: "1" });
		assert.equal(code, 0, stderr);
		const { first, second } = JSON.parse(stdout);
		assert.deepEqual([first.parsed, first.started, first.live], [supported, 1, 0], stdout);
		assert.deepEqual([second.parsed, second.read, second.started], [0, supported, 1], stdout);
	});

	it("the fovea CLI indexes 2,100 files with the pool and exits", async () => {
		const cli = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));
		const { code, stdout, stderr } = await run([cli, "status", "--root", root, "--json"], {
			FOVEA_EXTRACT_THREADS: "1",
			FOVEA_CACHE_DIR: cache,
		});
		assert.equal(code, 0, stderr);
		assert.equal(JSON.parse(stdout).work.filesParsed, supported);
	});
});
