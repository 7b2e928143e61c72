// Contour's settings through the real Pi host (issue 34, item 2): `contour.observer.enabled` in the global settings
// file turns the background observer off; `contour.maxTokens` is the budget of a review that names none, from the
// reviewed repository's file once the user trusts it (Pi's trust store), else the global one; the environment wins.
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, afterEach, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { agentDirectory, globalSettingsFile, repositorySettingsFile } from "pi-fovea/settings";
import { cleanupTempDirs, type PiHost, tempDir } from "../../../test/e2e/harness.ts";
import { commandText, git, gitRepo, withHost, writeFiles } from "../../../test/e2e/support/workspaces.ts";

const CONTOUR = fileURLToPath(new URL("../src/extension/index.ts", import.meta.url));
const TRUST = join(agentDirectory(), "trust.json");

after(cleanupTempDirs);
afterEach(() => {
	rmSync(globalSettingsFile(), { force: true });
	rmSync(TRUST, { force: true });
});

function writeJson(file: string, json: unknown): void {
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, JSON.stringify(json));
}

/** A repository with a staged change of many callables, so a review's report has more to say than a small budget holds. */
async function changed(): Promise<string> {
	const repo = gitRepo(join(await tempDir(), "app"), { "src/a.ts": "export const a = 1;\n" }, { commit: true });
	const body = Array.from(
		{ length: 40 },
		(_, i) =>
			`export function f${i}(x: number): number {\n\tif (x > ${i}) return x;\n\treturn f${(i + 1) % 40}(x + 1);\n}\n`,
	).join("");
	writeFiles(repo, {
		"src/many.ts": body,
		"src/copy.ts": body.replaceAll("function f", "function g").replaceAll("f$", "g$"),
	});
	git(repo, "add", "-A");
	return repo;
}

async function reviewLength(host: PiHost): Promise<number> {
	const run = await host.runTools([{ name: "contour_review", arguments: {} }]);
	assert.equal(run.toolResults[0]?.isError, false, run.toolResults[0]?.text);
	return run.toolResults[0]?.text.length ?? 0;
}

describe("contour settings", () => {
	it("contour.observer.enabled false in the global file turns the background observer off", async () => {
		const repo = await changed();
		writeJson(globalSettingsFile(), { contour: { observer: { enabled: false } } });
		await withHost({ cwd: repo, extensions: [CONTOUR] }, async (host) => {
			await reviewLength(host);
			assert.match(
				await commandText(host, "/contour status"),
				/^background: off \(setting contour\.observer\.enabled\)/m,
			);
			assert.match(await commandText(host, "/contour settings"), /contour\.observer\.enabled = false {2}\[global\]/);
		});
	});

	it("a trusted repository's file turns the background observer off for that repository alone", async () => {
		const base = await tempDir();
		const quiet = gitRepo(join(base, "quiet"), { "src/a.ts": "export const a = 1;\n" }, { commit: true });
		const busy = gitRepo(join(base, "busy"), { "src/b.ts": "export const b = 1;\n" }, { commit: true });
		writeJson(repositorySettingsFile(quiet), { contour: { observer: { enabled: false } } });
		writeJson(TRUST, { [quiet]: true });
		await withHost({ cwd: base, extensions: [CONTOUR] }, async (host) => {
			await host.runTools([
				{ name: "read", arguments: { path: join(quiet, "src/a.ts") } },
				{ name: "read", arguments: { path: join(busy, "src/b.ts") } },
			]);
			// Debounce (1.5 s) and ticks of 5 s: the busy root is warmed; then one more tick for the quiet one, if it were.
			let status = "";
			for (let waited = 0; waited < 20_000; waited += 500) {
				await new Promise((resolve) => setTimeout(resolve, 500));
				status = await commandText(host, "/contour status");
				if (/warmed [1-9]/.test(status)) break;
			}
			await new Promise((resolve) => setTimeout(resolve, 6000));
			status = await commandText(host, "/contour status");
			assert.match(status, /^background: on/m, status);
			assert.match(status, /reports: 1 kept for 1 root\b/, status);
			assert.ok(status.includes(`${busy}: newest staged review`), status);
			assert.ok(
				!status.includes(`${quiet}: newest`),
				`the quiet repository was never reviewed in the background:\n${status}`,
			);
		});
	});

	it("contour.maxTokens is the default review budget: trusted repository file > global file, the environment over both", async () => {
		const repo = await changed();
		writeJson(globalSettingsFile(), { contour: { maxTokens: 150, observer: { enabled: false } } });
		writeJson(repositorySettingsFile(repo), { contour: { maxTokens: 100_000 } });
		await withHost({ cwd: repo, extensions: [CONTOUR] }, async (host) => {
			const global = await reviewLength(host);
			assert.ok(Math.ceil(global / 3) <= 150, `the global budget applies to an untrusted repository (${global} chars)`);
			writeJson(TRUST, { [repo]: true });
			const trusted = await reviewLength(host);
			assert.ok(trusted > global, `the trusted repository's budget applies (${trusted} > ${global})`);
			process.env.CONTOUR_MAX_TOKENS = "150";
			try {
				const fromEnv = await reviewLength(host);
				assert.ok(Math.ceil(fromEnv / 3) <= 150, `the environment wins (${fromEnv} chars)`);
			} finally {
				delete process.env.CONTOUR_MAX_TOKENS;
			}
		});
	});
});
