/**
 * `cli/short-run-tiering.ts`: after `useShortRunTiering()` a function that V8 would have compiled with TurboFan is
 * still on the baseline tiers, and a process started with its own threshold keeps it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
	SHORT_RUN_TURBOFAN_THRESHOLD,
	TURBOFAN_THRESHOLD_FLAG,
	useShortRunTiering,
} from "../src/cli/short-run-tiering.ts";
import { runNode } from "./support/run-node.ts";

const MODULE = new URL("../src/cli/short-run-tiering.ts", import.meta.url).href;
/** `%GetOptimizationStatus`'s bit for code compiled by TurboFan. */
const TURBOFANNED = 1 << 6;

/**
 * Whether a small function is TurboFan-compiled after 1,000 calls in a fresh process, with or without the short-run
 * tiering applied first. Compiles are synchronous there (`--no-concurrent-recompilation`), so the answer does not
 * depend on the machine's load: V8 counts invocations and bytecode run, not time.
 */
async function turbofannedAfterCalls(shortRun: boolean): Promise<boolean> {
	const code = `
		import { useShortRunTiering } from ${JSON.stringify(MODULE)};
		if (${shortRun}) useShortRunTiering();
		function f(a) { let s = 0; for (let i = 0; i < 10; i++) s += (a * i) % 7; return s; }
		for (let n = 0; n < 1000; n++) f(n);
		process.stdout.write(String(%GetOptimizationStatus(f)));
	`;
	const run = await runNode([
		"--allow-natives-syntax",
		"--no-concurrent-recompilation",
		"--input-type=module",
		"-e",
		code,
	]);
	assert.equal(run.code, 0, run.stderr);
	const status = Number(run.stdout);
	assert.ok(Number.isInteger(status), `not an optimization status: ${run.stdout}`);
	return (status & TURBOFANNED) !== 0;
}

describe("short-run tiering", () => {
	it("keeps a function that V8 would optimize by default on the baseline tiers", async () => {
		assert.equal(await turbofannedAfterCalls(false), true, "V8's default compiles it: the check below could not fail");
		assert.equal(await turbofannedAfterCalls(true), false);
	});

	it("sets the threshold once, and leaves a process started with its own", () => {
		const set: string[] = [];
		assert.equal(
			useShortRunTiering([], (flags) => set.push(flags)),
			true,
		);
		assert.deepEqual(set, [`${TURBOFAN_THRESHOLD_FLAG}=${SHORT_RUN_TURBOFAN_THRESHOLD}`]);
		for (const started of ["--invocation-count-for-turbofan=500", "--invocation_count_for_turbofan=500"]) {
			assert.equal(
				useShortRunTiering(["--max-old-space-size=100", started], (flags) => set.push(flags)),
				false,
			);
		}
		assert.equal(set.length, 1);
	});
});
