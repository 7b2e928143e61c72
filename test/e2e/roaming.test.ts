/**
 * Roaming workspaces, end to end: the real Pi host with pi-fovea and pi-contour loaded, a scripted model making
 * real tool calls against real Git repositories in temp directories.
 *
 * Seed rules covered (shared/seeds/roaming-workspaces.md):
 * - Enrollment: successful read/edit/write/grep/ls results and literal shell cwd hints (`cd <dir> && …`,
 *   `git -C <dir>`) enroll the owning project; shell programs, output and variables are not evaluated; the nearest
 *   Git marker (directory or worktree `.git` file) wins; an umbrella directory without a marker is not a project;
 *   home/dependency/generated paths are excluded; failed or blocked results enroll nothing; Contour takes Git roots only.
 * - Identity: canonical (symlink) aliases share identity; linked worktrees remain distinct.
 * - Bounded continuity: the ring holds 32 roots by default (`FOVEA_MAX_ROOTS` / `CONTOUR_MAX_ROOTS` bound it), refreshes
 *   on use and retires the least recently used root instead of throwing; compaction writes a fresh snapshot;
 *   reload/fork/tree navigation restore the selected branch's roots; reset clears the ring; malformed entries are
 *   skipped; startup and idle hooks do not scan the launch directory.
 * - Shared API: version-1 hints on `pi-workspace:access:v1` are accepted only from the other extension with the same
 *   nonempty session id and are never rebroadcast; Crew's agents' roots come on Crew's own channel instead.
 */

import assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { NestedToolCalls } from "@earendil-works/pi-ai";
import { cleanupTempDirs, type PiHost, piCodingAgent, type StartHostOptions, startHost, tempDir } from "./harness.ts";
import { probeFilesystem } from "./support/fs-probe.ts";
import {
	ACCESS_EVENT,
	AGENT_ACCESS_EVENT,
	BLOCK_READS_EXTENSION,
	CONTOUR_ENTRY,
	CONTOUR_EXTENSION,
	callEach,
	commandText,
	contourListed,
	FOVEA_ENTRY,
	FOVEA_EXTENSION,
	foveaListed,
	git,
	gitRepo,
	listedRoots,
	newestRing,
	readEach,
	sleep,
	waitFor,
	workspaceEntryCount,
	writeFiles,
} from "./support/workspaces.ts";

const BOTH = [FOVEA_EXTENSION, CONTOUR_EXTENSION];
const FABRIC_EXTENSION = fileURLToPath(new URL("./fixtures/fabric-extension.ts", import.meta.url));

after(async () => {
	await cleanupTempDirs();
});

/** Start a host with both extensions (plus `extra`), run `body`, always dispose. */
async function withHost<T>(
	cwd: string,
	body: (host: PiHost) => Promise<T>,
	options: Partial<StartHostOptions> & { extra?: string[] } = {},
): Promise<T> {
	const { extra = [], ...rest } = options;
	const host = await startHost({ cwd, extensions: [...BOTH, ...extra], ...rest });
	try {
		const result = await body(host);
		assert.deepEqual(host.errors, [], "no extension errors");
		return result;
	} finally {
		await host.dispose();
	}
}

/** The newest persisted rings of both extensions (`[]` when nothing was persisted yet). */
function rings(host: PiHost): { fovea: string[]; contour: string[] } {
	return { fovea: newestRing(host, FOVEA_ENTRY) ?? [], contour: newestRing(host, CONTOUR_ENTRY) ?? [] };
}

/** The rings as `/fovea roots` and `/contour status` show them. */
async function listed(host: PiHost): Promise<{ fovea: string[]; contour: string[] }> {
	return { fovea: await foveaListed(host), contour: await contourListed(host) };
}

/** A fresh temp base with an empty coordinator directory (no project marker) to use as the session cwd. */
async function workspace(): Promise<{ base: string; cwd: string }> {
	const base = await tempDir("pi-roam-");
	const cwd = join(base, "coordinator");
	mkdirSync(cwd);
	return { base, cwd };
}

/** `count` small Git repositories `<base>/<prefix>-NN`, each holding `src/mod.ts`. */
function manyRepos(base: string, prefix: string, count: number): string[] {
	return Array.from({ length: count }, (_, i) =>
		gitRepo(join(base, `${prefix}-${String(i + 1).padStart(2, "0")}`), { "src/mod.ts": `export const n = ${i};\n` }),
	);
}

/** One small Git repository `<base>/<name>` per name, each holding `src/mod.ts`. */
function namedRepos<N extends string>(base: string, ...names: N[]): Record<N, string> {
	const repos = {} as Record<N, string>;
	for (const name of names) {
		repos[name] = gitRepo(join(base, name), { "src/mod.ts": `export const name = "${name}";\n` });
	}
	return repos;
}

const modFile = (repo: string) => join(repo, "src/mod.ts");

// ---------------------------------------------------------------------------------------------------------

