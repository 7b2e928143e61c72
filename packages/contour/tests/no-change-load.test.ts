/**
 * What a review of an unchanged root loads: it answers from the kept report (issue 32's no-change speed), so the
 * process loads the snapshot, the caches and the report's renderers, and neither the parser, Fovea's engine nor the
 * analysis. A real `contour` process from the sources on a temporary Git repository; the modules it loads are
 * recorded by a module hook (`support/record-modules.ts`).
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ReportJson } from "../src/report/report-json.ts";
import { LANGUAGES } from "./checkpoint/fixtures.ts";
import { cleanup, git, repo, tempDir, write } from "./git/support.ts";

after(cleanup);

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const RECORDER = fileURLToPath(new URL("./support/record-modules.ts", import.meta.url));
const TS = LANGUAGES.typescript;
/** Modules of the parser, the engine behind the code map and the analysis: none is needed to answer from a report. */
const HEAVY =
	/\/fovea\/src\/engine\/((parse|map|refresh|graph|extract|cache|scan)\/|rank\/(?!file-role)|resolve\/(?!test-links))|\/fovea\/src\/engine\/index\.ts|\/contour\/src\/review\/(measure|syntax|analyze|clones|callables)\.ts|\/contour\/src\/checkpoint\/review-change\.ts/;

/** Runs `contour review --json` on `dir` with its caches under `caches`; returns the report and the modules loaded. */
async function review(dir: string, caches: string): Promise<{ report: ReportJson; modules: string[] }> {
	const modules = join(tempDir("contour-modules-"), "loaded.txt");
	const { stdout } = await promisify(execFile)(
		process.execPath,
		["--import", RECORDER, CLI, "review", "--json", "--root", dir],
		{
			env: {
				...process.env,
				NODE_OPTIONS: "",
				FOVEA_CACHE_DIR: join(caches, "fovea"),
				CONTOUR_CACHE_DIR: join(caches, "contour"),
				CONTOUR_TEST_MODULES: modules,
			},
		},
	);
	const loaded = readFileSync(modules, "utf8").split("\n").filter(Boolean);
	return { report: JSON.parse(stdout) as ReportJson, modules: loaded };
}

describe("a review of an unchanged root", () => {
	it("answers from the kept report without loading the parser, the engine or the analysis", async () => {
		const dir = repo({ [TS.path]: TS.simple, "src/helper.ts": "export const h = 1;\n" }, { commit: true });
		write(dir, { [TS.path]: TS.branchy });
		git(dir, "add", "-A");
		const caches = tempDir("contour-caches-");
		const first = await review(dir, caches);
		assert.ok(first.report.work.parses >= 1, "the first review parses the change");
		assert.ok(
			first.modules.some((url) => HEAVY.test(url)),
			"the recorder sees the heavy modules a review of a change loads",
		);
		const second = await review(dir, caches);
		assert.equal(second.report.reusedFrom, first.report.id);
		assert.equal(second.report.work.gitProcesses, 3, "rev-parse, config and status");
		assert.deepEqual(
			second.modules.filter((url) => HEAVY.test(url)),
			[],
		);
		assert.ok(second.modules.some((url) => url.endsWith("/contour/src/checkpoint/review-root.ts")));
		assert.deepEqual(second.report.findings, first.report.findings);
		assert.deepEqual(second.report.deltas, first.report.deltas);
	});

	it("from a subdirectory too: the root the review finds is the one its cache knows", async () => {
		const dir = repo({ [TS.path]: TS.simple, "src/helper.ts": "export const h = 1;\n" }, { commit: true });
		write(dir, { [TS.path]: TS.branchy });
		git(dir, "add", "-A");
		const caches = tempDir("contour-caches-");
		const first = await review(dir, caches);
		const second = await review(join(dir, "src"), caches);
		assert.equal(second.report.reusedFrom, first.report.id);
		assert.deepEqual(
			second.modules.filter((url) => HEAVY.test(url)),
			[],
			"a subdirectory is not mistaken for a root the cache does not know",
		);
	});
});
