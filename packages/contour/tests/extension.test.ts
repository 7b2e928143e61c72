// Contour through the real Pi host: explicit checkpoints (`contour_review`, `/contour review`) on the right root with
// clear errors for the wrong one, reports that identify their snapshot and origin, reuse when nothing changed, and
// a background observer that warms caches without ever showing anything.
import assert from "node:assert/strict";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { CONTOUR_WORKSPACE_ENTRY } from "pi-fovea/session-entries";
import { WORKSPACE_ACCESS_EVENT } from "pi-fovea/workspace";
import { cleanupTempDirs, type PiHost, tempDir } from "../../../test/e2e/harness.ts";
import { commandText, git, gitRepo, newestRing, withHost, writeFiles } from "../../../test/e2e/support/workspaces.ts";

const CONTOUR = fileURLToPath(new URL("../src/extension/index.ts", import.meta.url));

after(cleanupTempDirs);

const SIMPLE = "export function price(amount: number): number {\n\treturn amount;\n}\n";
// Eleven decisions: complexity 1 → 12.
const BRANCHY = `export function price(amount: number, code: string, vip: boolean, region: string): number {
	let total = amount;
	if (code === "A") total -= 1;
	else if (code === "B") total -= 2;
	else if (code === "C") total -= 3;
	if (vip && amount > 100) total *= 0.9;
	if (region === "EU" || region === "UK") total *= 1.2;
	for (let i = 0; i < 3; i++) if (total > 1000) total -= 10;
	while (total < 0) total += 1;
	return total > 50 ? total : amount;
}
`;
const CALLER = (n: number) => `import { price } from "./pricing";\nexport const quote${n} = () => price(${n});\n`;

function shop(dir: string): string {
	gitRepo(
		dir,
		{ "src/pricing.ts": SIMPLE, "src/a.ts": CALLER(1), "src/b.ts": CALLER(2), "src/c.ts": CALLER(3) },
		{ commit: true },
	);
	return dir;
}

interface ReviewDetails {
	root: string;
	target: string;
	reportId: string;
	findings: { kind: string; file: string; line: number }[];
	origin: { kind: string; sessionId?: string };
	reused: boolean;
	work: { parses: number; sidesMeasured: number; blobsRead: number };
}

/** Runs `body` with background passes off (CONTOUR_BACKGROUND is read when the review state loads). */
async function quietly(body: () => Promise<void>): Promise<void> {
	process.env.CONTOUR_BACKGROUND = "0";
	try {
		await body();
	} finally {
		delete process.env.CONTOUR_BACKGROUND;
	}
}

async function review(host: PiHost, args: Record<string, string | number> = {}) {
	const [result] = (await host.runTools([{ name: "contour_review", arguments: args }])).toolResults;
	assert.ok(result !== undefined, "the tool ran");
	return result;
}

