/**
 * The `contour` CLI leads with signal on a real staged change (issue 32): the text opens with production code's
 * structural story (complexity down and up with both values, the one callable added; callables shifted by an
 * insertion above them are not "moved"), test-only changes after the findings, files Fovea leaves out (minified,
 * vendored, build output) are the same coverage gaps here, and the text carries no ids or ISO times.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { ReportJson } from "../src/report/report-json.ts";
import { cleanup, git, repo, tempDir, write } from "./git/support.ts";

after(cleanup);

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const caches = tempDir("contour-signal-cache-");

/** `contour args` in `cwd`, its caches in the temp dir. */
function contour(args: string[], cwd: string): { code: number | null; stdout: string; stderr: string } {
	const run = spawnSync(process.execPath, [CLI, ...args], {
		cwd,
		encoding: "utf8",
		env: { ...process.env, FOVEA_CACHE_DIR: caches, CONTOUR_CACHE_DIR: "", NODE_OPTIONS: "" },
	});
	return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A TS function with `branches` ifs: cyclomatic complexity `branches + 1`. */
function branchy(name: string, branches: number): string {
	const body = Array.from({ length: branches }, (_, i) => `\tif (x === ${i}) {\n\t\ty += ${i};\n\t}`).join("\n");
	return `export function ${name}(x: number): number {\n\tlet y = 0;\n${body}\n\treturn y;\n}\n`;
}

/** A one-line bundle of `n` branchy functions: what a minifier writes. */
function minified(n: number): string {
	return Array.from(
		{ length: n },
		(_, i) => `function m${i}(x){var y=0;if(x===1){y=1}else if(x===2){y=2}else if(x===3){y=3}return y}`,
	).join(";");
}

describe("contour review leads with the structural story", () => {
	it("production first with both values, no moves from an insertion, tests last, Fovea's gaps, no ids or ISO times", () => {
		const names = ["alpha", "beta", "gamma", "delta", "epsilon"];
		const dir = repo(
			{
				"src/lib.ts": names.map((name) => branchy(name, name === "delta" ? 8 : 2)).join("\n"),
				"tests/lib.test.ts":
					'import { alpha } from "../src/lib.ts";\nexport function checkAlpha() {\n\treturn alpha(1);\n}\n',
			},
			{ commit: true },
		);
		write(dir, {
			// One function inserted above the five, `delta` simplified from 9 to 4.
			"src/lib.ts": [branchy("zeta", 1), ...names.map((name) => branchy(name, name === "delta" ? 3 : 2))].join("\n"),
			"tests/lib.test.ts":
				'import { alpha } from "../src/lib.ts";\nexport function checkAlpha() {\n\treturn alpha(1);\n}\nexport function checkBeta() {\n\treturn alpha(2);\n}\n',
			"public/app.min.js": minified(400),
			"vendor/left-pad/index.js": branchy("leftPad", 14).replace(": number", "").replace("(x: number)", "(x)"),
			"dist/bundle.js": branchy("bundle", 14).replace(": number", "").replace("(x: number)", "(x)"),
		});
		git(dir, "add", "-A");
		const run = contour(["review"], dir);
		assert.equal(run.code, 0, run.stderr);
		const text = run.stdout;
		const lines = text.split("\n");
		const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
		assert.equal(at(/^production changes:$/), 3, text);
		assert.match(text, /^ {2}complexity down \(1\): `delta` 9 → 4 \(src\/lib\.ts:\d+\)$/m);
		assert.match(text, /^ {2}added \(1\): `zeta` \(src\/lib\.ts:1, complexity 2\)$/m);
		assert.doesNotMatch(text, /moved/, "an insertion above callables moves none of them");
		assert.ok(at(/^test-only changes:$/) > at(/^production changes:$/), text);
		assert.match(text, /^ {2}added \(1\): `checkBeta` \(tests\/lib\.test\.ts:5, complexity 1\)$/m);
		// Fovea leaves these out of its map; the review names them as gaps instead of measuring a bundle.
		assert.doesNotMatch(text, /complexity (?:\d{3,}|15)\b/);
		assert.match(text, /minified: public\/app\.min\.js/);
		assert.match(text, /vendored: vendor\/left-pad\/index\.js/);
		assert.match(text, /generated: dist\/bundle\.js/);
		assert.doesNotMatch(
			text,
			/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/,
			"no report or session id",
		);
		assert.doesNotMatch(text, /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, "no ISO time");

		const json = JSON.parse(contour(["review", "--json"], dir).stdout) as ReportJson;
		assert.deepEqual(
			json.story.production.complexity.map((c) => [c.name, c.before, c.complexity]),
			[["delta", 9, 4]],
		);
		assert.deepEqual([json.story.production.moved, json.story.tests.addedCount], [0, 1]);
		assert.match(json.id, /^[0-9a-f-]{36}$/);
		assert.match(json.createdAt, /^\d{4}-\d{2}-\d{2}T/);
	});
});
