// Per-root observation through the real Pi host (seed: first paragraph and "Bounded continuity"): the semantic
// baseline, provenance of this session's edits versus changes from elsewhere, one drift message before a run,
// unchanged Git roots probed without a refresh, dirty-to-clean reverts counted, retirement notices, re-entry as a
// new observation boundary, and nothing crossing roots.

import assert from "node:assert/strict";
import { appendFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { cleanupTempDirs, type PiHost, tempDir } from "../../../test/e2e/harness.ts";
import { commandText, git, gitRepo, newestRing, withHost, writeFiles } from "../../../test/e2e/support/workspaces.ts";
import { FOVEA_WORKSPACE_ENTRY } from "../src/workspace/session-entries.ts";

const FOVEA = fileURLToPath(new URL("../src/extension/index.ts", import.meta.url));
// A temp dir of the harness, removed with the others after the file's tests.
process.env.FOVEA_CACHE_DIR = await tempDir("fovea-sync-cache-");
// Under a loaded test run the warm probe may take longer than its default 300 ms; these tests assert what is
// told, not how fast, so they let the blocking hook wait for it.
process.env.FOVEA_WARM_PROBE_MS = "20000";
after(cleanupTempDirs);

const MAIN = "export function main(): number {\n\treturn helper();\n}\n";
const HELPER = "export function helper(): number {\n\treturn 1;\n}\n";
const VIA_ALIAS = "return helper();\n}\n\nexport function viaAlias(): number {\n\treturn 2;\n}";

async function project(name: string): Promise<string> {
	return gitRepo(join(await tempDir(), name), { "src/main.ts": MAIN, "src/helper.ts": HELPER }, { commit: true });
}

/** Every fovea-sync message on the branch, oldest first. */
function syncMessages(host: PiHost): string[] {
	const texts: string[] = [];
	for (const entry of host.branch() as Array<{ type: string; customType?: string; content?: unknown }>) {
		if (entry.type === "custom_message" && entry.customType === "fovea-sync") texts.push(String(entry.content));
	}
	return texts;
}

/** The observer's counters from `/fovea status` (which waits for post-turn probes to finish). */
interface Counters {
	probes: number;
	unchanged: number;
	watched: number;
	refreshes: number;
	sweeps: number;
	baselines: number;
}

async function counters(host: PiHost): Promise<Counters> {
	const line = (await commandText(host, "/fovea status")).split("\n").find((l) => l.startsWith("observation:")) ?? "";
	const number = (label: string) => Number(new RegExp(`${label} (\\d+)`).exec(line)?.[1] ?? Number.NaN);
	const unchanged = Number(/\((\d+) unchanged/.exec(line)?.[1] ?? Number.NaN);
	const watched = Number(/(\d+) answered by the change watch/.exec(line)?.[1] ?? Number.NaN);
	return {
		probes: number("probes"),
		unchanged,
		watched,
		refreshes: number("refreshes"),
		sweeps: number("sweeps"),
		baselines: number("baselines"),
	};
}

/**
 * A session with a ring of one root: `a` is observed, then retired by a read of another root (the retirement told),
 * and while it is retired someone else adds `whileAway` to it; `body` then comes back to `a`.
 */
async function withFirstRetired(body: (host: PiHost, a: string) => Promise<void>): Promise<void> {
	const a = await project("first");
	const b = await project("second");
	process.env.FOVEA_MAX_ROOTS = "1";
	try {
		await withHost({ cwd: await tempDir(), extensions: [FOVEA] }, async (host) => {
			await host.runTools([{ name: "read", arguments: { path: join(a, "src/main.ts") } }]);
			await counters(host);
			await host.runTools([{ name: "read", arguments: { path: join(b, "src/main.ts") } }]);
			await host.prompt("next");
			assert.match(syncMessages(host).at(-1) ?? "", new RegExp(`Retired ${a}: observation ended`));
			writeFileSync(join(a, "src/helper.ts"), `${HELPER}export function whileAway(): void {}\n`);
			await body(host, a);
		});
	} finally {
		delete process.env.FOVEA_MAX_ROOTS;
	}
}

describe("fovea sync", () => {
	it("tells meaningful changes from elsewhere once; not comments, not its own edits; counts a dirty-to-clean revert", async () => {
		const repo = await project("app");
		await withHost({ cwd: repo, extensions: [FOVEA] }, async (host) => {
			await host.runTools([{ name: "read", arguments: { path: "src/main.ts" } }]);
			assert.equal(
				(await counters(host)).baselines,
				1,
				"the first post-turn probe indexes the root and sets its baseline",
			);

			appendFileSync(join(repo, "src/helper.ts"), "export function added(): void {}\n");
			appendFileSync(join(repo, "src/main.ts"), "// a comment only\n");
			await host.prompt("continue");
			const told = syncMessages(host);
			assert.equal(told.length, 1, "one message before the run");
			assert.match(told[0] ?? "", new RegExp(`In ${repo}:`));
			assert.match(told[0] ?? "", /src\/helper\.ts \(changed, not by this session\): \+ function added/);
			assert.doesNotMatch(told[0] ?? "", /main\.ts/, "a comment-only edit is not drift");

			await host.prompt("and again");
			assert.equal(syncMessages(host).length, 1, "the same change is told once");

			await host.runTools([
				{
					name: "edit",
					arguments: { path: "src/main.ts", edits: [{ oldText: "return helper();", newText: "return helper() + 2;" }] },
				},
			]);
			await host.prompt("after my own edit");
			assert.equal(syncMessages(host).length, 1, "the session's own edit is not reported as a change from elsewhere");

			const before = await counters(host);
			await host.prompt("nothing changed");
			const idle = await counters(host);
			assert.ok(idle.unchanged > before.unchanged, "an unchanged Git root is seen to be unchanged");
			assert.ok(idle.watched > before.watched, "by its change watch");
			assert.equal(idle.probes, before.probes, "without a git status");
			assert.equal(idle.refreshes, before.refreshes, "and without a refresh");

			git(repo, "checkout", "--", "src/helper.ts");
			await host.prompt("after a revert");
			const last = syncMessages(host).at(-1) ?? "";
			assert.equal(syncMessages(host).length, 2, "a dirty-to-clean revert is a change too");
			assert.match(last, /src\/helper\.ts \(changed, not by this session\): - function added/);
		});
	});

	it("a symlink alias of a root is that root: an edit through it is this session's own, a read through it is attention", async () => {
		const repo = await project("app");
		const alias = join(dirname(repo), "app-alias");
		symlinkSync(repo, alias);
		await withHost({ cwd: await tempDir(), extensions: [FOVEA] }, async (host) => {
			await host.runTools([{ name: "read", arguments: { path: join(repo, "src/main.ts") } }]);
			await counters(host);
			const edit = await host.runTools([
				{
					name: "edit",
					arguments: {
						path: join(alias, "src/main.ts"),
						edits: [{ oldText: "return helper();\n}", newText: VIA_ALIAS }],
					},
				},
			]);
			assert.equal(edit.toolResults[0]?.isError, false, edit.toolResults[0]?.text);
			assert.deepEqual(newestRing(host, FOVEA_WORKSPACE_ENTRY), [repo], "the alias is no root of its own");
			await counters(host);
			await host.prompt("after the edit through the alias");
			assert.doesNotMatch(syncMessages(host).join("\n"), /viaAlias|not by this session/, "its own edit is not drift");

			// Someone else's change is still told: the alias did not blind the observer.
			appendFileSync(join(repo, "src/helper.ts"), "export function fromElsewhere(): void {}\n");
			await host.prompt("after a change from elsewhere");
			assert.match(
				syncMessages(host).join("\n"),
				/src\/helper\.ts \(changed, not by this session\): \+ function fromElsewhere/,
			);
		});
		await withHost({ cwd: await tempDir(), extensions: [FOVEA] }, async (host) => {
			await host.runTools([{ name: "read", arguments: { path: join(alias, "src/helper.ts") } }]);
			const dwell = await host.runTools([{ name: "fovea_dwell", arguments: { root: repo, factor: 3 } }]);
			assert.match(
				dwell.toolResults[0]?.text ?? "",
				new RegExp(`^fovea dwell · root ${repo} · "around src/helper\\.ts"`),
			);
		});
	});

	it("without a change watch (FOVEA_WATCH=0) an unchanged Git root costs a status probe and no refresh", async () => {
		const repo = await project("plain");
		process.env.FOVEA_WATCH = "0";
		try {
			await withHost({ cwd: repo, extensions: [FOVEA] }, async (host) => {
				await host.runTools([{ name: "read", arguments: { path: "src/main.ts" } }]);
				const before = await counters(host);
				await host.prompt("nothing changed");
				const idle = await counters(host);
				// The run is probed before it starts (the root is warm) and after it settles: a status probe each.
				assert.equal(idle.probes, before.probes + 2, "a status probe per check");
				assert.equal(idle.unchanged, before.unchanged + 2, "each found nothing changed");
				assert.equal(idle.watched, 0, "no watch answered");
				assert.equal(idle.refreshes, before.refreshes, "and no refresh");
			});
		} finally {
			delete process.env.FOVEA_WATCH;
		}
	});

	it("an explicit directory inside a worktree is swept, never probed with the status of the repository around it", async () => {
		const repo = await project("mono");
		const narrow = join(repo, "src");
		process.env.FOVEA_WATCH = "0";
		try {
			await withHost({ cwd: repo, extensions: [FOVEA] }, async (host) => {
				const run = await host.runTools([{ name: "fovea_focus", arguments: { query: "helper", root: narrow } }]);
				const [focus] = run.toolResults;
				assert.equal(focus?.isError, false, JSON.stringify(focus));
				assert.deepEqual(newestRing(host, FOVEA_WORKSPACE_ENTRY), [narrow]);
				await host.prompt("nothing changed");
				const first = await counters(host);
				assert.equal(first.baselines, 1, "the directory is observed");
				assert.equal(first.sweeps, 1, "and swept, as a directory without Git is");
				await host.prompt("still nothing");
				const then = await counters(host);
				// Git run there would speak of the whole repository, with its paths. One probe found that out (Git
				// refused); no status probe is made since.
				assert.ok(first.probes <= 1, `one status probe at most: ${first.probes}`);
				assert.equal(then.probes, first.probes, "no status probe of the repository around it");
			});
		} finally {
			delete process.env.FOVEA_WATCH;
		}
	});

	it("a project without Git is swept at once when its change watch saw a change, not 30 s later", async () => {
		const dir = join(await tempDir(), "plain-project");
		writeFiles(dir, { "package.json": "{}\n", "src/main.ts": MAIN, "src/helper.ts": HELPER });
		await withHost({ cwd: dir, extensions: [FOVEA] }, async (host) => {
			await host.runTools([{ name: "read", arguments: { path: "src/main.ts" } }]);
			const before = await counters(host);
			assert.equal(before.baselines, 1);
			writeFileSync(join(dir, "src/helper.ts"), `${HELPER}export function fromElsewhere(): void {}\n`);
			await host.prompt("go on");
			const [message] = syncMessages(host);
			assert.match(message ?? "", /src\/helper\.ts .*\+ function fromElsewhere/, `told at once:\n${message}`);
			assert.equal((await counters(host)).sweeps, before.sweeps + 1, "by one sweep");
		});
	});

	it("a file whose name holds an escape sequence is told with the sequence written out", async () => {
		const dir = join(await tempDir(), "plain-escapes");
		writeFiles(dir, { "package.json": "{}\n", "src/main.ts": MAIN, "src/helper.ts": HELPER });
		await withHost({ cwd: dir, extensions: [FOVEA] }, async (host) => {
			await host.runTools([{ name: "read", arguments: { path: "src/main.ts" } }]);
			await commandText(host, "/fovea status"); // the baseline is set by the index after the turn
			writeFileSync(join(dir, "src/evil\u001b[2J.ts"), "export function wipe(): void {}\n");
			await host.prompt("go on");
			const [message] = syncMessages(host);
			assert.ok(message?.includes("src/evil\\u001b[2J.ts (added, not by this session)"), `told:\n${message}`);
			assert.ok(!message?.includes("\u001b"), "no raw escape reaches the model");
			assert.ok(!(await commandText(host, "/fovea status")).includes("\u001b"));
		});
	});

	it("keeps observation per root: a change in an untouched root is never reported, labels name the root", async () => {
		const a = await project("alpha");
		const b = await project("beta");
		await withHost({ cwd: a, extensions: [FOVEA] }, async (host) => {
			await host.runTools([{ name: "read", arguments: { path: join(a, "src/main.ts") } }]);
			await counters(host);
			writeFileSync(join(b, "src/helper.ts"), `${HELPER}export function elsewhere(): void {}\n`);
			writeFileSync(join(a, "src/helper.ts"), `${HELPER}export function here(): void {}\n`);
			await host.prompt("go");
			const [message] = syncMessages(host);
			assert.match(message ?? "", new RegExp(`In ${a}:\\n  src/helper\\.ts .*\\+ function here`));
			assert.doesNotMatch(message ?? "", /elsewhere|beta/);
		});
	});

	it("a root deleted while observed is told once as gone, and the other roots' drift is still told", async () => {
		const a = await project("deleted");
		const b = await project("kept");
		await withHost({ cwd: await tempDir(), extensions: [FOVEA] }, async (host) => {
			// More attention on the root that will be deleted: it is probed first.
			for (const path of ["src/main.ts", "src/helper.ts", "src/main.ts"])
				await host.runTools([{ name: "read", arguments: { path: join(a, path) } }]);
			await host.runTools([{ name: "read", arguments: { path: join(b, "src/main.ts") } }]);
			assert.equal((await counters(host)).baselines, 2);

			rmSync(a, { recursive: true, force: true });
			writeFileSync(join(b, "src/helper.ts"), `${HELPER}export function stillTold(): void {}\n`);
			await host.prompt("go on");
			const message = syncMessages(host).at(-1) ?? "";
			assert.match(message, new RegExp(`Gone ${a}: the directory no longer exists \\(deleted or moved\\)`));
			assert.match(message, new RegExp(`In ${b}:\\n  src/helper\\.ts .*\\+ function stillTold`));
			assert.match(await commandText(host, "/fovea status"), /roots gone 1/);
			// The ring lets it go (and persists that); the kept root stays.
			const roots = await commandText(host, "/fovea roots");
			assert.doesNotMatch(roots, new RegExp(`${a}\\b`), "a gone root holds no place in the ring");
			assert.match(roots, new RegExp(b));
			assert.deepEqual(newestRing(host, FOVEA_WORKSPACE_ENTRY), [b], "and persists that");

			await host.prompt("and on");
			const toldAgain = syncMessages(host).slice(1).join("\n");
			assert.doesNotMatch(toldAgain, new RegExp(`Gone ${a}`), "told once");

			// A project made again at that path enrolls afresh: a new boundary, with no delta invented against the old.
			gitRepo(
				a,
				{ "src/main.ts": MAIN, "src/helper.ts": `${HELPER}export function reborn(): void {}\n` },
				{ commit: true },
			);
			await host.runTools([{ name: "read", arguments: { path: join(a, "src/main.ts") } }]);
			assert.deepEqual(newestRing(host, FOVEA_WORKSPACE_ENTRY), [a, b]);
			const told = syncMessages(host).length;
			await host.prompt("back again");
			assert.doesNotMatch(
				syncMessages(host).slice(told).join("\n"),
				/reborn|Gone/,
				"nothing invented, nothing repeated",
			);
		});
	});

	it("drift that does not fit the shared budget waits for the next message instead of being lost", async () => {
		const names = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"];
		const repo = gitRepo(
			join(await tempDir(), "many"),
			Object.fromEntries(names.map((n) => [`src/${n}.ts`, `export function ${n}(): number {\n\treturn 1;\n}\n`])),
			{ commit: true },
		);
		process.env.FOVEA_SYNC_TOKENS = "100";
		try {
			await withHost({ cwd: repo, extensions: [FOVEA] }, async (host) => {
				await host.runTools([{ name: "read", arguments: { path: "src/alpha.ts" } }]);
				await counters(host);
				for (const n of names) appendFileSync(join(repo, `src/${n}.ts`), `export function ${n}Later(): void {}\n`);
				await host.prompt("first");
				const first = syncMessages(host).at(-1) ?? "";
				assert.match(first, /… \d+ more, told in a later message/, first);
				// Each later message tells what the one before it left (how much fits depends on the root label's length).
				const all = () => names.every((n) => syncMessages(host).join("\n").includes(`+ function ${n}Later`));
				for (let run = 2; run <= names.length && !all(); run++) await host.prompt(`run ${run}`);
				const told = syncMessages(host).join("\n");
				for (const n of names) assert.match(told, new RegExp(`\\+ function ${n}Later`), `${n} was told:\n${told}`);
			});
		} finally {
			delete process.env.FOVEA_SYNC_TOKENS;
		}
	});

	it("the shared budget is spent on the root the agent works in most first, not the one observed first", async () => {
		const [older, newer] = [await project("older"), await project("newer")];
		process.env.FOVEA_SYNC_TOKENS = "100";
		try {
			await withHost({ cwd: older, extensions: [FOVEA] }, async (host) => {
				await host.runTools([{ name: "read", arguments: { path: join(older, "src/main.ts") } }]);
				await host.runTools([{ name: "read", arguments: { path: join(newer, "src/main.ts") } }]);
				await host.runTools([{ name: "read", arguments: { path: join(newer, "src/helper.ts") } }]);
				await counters(host);
				for (const root of [older, newer]) {
					appendFileSync(join(root, "src/helper.ts"), "export function laterHelperWithALongName(): void {}\n");
					appendFileSync(join(root, "src/main.ts"), "export function laterMainWithALongName(): void {}\n");
				}
				await host.prompt("go on");
				const message = syncMessages(host).at(-1) ?? "";
				const labels = message.split("\n").filter((line) => line.startsWith("In "));
				assert.equal(labels[0], `In ${newer}:`, message);
			});
		} finally {
			delete process.env.FOVEA_SYNC_TOKENS;
		}
	});

	it("a retirement notice left untold belongs to its branch: tree navigation to another does not tell it", async () => {
		const a = await project("first");
		const b = await project("second");
		process.env.FOVEA_MAX_ROOTS = "1";
		try {
			await withHost({ cwd: await tempDir(), extensions: [FOVEA] }, async (host) => {
				await host.runTools([{ name: "read", arguments: { path: join(a, "src/main.ts") } }], { prompt: "in a" });
				await counters(host);
				await host.runTools([{ name: "read", arguments: { path: join(b, "src/main.ts") } }], { prompt: "in b" });
				// Back to the branch where `a` is the ring's root: "Retired a" would be false there.
				await host.navigateTree(host.lastUserEntryId("in b"));
				assert.deepEqual(newestRing(host, FOVEA_WORKSPACE_ENTRY), [a]);
				await host.prompt("on the first branch");
				assert.doesNotMatch(syncMessages(host).join("\n"), /Retired/, "nothing of the other branch is told");
			});
		} finally {
			delete process.env.FOVEA_MAX_ROOTS;
		}
	});

	it("reload and tree navigation restore the roots, not their semantic baselines: a change made before is no delta", async () => {
		const a = await project("first");
		await withHost({ cwd: await tempDir(), extensions: [FOVEA] }, async (host) => {
			await host.runTools([{ name: "read", arguments: { path: join(a, "src/main.ts") } }], { prompt: "in a" });
			await counters(host);
			let told = syncMessages(host).length;
			// Each restore below follows a change nobody told yet: a restored baseline would tell it as a delta.
			appendFileSync(join(a, "src/helper.ts"), "export function beforeReload(): void {}\n");
			await host.command("/reload");
			assert.deepEqual(newestRing(host, FOVEA_WORKSPACE_ENTRY), [a], "the root is restored");
			await host.prompt("after the reload");
			await host.prompt("and again");
			assert.doesNotMatch(syncMessages(host).slice(told).join("\n"), /beforeReload/, "no baseline survived /reload");

			await host.runTools([{ name: "read", arguments: { path: join(a, "src/main.ts") } }], { prompt: "read again" });
			await counters(host);
			told = syncMessages(host).length;
			appendFileSync(join(a, "src/helper.ts"), "export function beforeNavigation(): void {}\n");
			await host.navigateTree(host.lastUserEntryId("read again"));
			assert.deepEqual(newestRing(host, FOVEA_WORKSPACE_ENTRY), [a]);
			await host.prompt("on the branch");
			await host.prompt("and again");
			assert.doesNotMatch(syncMessages(host).slice(told).join("\n"), /beforeNavigation/, "nor tree navigation");

			// The new boundary is live: a change after it is told, as someone else's.
			await host.runTools([{ name: "read", arguments: { path: join(a, "src/main.ts") } }]);
			await counters(host);
			appendFileSync(join(a, "src/helper.ts"), "export function afterRestore(): void {}\n");
			await host.prompt("after a later change");
			assert.match(
				syncMessages(host).slice(told).join("\n"),
				/src\/helper\.ts \(changed, not by this session\): \+ function afterRestore/,
			);
		});
	});

	it("a first successful write after re-entry is part of the new baseline: no invented prior delta, no authorship", async () => {
		await withFirstRetired(async (host, a) => {
			const baselines = (await counters(host)).baselines;
			const write = await host.runTools([
				{
					name: "write",
					arguments: { path: join(a, "src/fresh.ts"), content: "export function firstWrite(): void {}\n" },
				},
			]);
			assert.equal(write.toolResults[0]?.isError, false, write.toolResults[0]?.text);
			assert.deepEqual(newestRing(host, FOVEA_WORKSPACE_ENTRY), [a], "the write re-enrolled the root");
			assert.equal((await counters(host)).baselines, baselines + 1, "a new observation boundary");
			const toldBefore = syncMessages(host).length;
			await host.prompt("after the first write");
			await host.prompt("and one more");
			const after = syncMessages(host).slice(toldBefore).join("\n");
			assert.doesNotMatch(after, /whileAway/, "the inactive interval is no delta");
			assert.doesNotMatch(after, /firstWrite|fresh\.ts/, "the write is in the baseline, told as nothing");

			// The boundary holds what was there: a later change by someone else is told against it, as theirs.
			appendFileSync(join(a, "src/fresh.ts"), "export function later(): void {}\n");
			await host.prompt("after a change from elsewhere");
			const later = syncMessages(host).slice(toldBefore).join("\n");
			assert.match(later, /src\/fresh\.ts \(changed, not by this session\): \+ function later/);
			assert.doesNotMatch(later, /whileAway|firstWrite/);
		});
	});

	it("cold roots are never probed in the blocking before-run hook, only by the post-turn backstop", async () => {
		const a = await project("first");
		const b = await project("second");
		process.env.FOVEA_CACHE_ROOTS = "1";
		try {
			await withHost({ cwd: await tempDir(), extensions: [FOVEA] }, async (host) => {
				await host.runTools([{ name: "read", arguments: { path: join(a, "src/main.ts") } }]);
				await counters(host);
				await host.runTools([{ name: "read", arguments: { path: join(b, "src/main.ts") } }]);
				await counters(host);
				const roots = await commandText(host, "/fovea roots");
				assert.match(roots, new RegExp(`${a}  \\[git\\] · enrolled \\d+ s ago · map not loaded`), roots);

				appendFileSync(join(a, "src/helper.ts"), "export function coldChange(): void {}\n");
				const before = await counters(host);
				const toldBefore = syncMessages(host).length;
				// The hook would wait for any probe it queued (FOVEA_WARM_PROBE_MS is 20 s here): none is queued for `a`.
				await host.prompt("first run after the change");
				assert.doesNotMatch(syncMessages(host).slice(toldBefore).join("\n"), /coldChange/, "not probed before the run");
				const after = await counters(host);
				assert.ok(after.refreshes > before.refreshes, "the backstop after the run probed and rebuilt the cold root");
				await host.prompt("second run");
				assert.match(
					syncMessages(host).slice(toldBefore).join("\n"),
					/src\/helper\.ts \(changed, not by this session\): \+ function coldChange/,
				);
			});
		} finally {
			delete process.env.FOVEA_CACHE_ROOTS;
		}
	});

	it("notices retirement, and re-entry starts a new boundary without inventing a prior delta", async () => {
		await withFirstRetired(async (host, a) => {
			await host.runTools([{ name: "read", arguments: { path: join(a, "src/main.ts") } }]);
			await counters(host);
			const toldBefore = syncMessages(host).length;
			await host.prompt("back in the first root");
			const after = syncMessages(host).slice(toldBefore).join("\n");
			assert.doesNotMatch(after, /whileAway/, "the inactive interval is neither certified nor invented as a delta");
		});
	});
});
