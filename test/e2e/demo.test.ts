// `npm run demo` shows all three extensions (issue 33 item 13): after Fovea and Contour, a crew team of scripted
// child agents runs, one agent is steered, the widget lines and the result are printed, and the temp dirs go.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, it } from "node:test";
import { REPO_ROOT, run } from "./support/pi-cli.ts";

const demoDirs = () =>
	readdirSync(tmpdir()).filter((n) => n.startsWith("pi-crew-demo-") || n.startsWith("pi-roaming-demo-"));

describe("npm run demo", () => {
	it("runs a crew team, steered and finished, and shows its widget and result", { timeout: 300_000 }, async () => {
		const before = new Set(demoDirs());
		const demo = await run(process.execPath, ["scripts/demo.ts"], { cwd: REPO_ROOT, timeoutMs: 280_000 });
		assert.equal(demo.code, 0, demo.stderr);
		const out = demo.stdout;
		assert.match(out, /fovea ring:/);
		assert.match(out, /^ {3}crew \S+ · pair · running · 0\/2 done/m, "the widget's run line");
		assert.match(out, /^ {5}build · .*running/m, "the widget's agent line");
		assert.match(out, /Steered live agent '\S+:build'/);
		assert.match(out, /pi-crew: run [0-9a-f]{8} \(pair\) finished: 2\/2 tasks done/);
		assert.match(out, /Built the login page; the steer said to keep the old CSS\./);
		assert.deepEqual(
			demoDirs().filter((n) => !before.has(n)),
			[],
			"the demo removed its temp dirs",
		);
	});
});
