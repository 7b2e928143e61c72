import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { cp, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import {
	CrewAccessError,
	type CrewEvent,
	foreignSessionMessage,
	foreignWorkspaceMessage,
	isProcessRunning,
	liveSessionAgentMessage,
} from "../../src/runtime/index.ts";
import { runsDirOf } from "../../src/state/index.ts";
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

	it("a run directory copied into another workspace reaches neither the original's execution nor its agent", async (t) => {
		const fx = await crewFixture(t);
		await fx.script({ ORIGINAL: [busy(30)] });
		const runtime = fx.runtime();
		const a = { cwd: fx.ws, sessionId: "sA" };
		const tool = await eventWaiter(runtime, a, (e) => e.type === "agent.tool");
		const { manifest } = await runtime.startRun({
			...a,
			team: team("original", [{ id: "t1", instructions: "ORIGINAL" }]),
			goal: "A's goal",
			catalog: CATALOG,
		});
		const runId = manifest.runId;
		const agentId = (await tool.event).agentId as string;
		const pid = runtime.registry.get(agentId)?.pid as number;
		const tree = [pid, ...(await treeRunning(pid, "sleep 30"))];
		/** Workspace `name` gets a copy of A's run directory, made its own (cwd, owner) and marked interrupted. */
		const forge = async (name: string) => {
			const ws = join(fx.root, name);
			const from = join(runsDirOf(fx.ws), runId);
			const to = join(runsDirOf(ws), runId);
			await mkdir(to, { recursive: true });
			for (const file of ["manifest.json", "tasks.json", "events.jsonl"]) await cp(join(from, file), join(to, file));
			const m = JSON.parse(await readFile(join(to, "manifest.json"), "utf8"));
			await writeFile(
				join(to, "manifest.json"),
				JSON.stringify({ ...m, cwd: ws, ownerSessionId: "sB", status: "interrupted" }),
			);
			const tf = JSON.parse(await readFile(join(to, "tasks.json"), "utf8"));
			// The task keeps its meta: the pid and start marker of A's live agent.
			tf.tasks = tf.tasks.map((task: object) => ({ ...task, status: "interrupted" }));
			await writeFile(join(to, "tasks.json"), JSON.stringify(tf));
			return { cwd: ws, sessionId: "sB" };
		};

		const b = await forge("wsB");
		assert.equal((await runtime.status({ ...b, runId })).active, false, "A's busy execution is not B's");
		const waited = await Promise.race([runtime.waitForRun({ ...b, runId }), sleep(2000).then(() => undefined)]);
		assert.equal(waited?.manifest.cwd, b.cwd, "B waits for its own run, not for A's execution");
		const cancelled = await runtime.cancel({ ...b, runId });
		assert.deepEqual([cancelled.manifest.cwd, cancelled.manifest.status], [b.cwd, "cancelled"]);

		const c = await forge("wsC");
		await runtime.resume({ ...c, runId });
		const failed = await runtime.waitForRun({ ...c, runId });
		assert.equal(failed.tasks[0]?.status, "failed");
		assert.match(
			failed.tasks[0]?.error ?? "",
			new RegExp(`Live agent '${agentId}' already belongs to workspace ${fx.ws}`),
		);

		const handle = runtime.registry.get(agentId, fx.ws);
		assert.deepEqual([handle?.workspaceId, handle?.ownerSessionId, handle?.status], [fx.ws, "sA", "running"]);
		assert.equal(runtime.registry.get(agentId, c.cwd), undefined);
		const steer = await runtime.agentOperation("steer-agent", { ...a, agentId, message: "still mine" });
		assert.equal(steer.isError, false, steer.text);
		for (const p of tree) assert.equal(await isProcessRunning(p), true, `A's agent process ${p} still runs`);
		assert.equal((await runtime.status({ ...a, runId })).manifest.status, "running");
		await runtime.cancel({ ...a, runId });
	});

	it("keeps two live sessions of one workspace apart, even when force is passed", async (t) => {
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
		// Force takes over only runs whose session has ended; session a is live, so b is refused even with force,
		// from the same runtime and from another runtime of this process (another Pi session, sharing the registry).
		const forced = { ...b, force: true };
		const elsewhere = fx.runtime({ registry: runtime.registry });
		const pid = runtime.registry.get(agentId)?.pid as number;
		const tree = [pid, ...(await treeRunning(pid, "sleep 30"))];
		for (const rt of [runtime, elsewhere]) {
			assert.deepEqual(await rt.list(forced), []);
			assert.deepEqual(await rt.overview(forced), { runs: [], agents: [] });
			const seen = await rt.agentOperation("list-active-live-agents", forced);
			assert.deepEqual(seen.details.agents, []);
			for (const op of ["steer-agent", "follow-up-agent", "stop-agent", "resume-agent"]) {
				const refused = await rt.agentOperation(op, { ...forced, agentId, message: "forced" });
				assert.equal(refused.isError, true);
				assert.equal(refused.text, liveSessionAgentMessage(agentId, fx.ws));
			}
			for (const call of [rt.status, rt.cancel, rt.resume, rt.waitForRun]) {
				await assert.rejects(call.call(rt, { ...forced, runId }), (error: Error) => {
					assert.ok(error instanceof CrewAccessError);
					assert.match(error.message, /belongs to another live session of workspace .*force only takes over/);
					return true;
				});
			}
		}
		assert.equal(runtime.registry.get(agentId)?.sends, sends, "nothing was sent");
		for (const p of tree) assert.equal(await isProcessRunning(p), true, `process ${p} was left running`);
		assert.equal(runtime.registry.get(agentId)?.status, "running");
		assert.equal((await runtime.status({ ...a, runId })).manifest.status, "running");

		const cancelled = await runtime.cancel({ ...a, runId });
		assert.equal(cancelled.manifest.status, "cancelled");
		assert.equal(cancelled.tasks[0]?.status, "cancelled");
		assert.equal(runtime.registry.get(agentId)?.status, "cancelled");
		for (const p of tree) assert.equal(await isProcessRunning(p), false, `cancel ended process ${p}`);
		assert.deepEqual(seenByB, [], "session b saw no event of session a's run");
	});
});
