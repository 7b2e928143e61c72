/**
 * The `contour` CLI is a short run: its entry raises V8's TurboFan threshold before the commands load
 * (`pi-fovea/cli-tiering`), as Fovea's CLI does. Checked in a real CLI process: a probe loaded before the entry (`--import`)
 * calls a small function 1,000 times when the process exits, after the entry ran, and reports whether TurboFan
 * compiled it. Compiles are synchronous (`--no-concurrent-recompilation`), so the answer does not depend on load.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
/** `%GetOptimizationStatus`'s bit for code compiled by TurboFan. */
const TURBOFANNED = 1 << 6;
const dir = mkdtempSync(join(tmpdir(), "contour-cli-tiering-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const PROBE = join(dir, "probe.mjs");
writeFileSync(
	PROBE,
	`function f(a) { let s = 0; for (let i = 0; i < 10; i++) s += (a * i) % 7; return s; }
process.on("exit", () => {
	for (let n = 0; n < 1000; n++) f(n);
	process.stderr.write("\\nTIERING " + %GetOptimizationStatus(f) + "\\n");
});
`,
);

/** Whether the probe's function was TurboFan-compiled in a process running `entry` (the CLI, or nothing). */
function turbofanned(entry: string[]): boolean {
	const run = spawnSync(
		process.execPath,
		["--allow-natives-syntax", "--no-concurrent-recompilation", "--import", PROBE, ...entry],
		{ encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "", CONTOUR_CACHE_DIR: join(dir, "cache") } },
	);
	const status = /TIERING (\d+)/.exec(run.stderr)?.[1];
	assert.ok(status !== undefined, `no status from the probe: ${run.stderr.slice(0, 400)}`);
	return (Number(status) & TURBOFANNED) !== 0;
}

describe("contour CLI tiering", () => {
	it("keeps warm functions on V8's baseline tiers for the rest of the run", () => {
		assert.equal(turbofanned(["-e", ""]), true, "V8's default compiles the probe: the check below could not fail");
		assert.equal(turbofanned([CLI, "--version"]), false);
	});
});
