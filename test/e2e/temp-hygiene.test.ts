/**
 * Tests leave nothing behind in the temp dir. `npm test` runs every test file through `scripts/run-tests.ts`, which
 * gives the run a fresh `TMPDIR` and fails when anything is left in it; this file proves the runner tells a leaky file
 * from a clean one, and runs the package test files that once left their Fovea cache folders behind
 * (`fovea-*-cache-*`) in a run of their own, whose temp dir must end empty.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { runTests } from "../../scripts/run-tests.ts";

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const quiet = { stdio: "ignore" } as const;

describe("temp dir hygiene", () => {
	it("the runner lists what a passing test file left in its temp dir, and removes the dir", () => {
		const leaky = runTests([path("fixtures/leaves-temp.fixture.ts")], quiet);
		assert.equal(leaky.code, 0, "the leaky file's test passes");
		assert.equal(leaky.leftovers.length, 1);
		assert.match(leaky.leftovers[0] ?? "", /^left-behind-/);
		assert.equal(existsSync(leaky.dir), false);

		const clean = runTests([path("fixtures/cleans-temp.fixture.ts")], quiet);
		assert.deepEqual([clean.code, clean.leftovers], [0, []]);
	});

	it("the Fovea host tests with a cache of their own leave nothing behind", () => {
		const files = ["dwell-impact.test.ts", "sync.test.ts"].map((name) => path(`../../packages/fovea/tests/${name}`));
		const run = runTests(["--test-concurrency=2", ...files], quiet);
		assert.deepEqual(run.leftovers, [], `left in the temp dir (test run exit code ${run.code})`);
	});
});