describe("enrollment: which project owns an accessed path", () => {
	it("enrolls three disjoint repos and a repo nested in an umbrella, most recent first; the umbrella, node_modules and dist enroll nothing", async () => {
		const { base, cwd } = await workspace();
		const alpha = gitRepo(join(base, "alpha"), {
			"src/a.ts": "export const a = 1;\n",
			"node_modules/x/index.js": "module.exports = 1;\n",
			"node_modules/x/package.json": '{"name":"x"}\n',
			"dist/bundle.js": "console.log(1);\n",
		});
		const beta = gitRepo(join(base, "beta"), { "lib/b.py": "B = 2\n" });
		const gamma = gitRepo(join(base, "gamma"), { "main.go": "package main\n" });
		const umbrella = join(base, "umbrella");
		writeFiles(umbrella, { "notes.txt": "coordinator notes\n" });
		const nested = gitRepo(join(umbrella, "nested"), { "src/n.rs": "fn main() {}\n" });

		await withHost(cwd, async (host) => {
			assert.equal(workspaceEntryCount(host), 0, "startup persists nothing");
			await readEach(host, [join(alpha, "src/a.ts"), join(beta, "lib/b.py"), join(gamma, "main.go")]);
			await readEach(host, [join(nested, "src/n.rs")]);
			const expected = [nested, gamma, beta, alpha];
			assert.deepEqual(rings(host), { fovea: expected, contour: expected });
			assert.deepEqual(await listed(host), { fovea: expected, contour: expected });
			const markers = listedRoots(await commandText(host, "/fovea roots")).map((row) => row.marker);
			assert.deepEqual(markers, ["git", "git", "git", "git"]);

			const entriesBefore = workspaceEntryCount(host);
			await readEach(host, [
				join(umbrella, "notes.txt"),
				join(alpha, "node_modules/x/index.js"),
				join(alpha, "node_modules/x/package.json"),
				join(alpha, "dist/bundle.js"),
			]);
			assert.equal(workspaceEntryCount(host), entriesBefore, "no workspace entry appended");
			// alpha stays last: a dependency or build-output access neither enrolls nor refreshes its repository.
			assert.deepEqual(rings(host), { fovea: expected, contour: expected });
			assert.deepEqual(await listed(host), { fovea: expected, contour: expected });
		});
	});

	it("a manifest-only project enrolls in Fovea but not in Contour (Git roots only, peer hint refused too)", async () => {
		const { base, cwd } = await workspace();
		const repo = gitRepo(join(base, "repo"), { "src/r.ts": "export {};\n" });
		const pkg = join(base, "pkg");
		writeFiles(pkg, { "package.json": '{"name":"pkg"}\n', "lib/index.js": "module.exports = {};\n" });

		await withHost(cwd, async (host) => {
			await readEach(host, [join(repo, "src/r.ts"), join(pkg, "lib/index.js")]);
			await sleep(100); // let a (wrongly) accepted peer hint land
			assert.deepEqual(rings(host), { fovea: [pkg, repo], contour: [repo] });
			assert.deepEqual(await listed(host), { fovea: [pkg, repo], contour: [repo] });
			const markers = listedRoots(await commandText(host, "/fovea roots")).map((row) => row.marker);
			assert.deepEqual(markers, ["manifest", "git"]);
		});
	});

	it("a symlink alias is the same root: no new member, the real repo is refreshed to the front", async () => {
		const { base, cwd } = await workspace();
		const repoA = gitRepo(join(base, "repoA"), { "src/a.ts": "export const a = 1;\n" });
		const repoB = gitRepo(join(base, "repoB"), { "src/b.ts": "export const b = 1;\n" });
		const aliasA = join(base, "aliasA");
		symlinkSync(repoA, aliasA);

		await withHost(cwd, async (host) => {
			await readEach(host, [join(repoA, "src/a.ts"), join(repoB, "src/b.ts")]);
			assert.deepEqual(rings(host).fovea, [repoB, repoA]);
			await readEach(host, [join(aliasA, "src/a.ts")]);
			assert.deepEqual(rings(host), { fovea: [repoA, repoB], contour: [repoA, repoB] });
			assert.deepEqual(await listed(host), { fovea: [repoA, repoB], contour: [repoA, repoB] });
			const all = host.customEntries<{ roots: string[] }>(FOVEA_ENTRY, "all").flatMap((data) => data.roots);
			assert.ok(!all.includes(aliasA), "the alias path is never persisted");
		});
	});

	it("a linked worktree enrolls as its own root, distinct from its main repository, in both rings", async () => {
		const { base, cwd } = await workspace();
		const main = gitRepo(join(base, "main"), { "src/app.ts": "export const app = 1;\n" }, { commit: true });
		const worktree = join(base, "wt-feature");
		git(main, "worktree", "add", "-q", "../wt-feature", "-b", "feature");

		await withHost(cwd, async (host) => {
			await readEach(host, [join(main, "src/app.ts"), join(worktree, "src/app.ts")]);
			assert.deepEqual(rings(host), { fovea: [worktree, main], contour: [worktree, main] });
			assert.deepEqual(await listed(host), { fovea: [worktree, main], contour: [worktree, main] });
			const rows = listedRoots(await commandText(host, "/fovea roots"));
			assert.deepEqual(
				rows.map((row) => row.marker),
				["git-file", "git"],
			);
		});
	});

	it("a blocked tool_call and a failed read enroll nothing and append no workspace entry", async () => {
		const { base, cwd } = await workspace();
		const guarded = gitRepo(join(base, "guarded"), { "src/BLOCKED.ts": "secret\n", "src/open.ts": "export {};\n" });
		const other = gitRepo(join(base, "other"), { "src/o.ts": "export {};\n" });

		await withHost(
			cwd,
			async (host) => {
				const run = await readEach(host, [join(guarded, "src/BLOCKED.ts"), join(other, "src/missing.ts")], {
					expectOk: false,
				});
				assert.deepEqual(
					run.toolResults.map((result) => ({ isError: result.isError, executed: result.executed })),
					[
						{ isError: true, executed: false },
						{ isError: true, executed: true },
					],
				);
				assert.match(run.toolResults[0]?.text ?? "", /fixture denied read/);
				assert.equal(workspaceEntryCount(host), 0, "no workspace entry appended");
				assert.deepEqual(await listed(host), { fovea: [], contour: [] });

				// Control: the same repositories do enroll through a successful read.
				await readEach(host, [join(guarded, "src/open.ts"), join(other, "src/o.ts")]);
				assert.deepEqual(rings(host), { fovea: [other, guarded], contour: [other, guarded] });
			},
			{ extra: [BLOCK_READS_EXTENSION] },
		);
	});
});

