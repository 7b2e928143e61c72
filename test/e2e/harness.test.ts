/**
 * Smoke test of the e2e harness: drives the real Pi host with the probe extension and checks that events,
 * commands, session operations and host isolation behave as the harness documents.
 */

import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
	cleanupTempDirs,
	DEFAULT_REPLY,
	HostRunError,
	type PiHost,
	piCodingAgent,
	startHost,
	tempDir,
} from "./harness.ts";

const PROBE = fileURLToPath(new URL("./fixtures/probe-extension.ts", import.meta.url));

interface SessionStartData {
	reason: string;
	previousSessionFile: string | null;
	sessionId: string;
	hasUI: boolean;
	mode: string;
	moduleInstance: string;
	factoryInstance: string;
}

interface ToolResultData {
	toolName: string;
	toolCallId: string;
	isError: boolean;
	path: string | null;
	text: string;
}

function startReasons(host: PiHost): string[] {
	return host.customEntries<SessionStartData>("probe-session-start").map((data) => data.reason);
}

async function probeHost(): Promise<{ host: PiHost; cwd: string }> {
	const cwd = await tempDir();
	const host = await startHost({ cwd, extensions: [PROBE] });
	return { host, cwd };
}

after(async () => {
	await cleanupTempDirs();
});

describe("e2e harness", () => {
	it("starts the host, records tool_result before the tool result message, and reports a blocked call", async () => {
		const { host, cwd } = await probeHost();
		try {
			const [start] = host.customEntries<SessionStartData>("probe-session-start");
			assert.equal(start?.reason, "startup");
			assert.equal(start?.sessionId, host.sessionId());
			assert.equal(start?.hasUI, true);
			assert.equal(start?.mode, "rpc");
			assert.deepEqual([...host.session.getActiveToolNames()].sort(), [
				"bash",
				"edit",
				"find",
				"grep",
				"ls",
				"read",
				"write",
			]);

			const file = join(cwd, "notes.txt");
			await writeFile(file, "alpha\nbeta\n");
			const run = await host.runTools([{ name: "read", arguments: { path: file } }]);
			assert.equal(run.assistantText, "done");
			assert.equal(host.pendingTurns(), 0);
			const [readResult] = run.toolResults;
			assert.ok(readResult);
			assert.equal(readResult.isError, false);
			assert.equal(readResult.executed, true);
			assert.match(readResult.text, /alpha\nbeta/);
			// The model saw the tool result in its second request.
			assert.deepEqual(
				run.requests.map((request) => request.source),
				["script", "script"],
			);
			assert.ok(run.requests[1]?.messages.some((message) => message.role === "toolResult"));
			assert.ok(run.requests[0]?.toolNames.includes("grep"));

			const seen = host.customEntryRecords<ToolResultData>("probe-tool-result");
			assert.equal(seen.length, 1);
			assert.deepEqual(
				{ ...seen[0]?.data, text: undefined },
				{ toolName: "read", toolCallId: readResult.toolCallId, isError: false, path: file, text: undefined },
			);
			const branchIds = host.branch().map((entry) => entry.id);
			const customIndex = branchIds.indexOf(seen[0]?.id ?? "");
			const resultIndex = host.toolResultIndex(readResult.toolCallId);
			assert.ok(customIndex >= 0 && resultIndex >= 0);
			assert.ok(customIndex < resultIndex, "custom entry from tool_result precedes the tool result message");

			const blockedPath = join(cwd, "BLOCKED-secret.txt");
			await writeFile(blockedPath, "secret\n");
			const blockedRun = await host.runTools([{ name: "read", arguments: { path: blockedPath } }]);
			const [blocked] = blockedRun.toolResults;
			assert.ok(blocked);
			assert.equal(blocked.isError, true);
			assert.equal(blocked.executed, false);
			assert.match(blocked.text, /probe blocked read of .*BLOCKED-secret\.txt/);
			assert.doesNotMatch(blocked.text, /secret\n/);
			assert.equal(host.customEntries("probe-blocked").length, 1);
			assert.equal(host.customEntries("probe-tool-result").length, 1, "no tool_result for the blocked call");
			assert.deepEqual(host.errors, []);
		} finally {
			await host.dispose();
		}
	});

	it("runs /probe and captures notify, setStatus and setWidget", async () => {
		const { host } = await probeHost();
		try {
			const result = await host.command("/probe hello");
			assert.deepEqual(result.notifications, [{ message: "probe: hello", type: "info" }]);
			assert.equal(host.ui.statuses.get("probe"), "args=hello");
			assert.deepEqual(host.ui.widgets.get("probe"), ["probe widget hello"]);
			assert.deepEqual(host.customEntries("probe-command"), [{ args: "hello", hasUI: true, mode: "rpc" }]);
			assert.equal(result.requests.length, 0, "the command did not reach the model");
			await assert.rejects(host.command("/no-such-command"), /Unknown command/);

			host.script({ error: "scripted model failure" });
			await assert.rejects(host.prompt("fail please"), (error: unknown) => {
				assert.ok(error instanceof HostRunError);
				assert.match(error.message, /scripted model failure/);
				return true;
			});
			host.script({ error: "tolerated failure" });
			const tolerated = await host.prompt("fail quietly", { allowErrors: true });
			const last = tolerated.messages.at(-1);
			assert.ok(last?.role === "assistant" && last.stopReason === "error");
			assert.equal(host.pendingTurns(), 0);
		} finally {
			await host.dispose();
		}

		const noUI = await startHost({ cwd: await tempDir(), extensions: [PROBE], ui: false });
		try {
			const [start] = noUI.customEntries<SessionStartData>("probe-session-start");
			assert.equal(start?.hasUI, false);
			assert.equal(start?.mode, "print");
			const result = await noUI.command("/probe quiet");
			assert.deepEqual(result.notifications, [], "without a UI context notify is a no-op");
		} finally {
			await noUI.dispose();
		}
	});

	it("compacts, reloads, forks, resumes and navigates the tree, and keeps working after each", async () => {
		const { host, cwd } = await probeHost();
		try {
			const file = join(cwd, "a.txt");
			await writeFile(file, "one\n");
			await host.prompt("first prompt");
			await host.runTools([{ name: "read", arguments: { path: file } }], { prompt: "second prompt" });
			const originalId = host.sessionId();
			const originalFile = host.sessionFile();

			// Compaction: a summary request answered by the summary reply, a compaction entry, session_compact.
			const compactRun = await host.command("/compact");
			assert.ok(compactRun.requests.length > 0);
			assert.ok(compactRun.requests.every((request) => request.kind === "summary"));
			const compaction = host.branch().find((entry) => entry.type === "compaction");
			assert.ok(compaction && compaction.type === "compaction");
			assert.match(compaction.summary, /Harness summary/);
			const [compacted] = host.customEntries<{ reason: string; compactionEntryId: string }>("probe-compact");
			assert.equal(compacted?.reason, "manual");
			assert.equal(compacted?.compactionEntryId, compaction.id);
			assert.equal(host.sessionId(), originalId);
			assert.equal((await host.prompt("after compact")).assistantText, DEFAULT_REPLY);

			// Reload: session_shutdown, fresh extension instance, session_start "reload"; same session.
			const before = host.customEntries<SessionStartData>("probe-session-start");
			await host.command("/reload");
			assert.deepEqual(startReasons(host), ["startup", "reload"]);
			const reloaded = host.customEntries<SessionStartData>("probe-session-start")[1];
			assert.notEqual(reloaded?.factoryInstance, before[0]?.factoryInstance);
			assert.deepEqual(host.customEntries("probe-session-shutdown"), [
				{ reason: "reload", factoryInstance: before[0]?.factoryInstance },
			]);
			assert.equal(host.sessionId(), originalId);
			const afterReload = await host.runTools([{ name: "read", arguments: { path: file } }], {
				prompt: "after reload",
			});
			assert.equal(afterReload.toolResults[0]?.isError, false);
			assert.equal(host.customEntries("probe-tool-result").length, 2);

			// Fork before the last user message: new session id and file, session_start "fork".
			const forked = await host.fork(host.lastUserEntryId("after reload"));
			assert.equal(forked.cancelled, false);
			assert.equal(forked.selectedText, "after reload");
			assert.notEqual(host.sessionId(), originalId);
			const forkStart = host.customEntries<SessionStartData>("probe-session-start").at(-1);
			assert.equal(forkStart?.reason, "fork");
			assert.equal(forkStart?.previousSessionFile, originalFile);
			assert.equal(forkStart?.sessionId, host.sessionId());
			await host.prompt("in the fork");
			const forkFile = host.sessionFile();
			assert.notEqual(forkFile, originalFile);

			// Resume the original file: session_start "resume", original session id.
			await host.command(`/resume ${originalFile}`);
			assert.equal(host.sessionId(), originalId);
			const resumeStart = host.customEntries<SessionStartData>("probe-session-start").at(-1);
			assert.equal(resumeStart?.reason, "resume");
			assert.equal(resumeStart?.previousSessionFile, forkFile);
			assert.equal((await host.prompt("after resume")).assistantText, DEFAULT_REPLY);

			// Tree navigation back to the first prompt: session_tree, same file and session id.
			const target = host.lastUserEntryId("first prompt");
			const oldLeaf = host.leafId();
			const navigated = await host.navigateTree(target);
			assert.equal(navigated.cancelled, false);
			assert.equal(navigated.editorText, "first prompt");
			const tree = host.customEntries<{ newLeafId: string | null; oldLeafId: string | null }>("probe-tree");
			assert.equal(tree.length, 1);
			assert.equal(tree[0]?.oldLeafId, oldLeaf);
			assert.equal(host.sessionId(), originalId);
			assert.equal(host.sessionFile(), originalFile);
			const afterTree = await host.runTools([{ name: "read", arguments: { path: file } }], { prompt: "after tree" });
			assert.equal(afterTree.toolResults[0]?.isError, false);

			// New session: fresh id, session_start "new".
			await host.command("/new");
			assert.notEqual(host.sessionId(), originalId);
			assert.deepEqual(startReasons(host), ["new"]);
			assert.equal((await host.prompt("in the new session")).assistantText, DEFAULT_REPLY);
			assert.deepEqual(host.errors, []);
		} finally {
			await host.dispose();
		}
	});

	it("emits session_shutdown on dispose and leaves a caller-owned session dir in place", async () => {
		const sessionDir = await tempDir();
		const host = await startHost({ cwd: await tempDir(), extensions: [PROBE], sessionDir });
		await host.prompt("persist me");
		const file = host.sessionFile();
		await host.dispose();
		const lines = (await readFile(file, "utf8")).trim().split("\n");
		const shutdowns = lines
			.map((line) => JSON.parse(line) as { type: string; customType?: string; data?: { reason?: string } })
			.filter((entry) => entry.type === "custom" && entry.customType === "probe-session-shutdown");
		assert.deepEqual(
			shutdowns.map((entry) => entry.data?.reason),
			["quit"],
		);

		// A restarted host opens the same file: session_start "startup" on the existing session.
		const restarted = await startHost({ cwd: host.cwd, extensions: [PROBE], sessionDir, sessionFile: file });
		try {
			assert.equal(restarted.sessionFile(), file);
			assert.deepEqual(startReasons(restarted), ["startup", "startup"]);
			assert.ok(restarted.lastUserEntryId("persist me"));
		} finally {
			await restarted.dispose();
		}
	});

	it("runs two hosts side by side with separate sessions and separate pi.events buses", async () => {
		const cwd = await tempDir();
		const [a, b] = await Promise.all([
			startHost({ cwd, extensions: [PROBE] }),
			startHost({ cwd, extensions: [PROBE] }),
		]);
		try {
			assert.notEqual(a.sessionId(), b.sessionId());
			a.script("from a");
			b.script("from b");
			const [runA, runB] = await Promise.all([a.prompt("hi a"), b.prompt("hi b")]);
			assert.equal(runA.assistantText, "from a");
			assert.equal(runB.assistantText, "from b");
			assert.notEqual(a.sessionFile(), b.sessionFile());

			await a.command("/probe-emit ping-from-a");
			assert.equal(a.customEntries("probe-ping").length, 1, "the emitting host's own listener receives it");
			assert.equal(b.customEntries("probe-ping").length, 0, "pi.events does not cross hosts");
		} finally {
			await Promise.all([a.dispose(), b.dispose()]);
		}

		// A bus passed to both hosts connects them.
		const bus = piCodingAgent.createEventBus();
		const [c, d] = await Promise.all([
			startHost({ cwd, extensions: [PROBE], eventBus: bus }),
			startHost({ cwd, extensions: [PROBE], eventBus: bus }),
		]);
		try {
			await c.command("/probe-emit shared");
			assert.equal(c.customEntries("probe-ping").length, 1);
			assert.equal(d.customEntries("probe-ping").length, 1);
		} finally {
			await Promise.all([c.dispose(), d.dispose()]);
		}
	});
});
