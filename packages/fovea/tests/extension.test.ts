// Fovea's roaming layer as Pi loads it (seed: "Enrollment and boundaries", "Bounded continuity", "Lightweight
// shared API"): enrollment from successful tool results, branch-local persistence, the omitted manual root,
// /fovea commands, published access hints, leases that retirement and session replacement invalidate, no chdir.

import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { cleanupTempDirs, type PiHost, tempDir } from "../../../test/e2e/harness.ts";
import { gitRepo as makeRepo, newestRing, withHost as withHostOptions } from "../../../test/e2e/support/workspaces.ts";
import type { FocusAnswer } from "../src/engine/map/code-map.ts";
import type { Observer } from "../src/engine/observe/observer.ts";
import type { ResidentMaps } from "../src/engine/residency.ts";
import { attachRoaming } from "../src/extension/roaming.ts";
import { type RunContext, runFocus } from "../src/extension/tool-runs.ts";
import { WORKSPACE_ACCESS_EVENT } from "../src/workspace/index.ts";

const FOVEA = fileURLToPath(new URL("../src/extension/index.ts", import.meta.url));
const ENTRY = "pi-fovea-workspace";

after(cleanupTempDirs);

const gitRepo = (dir: string) => makeRepo(dir, { "src/main.ts": "export const main = 1;\n" });
const ring = (host: PiHost) => newestRing(host, ENTRY);
const withHost = (cwd: string, run: (host: PiHost) => Promise<void>) =>
	withHostOptions({ cwd, extensions: [FOVEA] }, run);

