// Contour's roaming layer through the real Pi host (seed: "Enrollment and boundaries", "Lightweight shared API"):
// Contour observes Git worktrees only, its omitted review root is the session cwd's Git project with a fallback to
// the most recent Git root in its ring, and it takes Fovea's hints from the same session without rebroadcasting.

import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { WORKSPACE_ACCESS_EVENT } from "pi-fovea/workspace";
import { cleanupTempDirs, type PiHost, tempDir } from "../../../test/e2e/harness.ts";
import {
	commandText,
	git,
	gitRepo as makeRepo,
	newestRing,
	withHost as withHostOptions,
	writeFiles,
} from "../../../test/e2e/support/workspaces.ts";

const CONTOUR = fileURLToPath(new URL("../src/extension/index.ts", import.meta.url));
const FOVEA = fileURLToPath(new URL("../../fovea/src/extension/index.ts", import.meta.url));

after(cleanupTempDirs);

const gitRepo = (dir: string) => makeRepo(dir, { "src/main.ts": "export const main = 1;\n" }, { commit: true });
function manifestProject(dir: string): string {
	writeFiles(dir, { "package.json": "{}", "src/main.ts": "export const main = 1;\n" });
	return dir;
}

const rootsOf = (host: PiHost, type: string) => newestRing(host, type);
const contourRing = (host: PiHost) => rootsOf(host, "pi-contour-workspace");
const statusText = (host: PiHost) => commandText(host, "/contour status");
const withHost = (cwd: string, extensions: string[], run: (host: PiHost) => Promise<void>) =>
	withHostOptions({ cwd, extensions }, run);

describe("contour workspaces", () => {
	it("enrolls Git roots only, linked worktrees as their own roots", async () => {
		const base = await tempDir();
		const repo = gitRepo(join(base, "repo"));
		const worktree = join(base, "repo-feature");
		git(repo, "worktree", "add", "-q", worktree, "-b", "feature");
		const plain = manifestProject(join(base, "plain"));
		await withHost(base, [CONTOUR], async (host) => {
			await host.runTools([{ name: "read", arguments: { path: join(plain, "src/main.ts") } }]);
			assert.equal(contourRing(host), undefined, "a manifest-only project is not a review root");
			await host.runTools([{ name: "read", arguments: { path: join(repo, "src/main.ts") } }]);
			await host.runTools([{ name: "read", arguments: { path: join(worktree, "src/main.ts") } }]);
			assert.deepEqual(contourRing(host), [worktree, repo]);
			assert.match(await statusText(host), new RegExp(`${worktree}  \\[git-file\\]`));
		});
	});

	it("publishes one version-1 hint with source contour per newly enrolled Git root, and none for other projects", async () => {
		const base = await tempDir();
		const repo = gitRepo(join(base, "repo"));
		const plain = manifestProject(join(base, "plain"));
		await withHost(base, [CONTOUR], async (host) => {
			const hints: unknown[] = [];
			const stop = host.eventBus.on(WORKSPACE_ACCESS_EVENT, (payload) => hints.push(payload));
			await host.runTools([{ name: "read", arguments: { path: join(plain, "src/main.ts") } }]);
			await host.runTools([{ name: "read", arguments: { path: join(repo, "src/main.ts") } }]);
			await host.runTools([{ name: "ls", arguments: { path: join(repo, "src") } }]);
			stop();
			assert.deepEqual(hints, [{ version: 1, source: "contour", root: repo, sessionId: host.sessionId() }]);
		});
	});

	it("the omitted review root is the cwd's Git project, else the most recent Git root, else none", async () => {
		const base = await tempDir();
		const own = gitRepo(join(base, "own"));
		const far = gitRepo(join(base, "far"));
		const umbrella = join(base, "umbrella");
		mkdirSync(umbrella);
		await withHost(join(own, "src"), [CONTOUR], async (host) => {
			await host.runTools([{ name: "read", arguments: { path: join(far, "src/main.ts") } }]);
			assert.match(
				await statusText(host),
				new RegExp(`review root \\(no root given\\): ${own} \\[git, session cwd's Git project\\]`),
			);
		});
		await withHost(umbrella, [CONTOUR], async (host) => {
			assert.match(
				await statusText(host),
				/review root \(no root given\): none: the session cwd is in no Git worktree/,
			);
			await host.runTools([{ name: "read", arguments: { path: join(own, "src/main.ts") } }]);
			await host.runTools([{ name: "read", arguments: { path: join(far, "src/main.ts") } }]);
			assert.match(
				await statusText(host),
				new RegExp(`review root \\(no root given\\): ${far} \\[git, most recent Git root in the ring\\]`),
			);
		});
	});

	it("accepts Fovea's hints from its own session for Git roots only, and never rebroadcasts them", async () => {
		const base = await tempDir();
		const hinted = gitRepo(join(base, "hinted"));
		const plain = manifestProject(join(base, "plain"));
		await withHost(base, [FOVEA, CONTOUR], async (host) => {
			const seen: Array<{ source?: string; root?: string } | null> = [];
			const stop = host.eventBus.on(WORKSPACE_ACCESS_EVENT, (p) =>
				seen.push(p as { source?: string; root?: string } | null),
			);
			const sessionId = host.sessionId();
			host.eventBus.emit(WORKSPACE_ACCESS_EVENT, { version: 1, source: "fovea", root: plain, sessionId });
			host.eventBus.emit(WORKSPACE_ACCESS_EVENT, {
				version: 1,
				source: "fovea",
				root: hinted,
				sessionId: "another-session",
			});
			host.eventBus.emit(WORKSPACE_ACCESS_EVENT, { version: 2, source: "fovea", root: hinted, sessionId });
			host.eventBus.emit(WORKSPACE_ACCESS_EVENT, null);
			host.eventBus.emit(WORKSPACE_ACCESS_EVENT, { version: 1, source: "fovea", root: "relative/dir", sessionId });
			await new Promise((r) => setTimeout(r, 100));
			assert.equal(contourRing(host), undefined, "none of those hints may enroll anything");

			host.eventBus.emit(WORKSPACE_ACCESS_EVENT, { version: 1, source: "fovea", root: hinted, sessionId });
			for (let i = 0; i < 50 && contourRing(host) === undefined; i++) await new Promise((r) => setTimeout(r, 10));
			stop();
			assert.deepEqual(contourRing(host), [hinted]);
			assert.equal(rootsOf(host, "pi-fovea-workspace"), undefined, "Fovea does not take back its own hint");
			assert.deepEqual(
				seen.filter((p) => p?.source === "contour"),
				[],
				"Contour does not rebroadcast a peer's hint",
			);
			assert.match(await statusText(host), new RegExp(`${hinted}  \\[peer\\]`));
		});
	});

	it("/contour reset empties only Contour's ring and the empty ring survives /reload", async () => {
		const base = await tempDir();
		const repo = gitRepo(join(base, "repo"));
		await withHost(base, [FOVEA, CONTOUR], async (host) => {
			await host.runTools([{ name: "read", arguments: { path: join(repo, "src/main.ts") } }]);
			assert.deepEqual(contourRing(host), [repo]);
			const reset = await host.command("/contour reset");
			assert.match(reset.notifications[0]?.message ?? "", /pi-contour: retired 1 root/);
			assert.deepEqual(contourRing(host), []);
			assert.deepEqual(rootsOf(host, "pi-fovea-workspace"), [repo]);
			await host.command("/reload");
			assert.match(await statusText(host), /no roots yet \(at most 32;/);
			assert.match((await host.command("/fovea roots")).notifications[0]?.message ?? "", new RegExp(repo));
		});
	});
});