describe("contour extension", () => {
	it("reviews the staged change of the cwd's Git root with witnesses, a question and labelled exposure", async () => {
		const repo = shop(join(await tempDir(), "shop"));
		writeFiles(repo, { "src/pricing.ts": BRANCHY });
		git(repo, "add", "src/pricing.ts");
		await quietly(() =>
			withHost({ cwd: repo, extensions: [CONTOUR] }, async (host) => {
				const result = await review(host);
				assert.equal(result.isError, false, result.text);
				assert.match(result.text, new RegExp(`contour review · root ${repo}`), "labelled with its root");
				assert.match(result.text, /complexity/i);
				assert.match(result.text, /src\/pricing\.ts:1/, "a witness names file:line");
				assert.match(result.text, /exposure/i, "exposure is labelled as such");
				assert.match(result.text, /\?/, "a review question");
				const details = result.details as ReviewDetails;
				assert.equal(details.root, repo);
				assert.equal(details.target, "staged");
				assert.equal(details.origin.kind, "checkpoint");
				assert.ok(details.findings.some((f) => f.kind === "complexity" && f.file === "src/pricing.ts"));

				const again = (await review(host)).details as ReviewDetails;
				assert.equal(again.reused, true, "nothing changed: the analysis is reused");
				assert.equal(again.work.parses, 0, "and nothing is parsed");
				assert.equal(again.work.blobsRead, 0, "or read");
				assert.notEqual(again.reportId, details.reportId, "a new report with its own origin and time");

				const worktree = await commandText(host, "/contour review --working-tree --max-tokens 600");
				assert.match(worktree, /working tree \(HEAD→worktree\)/);
				const status = await commandText(host, "/contour status");
				assert.match(status, /^reports: 2 kept for 1 root$/m, "one report per analysis: the reuse replaced the first");
				assert.match(
					status,
					new RegExp(
						`^ {2}${repo}: newest working-tree review of [0-9a-f]{7} · 1 file · \\d+ findings? · asked for \\d+ s ago$`,
						"m",
					),
					"each root with its newest report",
				);
				assert.match(status, /background: off \(CONTOUR_BACKGROUND=0\)/);
			}),
		);
	});

	it("shows the code map's indexing progress in the status bar while a cold review runs, then the verdict", async () => {
		const modules: Record<string, string> = {};
		for (let i = 0; i < 300; i++)
			modules[`gen/mod${i}.ts`] = `export function handler${i}(input: number): number {\n\treturn input + ${i};\n}\n`;
		const repo = gitRepo(join(await tempDir(), "generated"), modules, { commit: true });
		writeFiles(repo, { "gen/mod150.ts": "export function handler150(input: number): number {\n\treturn input;\n}\n" });
		git(repo, "add", "gen/mod150.ts");
		await quietly(() =>
			withHost({ cwd: repo, extensions: [CONTOUR] }, async (host) => {
				const result = await review(host);
				assert.equal(result.isError, false, result.text);
				const statuses = host.ui.log.flatMap((e) => (e.kind === "status" && e.key === "contour" ? [e.text] : []));
				const indexing = statuses.filter((s) => s?.startsWith(`contour: reviewing ${repo}… (indexing `) === true);
				assert.ok(indexing.length > 0, `an indexing status: ${JSON.stringify(statuses)}`);
				assert.match(indexing.at(-1) ?? "", /\(indexing (\d+)\/\1 files\)$/, "the last one counts every file done");
				assert.match(
					statuses.at(-1) ?? "",
					/^contour: (✓ generated clean|generated \d+ findings?)$/,
					"then the verdict",
				);
			}),
		);
	});

	it("an error quoting the repository (an invalid policy's key) reaches Pi with its control characters escaped", async () => {
		const repo = shop(join(await tempDir(), "shop"));
		writeFiles(repo, {
			".pi/contour/policy.json": '{"forbid":[],"\\u001b]0;OWNED\\u0007\\u001b[2Jx":1}',
			"src/pricing.ts": BRANCHY,
		});
		git(repo, "add", "src/pricing.ts");
		// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
		const raw = /[\u0000-\u0009\u000b-\u001f\u007f]/;
		const escaped = /key "\\u001b\]0;OWNED\\u0007\\u001b\[2Jx" is not known/;
		await quietly(() =>
			withHost({ cwd: repo, extensions: [CONTOUR] }, async (host) => {
				const result = await review(host);
				assert.equal(result.isError, true);
				assert.match(result.text, escaped);
				assert.doesNotMatch(result.text, raw);
				const shown = await commandText(host, "/contour review");
				assert.match(shown, escaped);
				assert.doesNotMatch(shown, raw);
			}),
		);
	});

	it("refuses a root that is not a Git root, clearly, and says which repository holds it", async () => {
		const base = await tempDir();
		const repo = shop(join(base, "shop"));
		const plain = join(base, "plain");
		mkdirSync(plain);
		await quietly(() =>
			withHost({ cwd: plain, extensions: [CONTOUR] }, async (host) => {
				const none = await review(host);
				assert.equal(none.isError, true);
				assert.match(
					none.text,
					/no Git root to review: the session cwd is in no Git worktree and no Git root is enrolled/,
				);

				const notGit = await review(host, { root: plain });
				assert.equal(notGit.isError, true);
				assert.match(notGit.text, /is not the top of a Git worktree \(it is in no Git worktree\)/);

				const inside = await review(host, { root: join(repo, "src") });
				assert.equal(inside.isError, true);
				assert.match(inside.text, new RegExp(`inside the Git worktree ${repo}: name that root`));

				const badTarget = await review(host, { root: repo, target: "branch" });
				assert.equal(badTarget.isError, true, "a branch review needs a base");

				const unknownBase = await review(host, { root: repo, base: "no-such-branch" });
				assert.equal(unknownBase.isError, true);
				assert.match(unknownBase.text, /unknown base "no-such-branch"/);
				assert.equal(newestRing(host, CONTOUR_WORKSPACE_ENTRY), undefined, "no failed checkpoint enrolled a root");

				const branch = await review(host, { root: repo, base: "HEAD" });
				assert.equal(branch.isError, false, branch.text);
				assert.match(branch.text, /branch/);
				assert.deepEqual(newestRing(host, CONTOUR_WORKSPACE_ENTRY), [repo], "a successful one did");
			}),
		);
	});

	it("lets a root deleted since it enrolled leave the ring on its background turn, instead of failing every turn", async () => {
		const base = await tempDir();
		const repo = shop(join(base, "gone"));
		await withHost({ cwd: base, extensions: [CONTOUR] }, async (host) => {
			await host.runTools([{ name: "read", arguments: { path: join(repo, "src/pricing.ts") } }]);
			assert.deepEqual(newestRing(host, CONTOUR_WORKSPACE_ENTRY), [repo]);
			rmSync(repo, { recursive: true, force: true });
			// Debounce (1.5 s) and one 5 s tick; nothing is shown meanwhile (showing the ring retires a gone root too).
			for (let waited = 0; waited < 15_000; waited += 500) {
				await new Promise((resolve) => setTimeout(resolve, 500));
				if (newestRing(host, CONTOUR_WORKSPACE_ENTRY)?.length === 0) break;
			}
			assert.deepEqual(newestRing(host, CONTOUR_WORKSPACE_ENTRY), [], "the background turn retired it, persisted");
			const status = await commandText(host, "/contour status");
			assert.match(status, /passes 1, warmed 0, aborted 1, errors 0/, status);
			assert.ok(!status.includes(repo), `the ring no longer lists the gone root:\n${status}`);
		});
	});

	it("lets a root whose .git was removed leave the ring, instead of warming the repository around it", async () => {
		const outer = gitRepo(join(await tempDir(), "outer"), { "README.md": "outer\n" }, { commit: true });
		const repo = shop(join(outer, "inner"));
		await withHost({ cwd: outer, extensions: [CONTOUR] }, async (host) => {
			await host.runTools([{ name: "read", arguments: { path: join(repo, "src/pricing.ts") } }]);
			assert.deepEqual(newestRing(host, CONTOUR_WORKSPACE_ENTRY), [repo]);
			// The directory stays; only its Git marker goes. Git run there now finds the outer repository.
			rmSync(join(repo, ".git"), { recursive: true, force: true });
			let status = "";
			for (let waited = 0; waited < 15_000; waited += 500) {
				await new Promise((resolve) => setTimeout(resolve, 500));
				status = await commandText(host, "/contour status");
				if (/(warmed|aborted|errors) [1-9]/.test(status)) break;
			}
			assert.match(status, /passes 1, warmed 0, aborted 1, errors 0/, status);
			assert.match(status, /reports: 0 kept/, `nothing of the outer repository was reviewed:\n${status}`);
			assert.deepEqual(newestRing(host, CONTOUR_WORKSPACE_ENTRY), [], "the root left the persisted ring");
		});
	});

	it("warms caches in the background without showing anything, so the next checkpoint parses nothing", async () => {
		const repo = shop(join(await tempDir(), "shop"));
		writeFiles(repo, { "src/pricing.ts": BRANCHY });
		git(repo, "add", "src/pricing.ts");
		await withHost({ cwd: repo, extensions: [CONTOUR] }, async (host) => {
			await host.runTools([{ name: "read", arguments: { path: "src/pricing.ts" } }]);
			// Debounce (1.5 s) and one 5 s tick.
			let status = "";
			for (let waited = 0; waited < 15_000; waited += 500) {
				await new Promise((resolve) => setTimeout(resolve, 500));
				status = await commandText(host, "/contour status");
				if (/warmed [1-9]/.test(status)) break;
			}
			assert.match(status, /background: on\n[\s\S]*background passes [1-9]\d*, warmed [1-9]/, status);
			const shown = host.branch().filter((entry) => (entry as { type: string }).type === "custom_message") as unknown[];
			assert.equal(shown.length, 0, "the observer injected nothing into the session");
			const details = (await review(host)).details as ReviewDetails;
			assert.equal(details.reused, true, "the checkpoint reuses the background analysis");
			assert.equal(details.work.parses, 0);
			assert.equal(details.origin.kind, "checkpoint", "and reports its own origin");
		});
	});

	it("the background backstop also visits roots that came without activity there (peers' hints)", async () => {
		const base = await tempDir();
		const worked = shop(join(base, "shop"));
		const staged = (name: string) => {
			const repo = shop(join(base, name));
			writeFiles(repo, { "src/pricing.ts": BRANCHY });
			git(repo, "add", "src/pricing.ts");
			return repo;
		};
		const early = staged("early");
		const late = staged("late");
		await withHost({ cwd: worked, extensions: [CONTOUR] }, async (host) => {
			const hint = async (root: string) => {
				host.eventBus.emit(WORKSPACE_ACCESS_EVENT, { version: 1, source: "fovea", root, sessionId: host.sessionId() });
				for (let i = 0; i < 100 && !(await commandText(host, "/contour status")).includes(root); i++)
					await new Promise((resolve) => setTimeout(resolve, 20));
			};
			// One hint before the review state loads (it loads with the first activity), one after.
			await hint(early);
			await host.runTools([{ name: "read", arguments: { path: "src/pricing.ts" } }]);
			await hint(late);
			// Debounce (1.5 s), then one root per 5 s tick.
			let status = "";
			for (let waited = 0; waited < 40_000; waited += 500) {
				await new Promise((resolve) => setTimeout(resolve, 500));
				status = await commandText(host, "/contour status");
				if (/warmed [3-9]/.test(status)) break;
			}
			assert.match(status, /warmed [3-9]/, status);
			for (const root of [early, late]) {
				const details = (await review(host, { root })).details as ReviewDetails;
				assert.equal(details.reused, true, `${root}'s staged change was analysed in the background`);
				assert.equal(details.work.parses, 0);
			}
		});
	});
});