describe("enrollment through nested calls (Fabric-style)", () => {
	it("calls made inside another tool's execution enroll by the same rule; fabric_exec's own source never does", async () => {
		const { base, cwd } = await workspace();
		const { nestedRead, nestedLs, onlyInSource, failedRead, guarded } = namedRepos(
			base,
			"nestedRead",
			"nestedLs",
			"onlyInSource",
			"failedRead",
			"guarded",
		);
		const source = `cd ${onlyInSource} && cat src/mod.ts; git -C ${onlyInSource} status; pi.read("${modFile(onlyInSource)}")`;
		const calls = [
			{ name: "read", args: { path: modFile(nestedRead) } },
			{ name: "read", args: { path: join(failedRead, "src/missing.ts") } },
			{ name: "read", args: { path: join(guarded, "src/BLOCKED.ts") } },
			{ name: "ls", args: { path: nestedLs } },
		];
		await withHost(
			cwd,
			async (host) => {
				const run = await callEach(host, [{ name: "fabric_exec", arguments: { source, calls } }]);
				assert.equal(run.toolResults.length, 1, "the nested calls are not transcript tool calls");
				assert.equal(run.toolResults[0]?.text, "read: ok\nread: error\nread: error\nls: ok");
				const record = (host.branch() as Array<{ message?: { role?: string; nestedCalls?: NestedToolCalls } }>)
					.map((entry) => entry.message?.nestedCalls)
					.find((calls) => calls !== undefined);
				assert.deepEqual(
					record?.calls.map((call) => [call.name, call.status]),
					[
						["read", "ok"],
						["read", "error"],
						["read", "error"],
						["ls", "ok"],
					],
					"the calls ran nested, each through its own lifecycle (the blocked one refused before it ran)",
				);
				assert.deepEqual(rings(host), { fovea: [nestedLs, nestedRead], contour: [nestedLs, nestedRead] });
				assert.deepEqual(await listed(host), { fovea: [nestedLs, nestedRead], contour: [nestedLs, nestedRead] });
			},
			{ extra: [FABRIC_EXTENSION, BLOCK_READS_EXTENSION] },
		);
	});
});

describe("enrollment: structured tool paths and literal shell hints", () => {
	it("ls, grep, write and edit enroll the project owning their path", async () => {
		const { base, cwd } = await workspace();
		const { listedRepo, grepped, written, edited } = namedRepos(base, "listedRepo", "grepped", "written", "edited");

		await withHost(cwd, async (host) => {
			await callEach(host, [
				{ name: "ls", arguments: { path: listedRepo } },
				{ name: "grep", arguments: { pattern: "export", path: grepped } },
				{ name: "write", arguments: { path: join(written, "src/new.ts"), content: "export const fresh = 1;\n" } },
				{
					name: "edit",
					arguments: {
						path: modFile(edited),
						edits: [{ oldText: '"edited"', newText: '"edited twice"' }],
					},
				},
			]);
			const expected = [edited, written, grepped, listedRepo];
			assert.deepEqual(rings(host), { fovea: expected, contour: expected });
		});
	});

	it("bash `cd <repo> && ls` and `git -C <repo>` enroll; `cd $HOME`, `cd ~`, `echo <path>` and a failing command do not", async () => {
		const { base, cwd } = await workspace();
		const { repoB, repoC, repoD, repoE } = namedRepos(base, "repoB", "repoC", "repoD", "repoE");
		const bash = (command: string) => ({ name: "bash", arguments: { command } });

		await withHost(cwd, async (host) => {
			await callEach(host, [bash("cd $HOME && ls"), bash("cd ~ && ls"), bash(`echo ${repoC}`)]);
			const failing = await callEach(host, [bash(`cd ${repoD} && false`)], { expectOk: false });
			assert.equal(failing.toolResults[0]?.isError, true, "the failing command is an error result");
			assert.equal(workspaceEntryCount(host), 0, "nothing enrolled by unevaluated or failed shell commands");

			await callEach(host, [bash(`cd ${repoB} && ls`)]);
			assert.deepEqual(rings(host), { fovea: [repoB], contour: [repoB] });
			await callEach(host, [bash(`git -C ${repoE} status --short`)]);
			assert.deepEqual(rings(host), { fovea: [repoE, repoB], contour: [repoE, repoB] });
			assert.deepEqual(await listed(host), { fovea: [repoE, repoB], contour: [repoE, repoB] });
		});
	});
});

