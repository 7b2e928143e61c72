// Spill files (issue 34, item 3): an answer cut to fit its budget writes its full ranked list to a file its footer
// names; the files are bounded in size and count, removed when the session ends, and left-over ones by age.

import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { cleanupTempDirs, type PiHost, tempDir } from "../../../test/e2e/harness.ts";
import { gitRepo, withHost } from "../../../test/e2e/support/workspaces.ts";

const FOVEA = fileURLToPath(new URL("../src/extension/index.ts", import.meta.url));

after(cleanupTempDirs);
const SPILL = await tempDir("fovea-spill-");
process.env.FOVEA_SPILL_DIR = SPILL;

/** 30 files of 4 functions each, every one named for widgets and calling the next file's. */
async function bigRepo(): Promise<string> {
	const files: Record<string, string> = {};
	for (let f = 0; f < 30; f++) {
		const next = (f + 1) % 30;
		const body = [0, 1, 2, 3]
			.map((i) => `export function widget${f}x${i}(n: number): number {\n\treturn widget${next}x${i}(n) + ${i};\n}\n`)
			.join("");
		files[`src/widget-${f}.ts`] =
			`import { ${[0, 1, 2, 3].map((i) => `widget${next}x${i}`).join(", ")} } from "./widget-${next}";\n${body}`;
	}
	return gitRepo(join(await tempDir("pi-spill-"), "app"), files);
}

async function call(host: PiHost, name: string, args: Record<string, string | number | string[]>): Promise<string> {
	const run = await host.runTools([{ name, arguments: args }]);
	assert.equal(run.toolResults[0]?.isError, false, run.toolResults[0]?.text);
	return run.toolResults[0]?.text ?? "";
}

/** The spill file an answer's footer names, if any. */
function spillOf(text: string): string | undefined {
	return /^Full ranked list \([^)]*\): (.+) \(read or grep it\)$/m.exec(text)?.[1];
}

describe("spill files", () => {
	it("a cut focus, impact, dwell or sketch names a file holding its full ranked list; an uncut one names none", async () => {
		const old = join(SPILL, "old-session");
		const recent = join(SPILL, "recent-session");
		mkdirSync(old);
		mkdirSync(recent);
		const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
		utimesSync(old, twoDaysAgo, twoDaysAgo);
		const root = await bigRepo();
		let sessionDir = "";
		await withHost({ cwd: root, extensions: [FOVEA] }, async (host) => {
			const focus = await call(host, "fovea_focus", { query: "widget", maxTokens: 200 });
			const file = spillOf(focus);
			assert.ok(file !== undefined, `the footer names the spill file:\n${focus}`);
			assert.ok(Math.ceil(focus.length / 3) <= 200, `the answer and its footer fit the budget (${focus.length} chars)`);
			sessionDir = dirname(file);
			assert.equal(dirname(sessionDir), SPILL);
			const spilled = readFileSync(file, "utf8");
			const ranked = Number(/^## symbols \((\d+)\)/m.exec(spilled)?.[1]);
			assert.match(spilled, /^fovea focus · root .* · "widget" · full ranked list\n## symbols/);
			const symbolLines = spilled.split("\n").filter((line) => /^\d\.\d{4} {2}src\/widget-\d+\.ts:\d+ {2}/.test(line));
			assert.ok(ranked > 12, `a long ranking (${ranked})`);
			assert.equal(symbolLines.length, ranked, "every ranked symbol is listed");
			const hidden = symbolLines.find((line) => !focus.includes(line.split("  ")[1] ?? ""));
			assert.ok(hidden !== undefined, "the file holds what the answer left out");
			assert.equal(statSync(file).mode & 0o777, 0o600);
			assert.equal(existsSync(old), false, "a directory left over for more than a day is removed");
			assert.equal(existsSync(recent), true, "a recent one (another live session's) is kept");

			const impact = await call(host, "fovea_impact", { files: ["src/widget-0.ts"], maxTokens: 200 });
			assert.match(
				readFileSync(spillOf(impact) ?? "", "utf8"),
				/^fovea impact · .*\n## symbols[^\n]*\n\d\.\d{4} {2}\S+:\d+ .*\(/,
			);
			const sketch = await call(host, "fovea_sketch", { maxTokens: 200 });
			assert.match(readFileSync(spillOf(sketch) ?? "", "utf8"), /## files \(30\): [^\n]*\n#1 {2}src\/widget-\d+\.ts\n/);
			const dwell = await call(host, "fovea_dwell", { maxTokens: 200 });
			assert.ok(spillOf(dwell) !== undefined, dwell);

			const whole = await call(host, "fovea_focus", { query: "widget7x2", path: "src/widget-7.ts", kind: "interface" });
			assert.equal(spillOf(whole), undefined, `an answer that shows all it ranked names no file:\n${whole}`);
		});
		assert.equal(existsSync(sessionDir), false, "the session's spill directory goes when the session ends");
	});

	it("a spill file is bounded in size, and a session keeps a bounded number of them", async () => {
		process.env.FOVEA_SPILL_BYTES = "4096";
		process.env.FOVEA_SPILL_FILES = "2";
		try {
			const root = await bigRepo();
			await withHost({ cwd: root, extensions: [FOVEA] }, async (host) => {
				const files: string[] = [];
				for (const query of ["widget", "widget3x1", "widget5x2"]) {
					files.push(spillOf(await call(host, "fovea_focus", { query, maxTokens: 200 })) ?? "");
				}
				const first = files[0] ?? "";
				assert.equal(existsSync(first), false, "the oldest file goes past FOVEA_SPILL_FILES");
				assert.deepEqual(
					readdirSync(dirname(first)).sort(),
					files
						.slice(1)
						.map((f) => f.split("/").at(-1))
						.sort(),
				);
				const last = files[2] ?? "";
				assert.ok(statSync(last).size <= 4096, `at most FOVEA_SPILL_BYTES (${statSync(last).size})`);
				assert.match(readFileSync(last, "utf8"), /… \d+ more lines not written \(FOVEA_SPILL_BYTES 4096\)\n$/);
			});
		} finally {
			delete process.env.FOVEA_SPILL_BYTES;
			delete process.env.FOVEA_SPILL_FILES;
		}
	});
});
