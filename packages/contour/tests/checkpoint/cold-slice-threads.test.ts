/**
 * A cold review that may use a parsing thread (the CLI's) hands the files its slice will parse to Fovea's extract
 * pool while it measures the change (`checkpoint/slice-prefetch.ts`): the files that name a changed path and the
 * changed files' siblings once the slice is listed, the files a changed file imports once its staged side is parsed.
 * The thread measures each file in the parse that gives its facts (`measure-worker.ts`), so no file is parsed twice;
 * the report is the one a review on one thread gives.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { useExtractWorkerScript, useExtractWorkersFrom } from "pi-fovea/engine";
import { sharedExtractPool } from "../../../fovea/src/engine/shared-extract-pool.ts";
import { ReviewCache } from "../../src/checkpoint/review-cache.ts";
import { reviewRoot } from "../../src/checkpoint/review-root.ts";
import type { ReviewReport } from "../../src/report/report.ts";
import { cleanup, git, repo, write } from "../git/support.ts";
import { encoder, moduleNeighbours, pricing } from "./fixtures.ts";
import { heldMaps } from "./held-maps.ts";

/**
 * One parsing thread whatever the machine's cores, running Contour's entry (its sources), started for roots of any
 * size from the pool's smallest shared call on (the CLI's threads start from 500 files: a test root that large would
 * only be slow).
 */
const saved = process.env.FOVEA_EXTRACT_THREADS;
before(() => {
	process.env.FOVEA_EXTRACT_THREADS = "1";
	useExtractWorkerScript(new URL("../../src/checkpoint/measure-worker.ts", import.meta.url));
	useExtractWorkersFrom(1);
});
after(() => {
	useExtractWorkersFrom(undefined);
	useExtractWorkerScript(undefined);
	sharedExtractPool().close();
	if (saved === undefined) delete process.env.FOVEA_EXTRACT_THREADS;
	else process.env.FOVEA_EXTRACT_THREADS = saved;
	cleanup();
});

/** Files nothing names: enough of them that a run of the listed files would start threads (from 48 jobs). */
const PILE = 60;

async function review(dir: string, maps: Parameters<typeof heldMaps>[0]): Promise<ReviewReport> {
	return reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" }, maps: heldMaps(maps) });
}

/** What a review reports about the project, without what identifies the run or counts its work. */
function reported(report: ReviewReport) {
	const { findings, imports, deltas, notes, exposureNote } = report;
	return { findings, imports, deltas, notes, exposureNote };
}

describe("a cold review with a parsing thread", () => {
	it("hands the slice's files to the thread, which measures them in the parse that gives their facts", async () => {
		// A sibling of the changed file besides: handed over once the slice is listed, as the importer is; the module
		// the changed file imports, once its staged side is parsed.
		const { files, change } = moduleNeighbours(PILE, {
			"app/sibling.py": pricing("tally", "- 2"),
		});
		const dir = repo(files, { commit: true });
		write(dir, change);
		git(dir, "add", "-A");
		const alone = await review(dir, { cold: true });
		const pool = sharedExtractPool();
		const before = { ...pool.stats };
		const threaded = await review(dir, { cold: true, threads: true });
		assert.deepEqual(reported(threaded), reported(alone));
		assert.equal(alone.work.sliceFilesParsed, 3, "the sibling, the imported module and the importer");
		assert.equal(alone.work.sliceFilesPrefetched, 0);
		assert.deepEqual(
			[threaded.work.sliceFilesParsed, threaded.work.sliceFilesPrefetched],
			[3, 3],
			"each of them handed to the thread",
		);
		assert.deepEqual(
			[threaded.work.parses, threaded.work.cloneFilesMeasured],
			[2, 3],
			"the changed file's two sides parsed here; the three files measured in the parse that gave their facts",
		);
		assert.equal(pool.stats.workersStarted, 1, "one parsing thread (the code map of the first review may start it)");
		assert.ok(pool.stats.sharedCalls > before.sharedCalls, "the hand-over was shared with it");
		const handled = pool.stats.jobsByWorkers + pool.stats.jobsByMain - before.jobsByWorkers - before.jobsByMain;
		assert.equal(
			handled,
			3 + threaded.work.mapFilesParsed,
			"the three files, parsed once each (by the thread or by this thread's share), and the map built for exposure",
		);
	});

	it("parses a batch it did not hand over on both threads at once: look-alikes far from the change", async () => {
		const files: Record<string, string> = {
			"app/feature/target.ts": "export function target(x: number): number {\n\treturn x + 1;\n}\n",
			// Files that call the same names as the copy made below, far from it: clone search finds them by their text
			// once the change is measured, and parses them as one batch.
			"lib/deep/abi/encode.ts": encoder("encodeTopics"),
			"lib/deep/abi/again.ts": encoder("encodeAgain"),
		};
		for (let i = 0; i < PILE; i++) files[`pile/p${String(i).padStart(2, "0")}.ts`] = `export const p${i} = ${i};\n`;
		const dir = repo(files, { commit: true });
		write(dir, {
			"app/feature/target.ts": `export function target(x: number): number {\n\treturn x + 1;\n}\n\n${encoder("encodeTopicsCopy")}`,
		});
		git(dir, "add", "-A");
		const alone = await review(dir, { cold: true });
		const threaded = await review(dir, { cold: true, threads: true });
		assert.deepEqual(reported(threaded), reported(alone));
		assert.ok(
			alone.findings.some((f) => f.kind === "exact-clone"),
			JSON.stringify(alone.findings.map((f) => f.title)),
		);
		assert.equal(alone.work.sliceFilesParsed, 2, "the two look-alikes");
		assert.deepEqual(
			[threaded.work.sliceFilesParsed, threaded.work.sliceFilesPrefetched, threaded.work.parses],
			[2, 2, 2],
			"both parsed through the threads' pool, measured there or in this thread's own parse",
		);
	});
});