describe("enrollment: the home directory", () => {
	it("the home directory (even a Git repo), its dot-dirs and `cd ~` / `cd $HOME` never enroll; a repo under home does", async () => {
		const { base, cwd } = await workspace();
		const home = gitRepo(join(base, "home"), {
			"notes.ts": "export const notes = 1;\n",
			".config/tool/package.json": '{"name":"tool"}\n',
			".config/tool/index.js": "module.exports = {};\n",
		});
		const project = gitRepo(join(home, "projects/p"), { "src/x.ts": "export const x = 1;\n" });
		const savedHome = process.env.HOME;
		process.env.HOME = home;
		try {
			await withHost(cwd, async (host) => {
				await readEach(host, [join(home, "notes.ts"), "~/notes.ts", join(home, ".config/tool/index.js")]);
				await callEach(host, [
					{ name: "bash", arguments: { command: "cd ~ && ls" } },
					{ name: "bash", arguments: { command: "cd $HOME && ls" } },
					{ name: "ls", arguments: { path: home } },
				]);
				assert.equal(workspaceEntryCount(host), 0, "nothing under home enrolled");

				await readEach(host, ["~/projects/p/src/x.ts"]);
				assert.deepEqual(rings(host), { fovea: [project], contour: [project] });
			});
		} finally {
			restoreEnv("HOME", savedHome);
		}
	});
});

describe("bounded rings", () => {
	it("35 roots rotate through the default ring of 32: the oldest three retire, re-use refreshes, nothing throws", async () => {
		const { base, cwd } = await workspace();
		const repos = manyRepos(base, "r", 35);

		await withHost(cwd, async (host) => {
			const run = await readEach(host, repos.map(modFile));
			assert.equal(run.assistantText, "done");
			const last32 = repos.slice(3).reverse();
			assert.deepEqual(rings(host), { fovea: last32, contour: last32 });
			const text = await commandText(host, "/fovea roots");
			assert.match(text, /32 of at most 32 roots/);
			for (const retired of repos.slice(0, 3)) assert.ok(!text.includes(`${retired}  [`), `${retired} retired`);
			assert.deepEqual(await contourListed(host), last32);

			const fifth = repos[4] as string;
			await readEach(host, [modFile(fifth)]);
			const refreshed = [fifth, ...last32.filter((root) => root !== fifth)];
			assert.equal(refreshed.length, 32);
			assert.deepEqual(rings(host), { fovea: refreshed, contour: refreshed });
			assert.deepEqual(await listed(host), { fovea: refreshed, contour: refreshed });
		});
	});

	it("FOVEA_MAX_ROOTS=3 keeps three roots in Fovea; CONTOUR_MAX_ROOTS=2 bounds Contour independently", async () => {
		const { base, cwd } = await workspace();
		const repos = manyRepos(base, "small", 5);
		const saved = { fovea: process.env.FOVEA_MAX_ROOTS, contour: process.env.CONTOUR_MAX_ROOTS };
		let host: PiHost | undefined;
		try {
			process.env.FOVEA_MAX_ROOTS = "3";
			process.env.CONTOUR_MAX_ROOTS = "2";
			host = await startHost({ cwd, extensions: BOTH });
		} finally {
			restoreEnv("FOVEA_MAX_ROOTS", saved.fovea);
			restoreEnv("CONTOUR_MAX_ROOTS", saved.contour);
		}
		try {
			await readEach(host, repos.map(modFile));
			const newestFirst = [...repos].reverse();
			assert.deepEqual(rings(host), { fovea: newestFirst.slice(0, 3), contour: newestFirst.slice(0, 2) });
			assert.deepEqual(await listed(host), { fovea: newestFirst.slice(0, 3), contour: newestFirst.slice(0, 2) });
			assert.match(await commandText(host, "/fovea roots"), /3 of at most 3 roots/);
			assert.deepEqual(host.errors, []);
		} finally {
			await host.dispose();
		}
	});
});

function restoreEnv(name: string, value: string | undefined): void {
	if (value === undefined) delete process.env[name];
	else process.env[name] = value;
}

