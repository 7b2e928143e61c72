/**
 * Runs test files with `node --test` in a temp directory of their own and fails when they leave anything in it.
 *
 * Why: a test must leave nothing behind in the temp dir. Checked inside one test file, another file running at the
 * same time (or another run on the machine) would look like a leak; given a fresh `TMPDIR` for the whole run, every
 * test file of the run writes its temp files there and nothing else does, so what is left at the end is theirs.
 *
 *   node scripts/run-tests.ts [node --test options] <files or globs>…     (npm test, npm run test:unit)
 *
 * Exit code: the test run's own when it failed; 1 when it passed but left entries in its temp dir (listed on
 * stderr, then removed, so a next run starts clean); 0 otherwise.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * What the hosts the tests start keep in the temp dir by design, not any test's: Node's module compile cache, which
 * Pi's CLI turns on for itself (`enableCompileCache()`, under `os.tmpdir()`) in every `pi` process a test spawns.
 * Turning it off instead made each of those processes compile Pi again and pushed the slow ones past their timeouts.
 */
const HOST_CACHES: ReadonlySet<string> = new Set(["node-compile-cache"]);

/** The outcome of one run: the test runner's exit code, and what it left in its temp dir. */
export interface TestRun {
	code: number;
	leftovers: string[];
	/** The run's temp dir, already removed. */
	dir: string;
}

/** Runs `node --test …args` with `TMPDIR` set to a fresh directory; removes that directory afterwards. */
export function runTests(
	args: readonly string[],
	options: { env?: NodeJS.ProcessEnv; stdio?: "inherit" | "ignore" } = {},
): TestRun {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), "test-run-")));
	// Run from inside a test file, the child must be a test runner of its own, not report to the one around it.
	const { NODE_TEST_CONTEXT: _, ...env } = options.env ?? process.env;
	try {
		const result = spawnSync(process.execPath, ["--test", ...args], {
			stdio: options.stdio ?? "inherit",
			env: { ...env, TMPDIR: dir, TMP: dir, TEMP: dir },
		});
		const code = result.status ?? 1;
		return {
			code,
			leftovers: readdirSync(dir)
				.filter((name) => !HOST_CACHES.has(name))
				.sort(),
			dir,
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const args = process.argv.slice(2);
	if (args.length === 0) {
		process.stderr.write("usage: node scripts/run-tests.ts [node --test options] <files or globs>…\n");
		process.exit(2);
	}
	const { code, leftovers } = runTests(args);
	if (leftovers.length > 0) {
		process.stderr.write(
			`run-tests: the tests left ${leftovers.length} entries in their temp dir (each test must remove what it creates):\n${leftovers.map((name) => `  ${JSON.stringify(name)}\n`).join("")}`,
		);
	}
	process.exitCode = code !== 0 ? code : leftovers.length > 0 ? 1 : 0;
}
