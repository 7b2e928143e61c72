/**
 * Helpers for the roaming-workspaces e2e test: real Git fixtures on disk, and readers for the rings that Fovea and
 * Contour persist (session custom entries) and show (`/fovea roots`, `/contour status`).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type PiHost, type RunResult, type ScriptedToolCall, type StartHostOptions, startHost } from "../harness.ts";

export const FOVEA_EXTENSION = fileURLToPath(
	new URL("../../../packages/fovea/src/extension/index.ts", import.meta.url),
);
export const CONTOUR_EXTENSION = fileURLToPath(
	new URL("../../../packages/contour/src/extension/index.ts", import.meta.url),
);
export const BLOCK_READS_EXTENSION = fileURLToPath(new URL("../fixtures/block-reads-extension.ts", import.meta.url));

export const FOVEA_ENTRY = "pi-fovea-workspace";
export const CONTOUR_ENTRY = "pi-contour-workspace";
/** The access-hint channel named by the public contract of `pi-fovea/workspace`. */
export const ACCESS_EVENT = "pi-workspace:access:v1";
/** Crew's own channel for the roots its sub-agents access (never a source on `ACCESS_EVENT`). */
export const AGENT_ACCESS_EVENT = "pi-crew:agent-access:v1";

// ---------------------------------------------------------------------------------------------------------
// Fixtures on disk
// ---------------------------------------------------------------------------------------------------------

/** Run git in `cwd` with a fixed identity; returns stdout. */
export function git(cwd: string, ...args: string[]): string {
	return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], {
		cwd,
		encoding: "utf8",
		stdio: ["ignore", "pipe", "pipe"],
	});
}

/** Write `files` (relative path → content) under `dir`, creating parent directories. */
export function writeFiles(dir: string, files: Record<string, string>): void {
	for (const [rel, content] of Object.entries(files)) {
		const file = join(dir, rel);
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, content);
	}
}

/**
 * A real Git repository at `dir` (created with `git init`) holding `files`; `commit` records them in a first
 * commit (needed before `git worktree add`). Returns `dir`.
 */
export function gitRepo(dir: string, files: Record<string, string> = {}, options: { commit?: boolean } = {}): string {
	mkdirSync(dir, { recursive: true });
	execFileSync("git", ["-c", "init.defaultBranch=main", "init", "-q", dir]);
	writeFiles(dir, files);
	if (options.commit) {
		git(dir, "add", "-A");
		git(dir, "commit", "-q", "-m", "init");
	}
	return dir;
}

// ---------------------------------------------------------------------------------------------------------
// Driving the host
// ---------------------------------------------------------------------------------------------------------

/**
 * One user prompt in which the scripted model makes each tool call in its own turn, in order, then answers "done".
 * Unless `expectOk` is false, every tool result must be a success.
 */
export async function callEach(
	host: PiHost,
	calls: readonly ScriptedToolCall[],
	options: { prompt?: string; expectOk?: boolean } = {},
): Promise<RunResult> {
	host.script(...calls.map((call) => [call]), "done");
	const run = await host.prompt(options.prompt ?? `make ${calls.length} tool call(s)`);
	if (options.expectOk !== false) {
		const failed = run.toolResults.filter((result) => result.isError);
		assert.deepEqual(
			failed.map((result) => `${result.toolName}: ${result.text}`),
			[],
			"every scripted tool call succeeds",
		);
		assert.equal(run.toolResults.length, calls.length);
	}
	return run;
}

/** One user prompt in which the scripted model calls `read` on each path, one turn per call, in order. */
export function readEach(
	host: PiHost,
	paths: readonly string[],
	options: { prompt?: string; expectOk?: boolean } = {},
): Promise<RunResult> {
	return callEach(
		host,
		paths.map((path) => ({ name: "read", arguments: { path } })),
		{ prompt: `read ${paths.length} file(s)`, ...options },
	);
}

/** The roots of the newest `customType` entry on the current branch (undefined when there is none). */
export function newestRing(host: PiHost, customType: string): string[] | undefined {
	const entries = host.customEntries<{ version: number; roots: string[] }>(customType);
	const newest = entries.at(-1);
	return newest === undefined ? undefined : newest.roots;
}

/** Number of workspace entries (both extensions, every branch) in the current session file. */
export function workspaceEntryCount(host: PiHost): number {
	return host.customEntries(FOVEA_ENTRY, "all").length + host.customEntries(CONTOUR_ENTRY, "all").length;
}

/** The ring rows of `/fovea roots` or `/contour status` text: `{root, marker}`, in displayed order. */
export function listedRoots(text: string): { root: string; marker: string }[] {
	const rows: { root: string; marker: string }[] = [];
	for (const line of text.split("\n")) {
		const match = /^\s*\d+\. (.+?) {2}\[([^\]]+)\]/.exec(line);
		if (match?.[1] !== undefined && match[2] !== undefined) rows.push({ root: match[1], marker: match[2] });
	}
	return rows;
}

/** Run a command and return the text of its single notification. */
export async function commandText(host: PiHost, command: string): Promise<string> {
	const result = await host.command(command);
	const texts = result.notifications.map((notification) => notification.message);
	if (texts.length !== 1) throw new Error(`${command}: expected one notification, got ${JSON.stringify(texts)}`);
	return texts[0] as string;
}

/** The roots `/fovea roots` lists, in order. */
export async function foveaListed(host: PiHost): Promise<string[]> {
	return listedRoots(await commandText(host, "/fovea roots")).map((row) => row.root);
}

/** The roots `/contour status` lists, in order. */
export async function contourListed(host: PiHost): Promise<string[]> {
	return listedRoots(await commandText(host, "/contour status")).map((row) => row.root);
}

/** Poll `condition` until it holds (or fail after `timeoutMs`). */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(10);
	}
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Starts a host, runs `body` with it and always disposes it. */
export async function withHost(options: StartHostOptions, body: (host: PiHost) => Promise<void>): Promise<void> {
	const host = await startHost(options);
	try {
		await body(host);
	} finally {
		await host.dispose();
	}
}