describe("continuity: compaction, reload, fork, tree navigation, reset", () => {
	/** Three prompts, each reading one file of the next repo: "first", "second", "third". */
	async function threePrompts(host: PiHost, repos: readonly string[]): Promise<void> {
		for (const [i, label] of ["first", "second", "third"].entries()) {
			await readEach(host, [modFile(repos[i] as string)], { prompt: `${label} prompt` });
		}
	}

	it("compaction appends a fresh snapshot equal to the ring; /reload restores exactly that ring without appending", async () => {
		const { base, cwd } = await workspace();
		const { r1, r2, r3, r4 } = namedRepos(base, "r1", "r2", "r3", "r4");

		await withHost(cwd, async (host) => {
			await threePrompts(host, [r1, r2, r3]);
			const ring = [r3, r2, r1];
			const fovea = host.customEntries(FOVEA_ENTRY, "all").length;
			const contour = host.customEntries(CONTOUR_ENTRY, "all").length;

			await host.compact();
			assert.equal(host.customEntries(FOVEA_ENTRY, "all").length, fovea + 1, "one fresh Fovea snapshot");
			assert.equal(host.customEntries(CONTOUR_ENTRY, "all").length, contour + 1, "one fresh Contour snapshot");
			const branch = host.branch();
			const compactionIndex = branch.findIndex((entry) => entry.type === "compaction");
			assert.ok(compactionIndex >= 0);
			for (const type of [FOVEA_ENTRY, CONTOUR_ENTRY]) {
				const newest = host.customEntryRecords<unknown>(type).at(-1);
				assert.deepEqual(newest?.data, { version: 1, roots: ring });
				const index = branch.findIndex((entry) => entry.id === newest?.id);
				assert.ok(index > compactionIndex, `${type} snapshot follows the compaction entry`);
			}

			const beforeReload = workspaceEntryCount(host);
			await host.command("/reload");
			assert.equal(workspaceEntryCount(host), beforeReload, "restoring appends nothing");
			assert.deepEqual(await listed(host), { fovea: ring, contour: ring });

			// The restored ring is live: use refreshes, a new root enrolls at the front.
			await readEach(host, [modFile(r1), modFile(r4)]);
			assert.deepEqual(rings(host), { fovea: [r4, r1, r3, r2], contour: [r4, r1, r3, r2] });
		});
	});

	it("a peer's hint for the repository around an explicit narrow root does not widen it", async () => {
		const { base, cwd } = await workspace();
		const { r1 } = namedRepos(base, "r1");
		const narrow = join(r1, "src");
		await withHost(cwd, async (host) => {
			await callEach(host, [{ name: "fovea_focus", arguments: { query: "name", root: narrow } }]);
			await readEach(host, [modFile(r1)]);
			// Contour reviews Git worktrees, so it enrolls r1 and hints it; Fovea's narrow root already owns the read.
			assert.deepEqual(rings(host).contour, [r1], "Contour enrolled the repository (and hinted it)");
			await sleep(100); // let a (wrongly) accepted peer hint land
			assert.deepEqual(rings(host).fovea, [narrow], "the narrow root stays narrow: no peer widening to r1");
			assert.deepEqual(listedRoots(await commandText(host, "/fovea roots")), [{ root: narrow, marker: "explicit" }]);
		});
	});

	it("resuming a session file (session_start reason resume) restores its roots and its explicit narrow root", async () => {
		const { base, cwd } = await workspace();
		const { r1, r2, r3, r4 } = namedRepos(base, "r1", "r2", "r3", "r4");
		const narrow = join(r3, "src");
		const sessionDir = await tempDir("pi-roam-sessions-");
		await withHost(
			cwd,
			async (host) => {
				await readEach(host, [modFile(r1), modFile(r2)]);
				await callEach(host, [{ name: "fovea_focus", arguments: { query: "name", root: narrow } }]);
				const first = host.sessionFile();
				const before = listedRoots(await commandText(host, "/fovea roots"));
				assert.deepEqual(before, [
					{ root: narrow, marker: "explicit" },
					{ root: r2, marker: "git" },
					{ root: r1, marker: "git" },
				]);

				const contourBefore = await contourListed(host);
				assert.deepEqual(contourBefore.slice(-2), [r2, r1]);
				assert.equal((await host.newSession()).cancelled, false);
				assert.deepEqual(await listed(host), { fovea: [], contour: [] }, "a new session starts empty");
				await readEach(host, [modFile(r4)]);

				assert.equal((await host.switchSession(first)).cancelled, false);
				assert.deepEqual(listedRoots(await commandText(host, "/fovea roots")), [
					{ root: narrow, marker: "explicit" },
					{ root: r2, marker: "restored" },
					{ root: r1, marker: "restored" },
				]);
				assert.deepEqual(await contourListed(host), contourBefore, "Contour's ring is restored too");
				assert.deepEqual(rings(host).fovea, [narrow, r2, r1], "the resumed branch's newest snapshot");
			},
			{ sessionDir },
		);
	});

	it("a fork from an earlier user message restores only the roots enrolled before that message", async () => {
		const { base, cwd } = await workspace();
		const { r1, r2, r3 } = namedRepos(base, "r1", "r2", "r3");

		await withHost(cwd, async (host) => {
			await threePrompts(host, [r1, r2, r3]);
			const original = host.sessionId();
			const forked = await host.fork(host.lastUserEntryId("third prompt"));
			assert.equal(forked.cancelled, false);
			assert.notEqual(host.sessionId(), original);
			assert.deepEqual(await listed(host), { fovea: [r2, r1], contour: [r2, r1] });
			assert.deepEqual(rings(host), { fovea: [r2, r1], contour: [r2, r1] });

			// The fork keeps roaming on its own: r3 enrolls again as a new root.
			await readEach(host, [modFile(r3)]);
			assert.deepEqual(rings(host), { fovea: [r3, r2, r1], contour: [r3, r2, r1] });
		});
	});

	it("tree navigation restores the selected branch's roots, and navigating back restores the later ones", async () => {
		const { base, cwd } = await workspace();
		const { r1, r2, r3, r4 } = namedRepos(base, "r1", "r2", "r3", "r4");

		await withHost(cwd, async (host) => {
			await threePrompts(host, [r1, r2, r3]);
			const laterLeaf = host.leafId() as string;
			const entries = workspaceEntryCount(host);

			await host.navigateTree(host.lastUserEntryId("second prompt"));
			assert.equal(workspaceEntryCount(host), entries, "navigation appends nothing");
			assert.deepEqual(await listed(host), { fovea: [r1], contour: [r1] });

			// New activity on the earlier point forms a second branch.
			await readEach(host, [modFile(r4)], { prompt: "side branch" });
			assert.deepEqual(rings(host), { fovea: [r4, r1], contour: [r4, r1] });
			const sideLeaf = host.leafId() as string;

			await host.navigateTree(laterLeaf);
			assert.deepEqual(await listed(host), { fovea: [r3, r2, r1], contour: [r3, r2, r1] });
			assert.deepEqual(rings(host), { fovea: [r3, r2, r1], contour: [r3, r2, r1] });

			await host.navigateTree(sideLeaf);
			assert.deepEqual(await listed(host), { fovea: [r4, r1], contour: [r4, r1] });
		});
	});

	it("/fovea reset empties Fovea's ring (entry with roots: []), stays empty after /reload, leaves Contour's ring", async () => {
		const { base, cwd } = await workspace();
		const { r1, r2 } = namedRepos(base, "r1", "r2");

		await withHost(cwd, async (host) => {
			await readEach(host, [modFile(r1), modFile(r2)]);
			const text = await commandText(host, "/fovea reset");
			assert.match(text, /retired 2 roots/);
			assert.deepEqual(host.customEntries(FOVEA_ENTRY).at(-1), { version: 1, roots: [] });
			assert.deepEqual(rings(host), { fovea: [], contour: [r2, r1] });
			assert.match(await commandText(host, "/fovea roots"), /no roots yet \(at most 32;/);

			await host.command("/reload");
			assert.deepEqual(await listed(host), { fovea: [], contour: [r2, r1] });
			assert.match(await commandText(host, "/fovea roots"), /no roots yet \(at most 32;/);
		});
	});
});

describe("access hints between Fovea and Contour", () => {
	it("two sessions on one bus stay separate; a same-session peer hint steers Fovea once and is not rebroadcast", async () => {
		const { base } = await workspace();
		const cwdA = join(base, "session-a");
		const cwdB = join(base, "session-b");
		mkdirSync(cwdA);
		mkdirSync(cwdB);
		const { a1, a2, b1, b2, peer, peerForB, peerFovea, sentinel } = namedRepos(
			base,
			"a1",
			"a2",
			"b1",
			"b2",
			"peer",
			"peerForB",
			"peerFovea",
			"sentinel",
		);

		const bus = piCodingAgent.createEventBus();
		const emitted: unknown[] = [];
		const stopCounting = bus.on(ACCESS_EVENT, (data) => {
			emitted.push(data);
		});
		const [hostA, hostB] = await Promise.all([
			startHost({ cwd: cwdA, extensions: BOTH, eventBus: bus }),
			startHost({ cwd: cwdB, extensions: BOTH, eventBus: bus }),
		]);
		try {
			const idA = hostA.sessionId();
			const idB = hostB.sessionId();
			assert.notEqual(idA, idB);

			await readEach(hostA, [modFile(a1)]);
			await readEach(hostB, [modFile(b1)]);
			await Promise.all([readEach(hostA, [modFile(a2)]), readEach(hostB, [modFile(b2)])]);
			await sleep(100);
			assert.deepEqual(rings(hostA), { fovea: [a2, a1], contour: [a2, a1] });
			assert.deepEqual(rings(hostB), { fovea: [b2, b1], contour: [b2, b1] });
			assert.deepEqual(await listed(hostB), { fovea: [b2, b1], contour: [b2, b1] });
			// A's hints did cross the shared bus; B ignored them by session id.
			assert.ok(
				emitted.some((hint) => isDeepEqual(hint, { version: 1, source: "fovea", root: a1, sessionId: idA })),
				"Fovea in A published its enrollment on the shared bus",
			);

			// A hand-made Contour hint for A's session: Fovea in A takes it, Contour does not echo or rebroadcast.
			emitted.length = 0;
			const hint = { version: 1, source: "contour", root: peer, sessionId: idA };
			bus.emit(ACCESS_EVENT, hint);
			await waitFor(() => rings(hostA).fovea[0] === peer, "Fovea in A to take the peer hint");
			await sleep(150);
			assert.deepEqual(rings(hostA), { fovea: [peer, a2, a1], contour: [a2, a1] });
			assert.deepEqual(emitted, [hint], "no extension re-emitted the peer selection");
			assert.deepEqual(rings(hostB), { fovea: [b2, b1], contour: [b2, b1] });

			// The same hint with B's session id is not A's: A ignores it (B, whose session it names, takes it).
			const entriesA = workspaceEntryCount(hostA);
			bus.emit(ACCESS_EVENT, { ...hint, root: peerForB, sessionId: idB });
			await waitFor(() => rings(hostB).fovea[0] === peerForB, "Fovea in B to take its own session's hint");
			// source "fovea" is Fovea's own: Fovea ignores it, Contour (the other extension) takes it.
			bus.emit(ACCESS_EVENT, { ...hint, root: peerFovea, source: "fovea" });
			await waitFor(() => rings(hostA).contour[0] === peerFovea, "Contour in A to take a Fovea hint");

			// Malformed payloads change nothing and throw nothing.
			const malformed: unknown[] = [
				null,
				undefined,
				"pi-workspace",
				42,
				[],
				{},
				{ ...hint, root: sentinel, version: 2 },
				{ ...hint, root: sentinel, version: "1" },
				{ ...hint, root: "relative/repo" },
				{ ...hint, root: sentinel, sessionId: "" },
				{ ...hint, root: sentinel, sessionId: undefined },
				{ ...hint, root: sentinel, source: "crew" },
				{ ...hint, root: sentinel, source: "Crew" },
				{ ...hint, root: sentinel, source: "pi-crew" },
				{
					...hint,
					root: sentinel,
					source: "crew",
					origin: { kind: "crew-agent", agentId: "r:t", runId: "r", taskId: "t" },
				},
				{ version: 1, root: sentinel, sessionId: idA },
			];
			for (const payload of malformed) assert.doesNotThrow(() => bus.emit(ACCESS_EVENT, payload));
			await sleep(200);
			assert.deepEqual(rings(hostA), { fovea: [peer, a2, a1], contour: [peerFovea, a2, a1] });
			assert.equal(workspaceEntryCount(hostA), entriesA + 1, "only Contour's acceptance of the Fovea hint");
			assert.deepEqual(rings(hostB), { fovea: [peerForB, b2, b1], contour: [b2, b1] });
			assert.deepEqual(await listed(hostA), { fovea: [peer, a2, a1], contour: [peerFovea, a2, a1] });
			assert.deepEqual(hostA.errors, []);
			assert.deepEqual(hostB.errors, []);
		} finally {
			stopCounting();
			await Promise.all([hostA.dispose(), hostB.dispose()]);
		}
	});
});

describe("Crew's agent-access channel", () => {
	it("a same-session report enrolls in Fovea (any project) and Contour (Git only) with the agent as origin, is never rebroadcast, and another session's is ignored", async () => {
		const { base } = await workspace();
		const cwdA = join(base, "session-a");
		const cwdB = join(base, "session-b");
		mkdirSync(cwdA);
		mkdirSync(cwdB);
		const { agentRepo, otherSession } = namedRepos(base, "agentRepo", "otherSession");
		const plain = join(base, "plain");
		writeFiles(plain, { "package.json": "{}", "src/mod.ts": "export const p = 1;\n" });
		const origin = { kind: "crew-agent", agentId: "run-1:t1", runId: "run-1", taskId: "t1" };

		const bus = piCodingAgent.createEventBus();
		const onWorkspace: unknown[] = [];
		const onCrew: unknown[] = [];
		const stops = [bus.on(ACCESS_EVENT, (d) => onWorkspace.push(d)), bus.on(AGENT_ACCESS_EVENT, (d) => onCrew.push(d))];
		const [hostA, hostB] = await Promise.all([
			startHost({ cwd: cwdA, extensions: BOTH, eventBus: bus }),
			startHost({ cwd: cwdB, extensions: BOTH, eventBus: bus }),
		]);
		try {
			const idA = hostA.sessionId();
			const report = { version: 1, root: agentRepo, sessionId: idA, origin };
			bus.emit(AGENT_ACCESS_EVENT, report);
			bus.emit(AGENT_ACCESS_EVENT, { ...report, root: plain });
			bus.emit(AGENT_ACCESS_EVENT, { ...report, root: otherSession, sessionId: hostB.sessionId() });
			await waitFor(
				() =>
					rings(hostA).fovea.length === 2 &&
					rings(hostA).contour.length === 1 &&
					rings(hostB).contour.length === 1 &&
					rings(hostB).fovea.length === 1,
				"both extensions of each session to take their own session's roots",
			);
			await sleep(150);
			assert.deepEqual(rings(hostA).contour, [agentRepo], "Contour takes the Git root only");
			assert.deepEqual([...rings(hostA).fovea].sort(), [agentRepo, plain].sort());
			assert.deepEqual(rings(hostB), { fovea: [otherSession], contour: [otherSession] }, "B takes only B's report");
			assert.deepEqual(onWorkspace, [], "nothing is published as a workspace hint: Crew is not its source");
			assert.equal(onCrew.length, 3, "nor rebroadcast on Crew's channel");
			const fovea = listedRoots(await commandText(hostA, "/fovea roots"));
			assert.deepEqual(
				fovea.find((row) => row.root === agentRepo),
				{ root: agentRepo, marker: "peer · agent run-1:t1" },
				"origin metadata, shown as such",
			);

			// The same report from another session, or without a well-formed origin, enrolls nothing.
			const before = workspaceEntryCount(hostA);
			for (const payload of [
				{ ...report, root: otherSession, sessionId: "another-session" },
				{ ...report, root: otherSession, origin: undefined },
				{ ...report, root: otherSession, origin: { ...origin, agentId: "" } },
				{ ...report, root: otherSession, version: 2 },
			]) {
				bus.emit(AGENT_ACCESS_EVENT, payload);
			}
			await sleep(200);
			assert.equal(workspaceEntryCount(hostA), before);
			assert.deepEqual(hostA.errors, []);
			assert.deepEqual(hostB.errors, []);
		} finally {
			for (const stop of stops) stop();
			await Promise.all([hostA.dispose(), hostB.dispose()]);
		}
	});
});

describe("roots that end", () => {
	it("an agent touching the session's own root does not become its origin, a reload keeps no origin, and a root whose directory is deleted leaves both rings", async () => {
		const { base } = await workspace();
		const { home, agentRepo } = namedRepos(base, "home", "agentRepo");
		const origin = { kind: "crew-agent", agentId: "run-1:look", runId: "run-1", taskId: "look" };
		const bus = piCodingAgent.createEventBus();
		const host = await startHost({ cwd: home, extensions: BOTH, eventBus: bus });
		try {
			await readEach(host, [modFile(home)]);
			const report = { version: 1, root: home, sessionId: host.sessionId(), origin };
			bus.emit(AGENT_ACCESS_EVENT, report);
			bus.emit(AGENT_ACCESS_EVENT, { ...report, root: agentRepo });
			await waitFor(
				() => rings(host).fovea.length === 2 && rings(host).contour.length === 2,
				"the agent root in both rings",
				20_000,
			);
			await sleep(150);
			const shown = listedRoots(await commandText(host, "/fovea roots"));
			assert.equal(shown.find((row) => row.root === home)?.marker, "git", "the session's own root keeps no agent");
			assert.equal(shown.find((row) => row.root === agentRepo)?.marker, "peer · agent run-1:look");

			// A reload restores the branch's roots, not their origin attribution (seed: "Bounded continuity").
			await host.command("/reload");
			const restored = listedRoots(await commandText(host, "/fovea roots"));
			assert.deepEqual(restored.map((row) => row.root).sort(), [home, agentRepo].sort(), "the roots are restored");
			for (const row of restored)
				assert.doesNotMatch(row.marker, /agent/, `no agent named for ${row.root} after /reload`);

			rmSync(agentRepo, { recursive: true, force: true });
			assert.deepEqual(await listed(host), { fovea: [home], contour: [home] }, "a deleted root is not listed");
			assert.deepEqual(rings(host), { fovea: [home], contour: [home] }, "and its retirement is persisted");
			assert.deepEqual(host.errors, []);
		} finally {
			await host.dispose();
		}
	});
});

function isDeepEqual(actual: unknown, expected: unknown): boolean {
	try {
		assert.deepEqual(actual, expected);
		return true;
	} catch {
		return false;
	}
}

describe("session entries", () => {
	it("malformed workspace entries after a valid one are skipped on /reload and on reopening the session file", async () => {
		const { base, cwd } = await workspace();
		const { r1, r2 } = namedRepos(base, "r1", "r2");
		const sessionDir = await tempDir("pi-roam-sessions-");
		let sessionFile = "";

		await withHost(
			cwd,
			async (host) => {
				await readEach(host, [modFile(r1)]);
				const manager = host.session.sessionManager;
				manager.appendCustomEntry(FOVEA_ENTRY, { version: 1, roots: "x" });
				manager.appendCustomEntry(FOVEA_ENTRY, { roots: [1, 2] });
				manager.appendCustomEntry(FOVEA_ENTRY, null);
				manager.appendCustomEntry(CONTOUR_ENTRY, "garbage");
				manager.appendCustomEntry(CONTOUR_ENTRY, { version: 2, roots: [r2] });
				await host.command("/reload");
				assert.deepEqual(await listed(host), { fovea: [r1], contour: [r1] });

				await readEach(host, [modFile(r2)]);
				assert.deepEqual(rings(host), { fovea: [r2, r1], contour: [r2, r1] });
				manager.appendCustomEntry(FOVEA_ENTRY, { version: 1, roots: { 0: r1 } });
				manager.appendCustomEntry(CONTOUR_ENTRY, { version: 1 });
				sessionFile = host.sessionFile();
			},
			{ sessionDir },
		);

		await withHost(
			cwd,
			async (host) => {
				assert.deepEqual(await listed(host), { fovea: [r2, r1], contour: [r2, r1] });
			},
			{ sessionDir, sessionFile },
		);
	});

	it("a version-1 entry whose roots are not absolute path strings is skipped, not restored as an empty ring", async () => {
		const { base, cwd } = await workspace();
		const { r1 } = namedRepos(base, "r1");

		await withHost(cwd, async (host) => {
			await readEach(host, [modFile(r1)]);
			host.session.sessionManager.appendCustomEntry(FOVEA_ENTRY, { version: 1, roots: [1, 2] });
			host.session.sessionManager.appendCustomEntry(CONTOUR_ENTRY, { version: 1, roots: ["relative/repo"] });
			await host.command("/reload");
			assert.deepEqual(await listed(host), { fovea: [r1], contour: [r1] });
		});
	});
});

describe("idle coordinator", () => {
	it("startup, a text-only turn and /reload make no extension filesystem call under the cwd; a read does", async () => {
		const base = await tempDir("pi-roam-idle-");
		const cwd = gitRepo(join(base, "launch"), {
			"package.json": '{"name":"launch"}\n',
			"AGENTS.md": "# Agents\n",
			"src/index.ts": "export const launch = 1;\n",
		});
		const probe = probeFilesystem(cwd);
		let host: PiHost | undefined;
		try {
			host = await startHost({ cwd, extensions: BOTH });
			host.script("just text, no tools");
			const run = await host.prompt("say something without tools");
			assert.equal(run.toolResults.length, 0);
			await sleep(200);
			await host.command("/reload");
			await sleep(200);
			assert.deepEqual([...probe.calls], [], "no extension filesystem call under the cwd while idle");
			assert.equal(workspaceEntryCount(host), 0);

			// Control: the probe does see discovery's calls once a tool touches the cwd's project.
			await readEach(host, [join(cwd, "src/index.ts")]);
			assert.ok(probe.calls.length > 0, "the probe records discovery's filesystem calls");
			assert.ok(
				probe.calls.some((call) => call.path === join(cwd, ".git")),
				`discovery probed ${join(cwd, ".git")}: ${JSON.stringify(probe.calls)}`,
			);
			assert.deepEqual(rings(host), { fovea: [cwd], contour: [cwd] });
			assert.deepEqual(host.errors, []);
		} finally {
			await host?.dispose();
			probe.restore();
		}
	});
});