describe("fovea extension through the real Pi host", () => {
	it("enrolls the owning project of a successful read and persists the ring before the tool result", async () => {
		const base = await tempDir();
		const repo = gitRepo(join(base, "alpha"));
		await withHost(base, async (host) => {
			assert.equal(ring(host), undefined, "startup with no retained roots appends nothing");
			const run = await host.runTools([{ name: "read", arguments: { path: "alpha/src/main.ts" } }]);
			assert.equal(run.toolResults[0]?.isError, false);
			assert.deepEqual(ring(host), [repo], "relative paths resolve from the tool context's cwd");
			const branch = host.branch() as Array<{ type: string; customType?: string; message?: { role?: string } }>;
			const entryAt = branch.findIndex((e) => e.type === "custom" && e.customType === ENTRY);
			const resultAt = branch.findIndex((e) => e.type === "message" && e.message?.role === "toolResult");
			assert.ok(entryAt >= 0 && entryAt < resultAt, "the snapshot lands before the tool result message");

			await host.runTools([{ name: "read", arguments: { path: join(repo, "src/main.ts") } }]);
			assert.equal(host.customEntries(ENTRY).length, 1, "an unchanged ring appends no new entry");
		});
	});

	it("publishes one version-1 access hint per newly enrolled root, with its session id", async () => {
		const base = await tempDir();
		const a = gitRepo(join(base, "a"));
		const b = gitRepo(join(base, "b"));
		await withHost(base, async (host) => {
			const hints: unknown[] = [];
			const stop = host.eventBus.on(WORKSPACE_ACCESS_EVENT, (payload) => hints.push(payload));
			await host.runTools([
				{ name: "read", arguments: { path: join(a, "src/main.ts") } },
				{ name: "ls", arguments: { path: b } },
				{ name: "read", arguments: { path: join(a, "src/main.ts") } },
			]);
			stop();
			const sessionId = host.sessionId();
			// Tools of one turn run in parallel, so the hints arrive in completion order.
			const byRoot = (x: unknown, y: unknown) =>
				String((x as { root: string }).root).localeCompare((y as { root: string }).root);
			assert.deepEqual(hints.sort(byRoot), [
				{ version: 1, source: "fovea", root: a, sessionId },
				{ version: 1, source: "fovea", root: b, sessionId },
			]);
		});
	});

	it("/fovea status names the session cwd's own project as the omitted root, never the most recent root", async () => {
		const base = await tempDir();
		const umbrella = join(base, "umbrella");
		const nested = gitRepo(join(umbrella, "nested"));
		const other = gitRepo(join(base, "other"));
		await withHost(umbrella, async (host) => {
			await host.runTools([
				{ name: "read", arguments: { path: join(nested, "src/main.ts") } },
				{ name: "read", arguments: { path: join(other, "src/main.ts") } },
			]);
			const status = (await host.command("/fovea status")).notifications.map((n) => n.message).join("\n");
			assert.match(status, new RegExp(`default root \\(no root given\\): ${umbrella} \\[directory`));
			assert.ok(status.includes(other) && status.includes(nested), "the ring is listed too");
		});
		await withHost(join(nested, "src"), async (host) => {
			const status = (await host.command("/fovea status")).notifications.map((n) => n.message).join("\n");
			assert.match(status, new RegExp(`default root \\(no root given\\): ${nested} \\[git`));
		});
		const pkg = join(base, "pkg");
		mkdirSync(join(pkg, "lib"), { recursive: true });
		writeFileSync(join(pkg, "package.json"), "{}");
		await withHost(join(pkg, "lib"), async (host) => {
			const status = (await host.command("/fovea status")).notifications.map((n) => n.message).join("\n");
			assert.match(status, new RegExp(`default root \\(no root given\\): ${pkg} \\[manifest`));
		});
	});

	it("/fovea status names the resident-map bound in force: FOVEA_CACHE_ROOTS, 2 by default, a huge value cut as the maps cut it", async () => {
		const base = await tempDir();
		const saved = process.env.FOVEA_CACHE_ROOTS;
		const bound = async () => {
			let text = "";
			await withHost(base, async (host) => {
				text = (await host.command("/fovea status")).notifications.map((n) => n.message).join("\n");
			});
			return /maps kept in memory: at most (\d+) roots \(FOVEA_CACHE_ROOTS\)/.exec(text)?.[1];
		};
		try {
			delete process.env.FOVEA_CACHE_ROOTS;
			assert.equal(await bound(), "2");
			process.env.FOVEA_CACHE_ROOTS = "5000";
			assert.equal(await bound(), "1024", "the bound sharedResidentMaps applies, not the raw value");
		} finally {
			if (saved === undefined) delete process.env.FOVEA_CACHE_ROOTS;
			else process.env.FOVEA_CACHE_ROOTS = saved;
		}
	});

	it("/fovea roots shows root, marker, age and whether its map is loaded; /fovea reset clears and persists; bad input is a clear error", async () => {
		const base = await tempDir();
		const repo = gitRepo(join(base, "r"));
		await withHost(base, async (host) => {
			await host.runTools([{ name: "read", arguments: { path: join(repo, "src/main.ts") } }]);
			const roots = (await host.command("/fovea roots")).notifications.map((n) => n.message).join("\n");
			assert.match(roots, /1 of at most 32 roots, most recent first/);
			assert.match(roots, new RegExp(` 1\\. ${repo}  \\[git\\] · enrolled \\d+ s ago · map not loaded$`, "m"));
			assert.doesNotMatch(roots, /lease|resident|cold/, "no jargon");

			const reset = await host.command("/fovea reset");
			assert.match(reset.notifications[0]?.message ?? "", /retired 1 root; none is enrolled now/);
			assert.deepEqual(ring(host), []);

			const bad = await host.command("/fovea frobnicate");
			assert.equal(bad.notifications[0]?.type, "error");
			assert.match(bad.notifications[0]?.message ?? "", /unknown subcommand 'frobnicate'.*status, roots, reset/);
		});
	});

	it("never calls process.chdir", async () => {
		const src = fileURLToPath(new URL("../src/", import.meta.url));
		const contourSrc = fileURLToPath(new URL("../../contour/src/", import.meta.url));
		const offenders = [src, contourSrc].flatMap((dir) =>
			(readdirSync(dir, { recursive: true }) as string[])
				.filter((f) => f.endsWith(".ts"))
				.filter((f) => /\bchdir\s*\(/.test(readFileSync(join(dir, f), "utf8"))),
		);
		assert.deepEqual(offenders, []);
		const base = await tempDir();
		const repo = gitRepo(join(base, "r"));
		const original = process.chdir;
		let calls = 0;
		process.chdir = (dir: string) => {
			calls++;
			original(dir);
		};
		try {
			await withHost(base, async (host) => {
				await host.runTools([
					{ name: "read", arguments: { path: join(repo, "src/main.ts") } },
					{ name: "bash", arguments: { command: `cd ${repo} && git -C . status --short` } },
				]);
				await host.command("/fovea status");
			});
		} finally {
			process.chdir = original;
		}
		assert.equal(calls, 0);
	});
});

describe("leases", () => {
	/** A minimal recording ExtensionAPI: this unit test drives the roaming adapter's handlers directly. */
	function recordingPi() {
		const handlers = new Map<string, Array<(event: unknown, ctx: unknown) => unknown>>();
		const appended: unknown[] = [];
		const pi = {
			on: (name: string, handler: (event: unknown, ctx: unknown) => unknown) =>
				handlers.set(name, [...(handlers.get(name) ?? []), handler]),
			appendEntry: (_type: string, data: unknown) => appended.push(data),
			events: { on: () => () => {}, emit: () => {} },
		};
		const fire = async (name: string, event: unknown, ctx: unknown) => {
			for (const handler of handlers.get(name) ?? []) await handler(event, ctx);
		};
		return { pi: pi as unknown as ExtensionAPI, fire, appended };
	}

	function deferred<T>() {
		let resolve!: (value: T) => void;
		const promise = new Promise<T>((r) => {
			resolve = r;
		});
		return { promise, resolve };
	}

	it("work that started before a retirement or a session replacement does not publish", async () => {
		const base = await tempDir();
		const one = gitRepo(join(base, "one"));
		const two = gitRepo(join(base, "two"));
		process.env.TEST_ROAMING_LIMIT = "1";
		const { pi, fire } = recordingPi();
		const roaming = attachRoaming(pi, { source: "fovea", customType: ENTRY, limitEnv: "TEST_ROAMING_LIMIT" });
		delete process.env.TEST_ROAMING_LIMIT;
		const ctx = { cwd: base, sessionManager: { getBranch: () => [], getSessionId: () => "s1" } };
		const read = (repo: string) => ({
			type: "tool_result",
			toolName: "read",
			input: { path: join(repo, "src/main.ts") },
			isError: false,
		});
		await fire("session_start", { reason: "startup" }, ctx);
		await fire("tool_result", read(one), ctx);
		assert.deepEqual(roaming.ring()?.list(), [one]);

		const published: string[] = [];
		const slow = deferred<string>();
		const job = roaming.runLeased(
			one,
			() => slow.promise,
			(v) => published.push(v),
		);
		await fire("tool_result", read(two), ctx);
		assert.deepEqual(roaming.ring()?.list(), [two], "a ring of one retires the older root");
		slow.resolve("stale result for one");
		assert.equal(await job, false);

		const fresh = roaming.capture(two);
		assert.ok(fresh !== undefined && roaming.isCurrent(fresh));
		const slower = deferred<string>();
		const replaced = roaming.runLeased(
			two,
			() => slower.promise,
			(v) => published.push(v),
		);
		await fire("session_shutdown", { reason: "new" }, ctx);
		await fire("session_start", { reason: "new" }, ctx);
		slower.resolve("result from the replaced session");
		assert.equal(await replaced, false);
		assert.equal(roaming.isCurrent(fresh), false);
		assert.deepEqual(published, []);

		const current = roaming.capture(one);
		assert.equal(current, undefined, "the new session restored nothing from an empty branch");
	});

	it("a tool answer that outlives its root's retirement is refused, feeds no observation and re-enrolls nothing", async () => {
		const base = await tempDir();
		const one = gitRepo(join(base, "one"));
		const { pi, fire } = recordingPi();
		const roaming = attachRoaming(pi, { source: "fovea", customType: ENTRY, limitEnv: "TEST_ROAMING_LIMIT" });
		const ctx = { cwd: base, hasUI: false, sessionManager: { getBranch: () => [], getSessionId: () => "s1" } };
		await fire("session_start", { reason: "startup" }, ctx);
		await fire(
			"tool_result",
			{ type: "tool_result", toolName: "read", input: { path: join(one, "src/main.ts") }, isError: false },
			ctx,
		);
		assert.deepEqual(roaming.ring()?.list(), [one]);
		// The map's answer is held until the root was retired: the tool's work outlives the root's lease.
		const reached = deferred<void>();
		const release = deferred<FocusAnswer>();
		const maps = {
			use: () => ({
				focus: () => {
					reached.resolve();
					return release.promise;
				},
			}),
		} as unknown as ResidentMaps;
		const fed: string[] = [];
		const observer = {
			ensureBaseline: (root: string) => fed.push(`baseline ${root}`),
			attend: (root: string) => fed.push(`attend ${root}`),
		} as unknown as Observer;
		const run = { signal: undefined, onUpdate: undefined, ctx, roaming, maps, observer } as unknown as RunContext;
		const answer = runFocus({ query: "main", root: one }, run);
		await reached.promise;
		assert.deepEqual(roaming.reset(), [one]);
		release.resolve({
			text: "stale",
			files: [{ file: "src/main.ts" }],
			symbols: [],
			snapshot: { files: new Map(), gaps: [], partial: [] },
		} as unknown as FocusAnswer);
		await assert.rejects(answer, /the answer for .*one is stale: the root was retired or the session changed/);
		assert.deepEqual(fed, [], "nothing reached the root's observation");
		assert.deepEqual(roaming.ring()?.list(), [], "and the root did not enroll again");
	});
});
