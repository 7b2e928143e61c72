import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
	CrewAccessError,
	type CrewEvent,
	foreignSessionMessage,
	foreignWorkspaceMessage,
	isProcessRunning,
} from "../../src/runtime/index.ts";
import { busy, CATALOG, crewFixture, eventWaiter, team, treeRunning } from "./support/crew-fixture.ts";

describe("live agents with real pi children", { concurrency: true }, () => {
	it("steers and follows up a live agent through a symlink alias, and refuses every other workspace", async (t) => {
		const fx = await crewFixture(t);
		const alias = join(fx.root, "alias");
		const other = join(fx.root, "other");
		const twin = `${fx.ws}-twin`;
		const inside = join(fx.ws, "sub");
		await symlink(fx.ws, alias);
		for (const dir of [other, twin, inside]) await mkdir(dir);
		await fx.script({ "STEER-ME": [busy(3), "after steer", "after follow-up"] });
		const runtime = fx.runtime();
		const tool = await eventWaiter(runtime, { cwd: fx.ws, sessionId: "s1" }, (e) => e.type === "agent.tool");
		const { manifest } = await runtime.startRun({
			cwd: alias,
			sessionId: "s1",
			team: team("steered", [{ id: "steered", instructions: "STEER-ME" }]),
			goal: "Be steered",
			catalog: CATALOG,
		});
		assert.equal(manifest.cwd, fx.ws, "the run's workspace is the canonical folder");
		const agentId = (await tool.event).agentId as string;
		const sends = () => runtime.registry.get(agentId)?.sends;
		const before = sends();
		for (const cwd of [other, twin, inside]) {
			for (const op of ["steer-agent", "follow-up-agent", "stop-agent", "resume-agent"]) {
				const result = await runtime.agentOperation(op, { cwd, sessionId: "s1", agentId, message: "hijack" });
				assert.equal(result.isError, true);
				assert.equal(result.text, `Live agent '${agentId}' does not belong to workspace ${cwd}.`);
				assert.equal(result.text, foreignWorkspaceMessage(agentId, cwd));
			}
			const listed = await runtime.agentOperation("list-active-live-agents", { cwd, sessionId: "s1", force: true });
			assert.deepEqual(listed.details.agents, []);
		}
		assert.equal(sends(), before, "nothing was sent to the agent");
		const listed = await runtime.agentOperation("list-active-live-agents", { cwd: alias, sessionId: "s1" });
		assert.deepEqual(
			(listed.details.agents as { agentId: string }[]).map((a) => a.agentId),
			[agentId],
		);
		const steer = await runtime.agentOperation("steer-agent", {
			cwd: alias,
			sessionId: "s1",
			agentId,
			message: "STEER: use tabs",
		});
		assert.equal(steer.isError, false, steer.text);
		const follow = await runtime.agentOperation("follow-up-agent", {
			cwd: fx.ws,
			sessionId: "s1",
			agentId,
			message: "FOLLOW: now summarize",
		});
		assert.equal(follow.isError, false, follow.text);
		assert.equal(sends(), (before ?? 0) + 2);

		const run = await runtime.waitForRun({ cwd: fx.ws, sessionId: "s1", runId: manifest.runId });
		assert.equal(run.manifest.status, "done", run.manifest.error);
		assert.equal(run.tasks[0]?.result, "after follow-up");
		const requests = fx.requests().filter((r) => r.route === "STEER-ME");
		assert.deepEqual(
			requests.map((r) => r.lastUser),
			[requests[0]?.firstUser, "STEER: use tabs", "FOLLOW: now summarize"],
		);
		const after = await runtime.agentOperation("steer-agent", {
			cwd: fx.ws,
			sessionId: "s1",
			agentId,
			message: "late",
		});
		assert.equal(after.isError, true);
		assert.match(after.text, /is done, not running; nothing was sent/);
	});

	it("stops a live agent with its process tree and resumes it from the same session file", async (t) => {
		const fx = await crewFixture(t);
		await fx.script({ "STOP-ME": [busy(30)] });
		const runtime = fx.runtime();
		const scope = { cwd: fx.ws, sessionId: "s1" };
		const tool = await eventWaiter(runtime, scope, (e) => e.type === "agent.tool");
		const { manifest } = await runtime.startRun({
			...scope,
			team: team("stoppable", [{ id: "long", instructions: "STOP-ME" }]),
			goal: "Take long",
			catalog: CATALOG,
		});
		const agentId = (await tool.event).agentId as string;
		const first = runtime.registry.get(agentId);
		assert.ok(first?.pid);
		const tree = [first.pid, ...(await treeRunning(first.pid, "sleep 30"))];
		const stop = await runtime.agentOperation("stop-agent", { ...scope, agentId });
		assert.equal(stop.isError, false, stop.text);
		for (const pid of tree) assert.equal(await isProcessRunning(pid), false, `process ${pid} was ended`);
		const stopped = await runtime.waitForRun({ ...scope, runId: manifest.runId });
		assert.equal(stopped.manifest.status, "interrupted");
		assert.equal(stopped.tasks[0]?.status, "interrupted");
		assert.equal(runtime.registry.get(agentId)?.status, "stopped");

		const restarted = fx.runtime();
		const refused = await restarted.agentOperation("resume-agent", { ...scope, sessionId: "s2", agentId });
		assert.equal(refused.text, foreignSessionMessage(agentId, fx.ws), "another session cannot take it over");
		const elsewhere = await restarted.agentOperation("resume-agent", { ...scope, cwd: fx.root, agentId, force: true });
		assert.equal(elsewhere.text, `No live agent '${agentId}' in workspace ${fx.root}.`, "nor another workspace");

		await fx.script({ "STOP-ME": ["resumed and done"] });
		const resume = await runtime.agentOperation("resume-agent", { ...scope, agentId, message: "RESUME: carry on" });
		assert.equal(resume.isError, false, resume.text);
		const run = await runtime.waitForRun({ ...scope, runId: manifest.runId });
		assert.equal(run.manifest.status, "done", run.manifest.error);
		assert.equal(run.tasks[0]?.result, "resumed and done");
		assert.equal(run.tasks[0]?.attempts, 2);
		const second = runtime.registry.get(agentId);
		assert.equal(second?.sessionFile, first.sessionFile);
		assert.notEqual(second?.pid, first.pid);
		const requests = fx.requests().filter((r) => r.route === "STOP-ME");
		const last = requests.at(-1);
		assert.equal(requests.length, 2);
		assert.notEqual(last?.pid, requests[0]?.pid, "a new process");
		assert.match(last?.firstUser ?? "", /STOP-ME/, "the resumed conversation starts with the original task");
		assert.equal(last?.lastUser, "RESUME: carry on");
		const users = readFileSync(first.sessionFile, "utf8")
			.split("\n")
			.filter((line) => line.includes('"role":"user"'));
		assert.equal(users.length, 2, "one session file holds both prompts");
		const again = await runtime.agentOperation("resume-agent", { ...scope, agentId });
		assert.equal(again.isError, true);
	});

	it("keeps two sessions of one workspace apart unless force is passed", async (t) => {
		const fx = await crewFixture(t);
		await fx.script({ ISOLATED: [busy(30)] });
		const runtime = fx.runtime();
		const a = { cwd: fx.ws, sessionId: "session-a" };
		const b = { cwd: fx.ws, sessionId: "session-b" };
		const seenByB: CrewEvent[] = [];
		await runtime.subscribe(b, (e) => seenByB.push(e));
		const tool = await eventWaiter(runtime, a, (e) => e.type === "agent.tool");
		const { manifest } = await runtime.startRun({
			...a,
			team: team("private", [{ id: "mine", instructions: "ISOLATED" }]),
			goal: "Mine only",
			catalog: CATALOG,
		});
		const runId = manifest.runId;
		const agentId = (await tool.event).agentId as string;
		const sends = runtime.registry.get(agentId)?.sends;

		assert.deepEqual(await runtime.list(b), []);
		assert.deepEqual(await runtime.overview(b), { runs: [], agents: [] });
		const none = await runtime.agentOperation("list-active-live-agents", b);
		assert.deepEqual(none.details.agents, []);
		for (const op of ["steer-agent", "follow-up-agent", "stop-agent", "resume-agent"]) {
			const refused = await runtime.agentOperation(op, { ...b, agentId, message: "mine now" });
			assert.equal(refused.isError, true);
			assert.equal(refused.text, foreignSessionMessage(agentId, fx.ws));
		}
		await assert.rejects(runtime.status({ ...b, runId }), CrewAccessError);
		await assert.rejects(runtime.cancel({ ...b, runId }), /belongs to another session/);
		await assert.rejects(runtime.waitForRun({ ...b, runId }), CrewAccessError);
		assert.equal(runtime.registry.get(agentId)?.sends, sends, "nothing was sent");

		const mine = await runtime.overview(a);
		assert.deepEqual(
			mine.runs.map((r) => r.runId),
			[runId],
		);
		assert.deepEqual(
			mine.agents.map((x) => x.agentId),
			[agentId],
		);
		const forced = { ...b, force: true };
		assert.deepEqual(
			(await runtime.list(forced)).map((r) => r.runId),
			[runId],
		);
		assert.equal((await runtime.status({ ...forced, runId })).manifest.ownerSessionId, "session-a");
		const seen = await runtime.agentOperation("list-active-live-agents", forced);
		assert.deepEqual(
			(seen.details.agents as { agentId: string }[]).map((x) => x.agentId),
			[agentId],
		);
		const steer = await runtime.agentOperation("steer-agent", { ...forced, agentId, message: "forced steer" });
		assert.equal(steer.isError, false, steer.text);
		assert.equal(runtime.registry.get(agentId)?.sends, (sends ?? 0) + 1);

		const pid = runtime.registry.get(agentId)?.pid as number;
		const tree = [pid, ...(await treeRunning(pid, "sleep 30"))];
		const cancelled = await runtime.cancel({ ...a, runId });
		assert.equal(cancelled.manifest.status, "cancelled");
		assert.equal(cancelled.tasks[0]?.status, "cancelled");
		assert.equal(runtime.registry.get(agentId)?.status, "cancelled");
		for (const p of tree) assert.equal(await isProcessRunning(p), false, `cancel ended process ${p}`);
		assert.deepEqual(seenByB, [], "session b saw no event of session a's run");
	});
});
