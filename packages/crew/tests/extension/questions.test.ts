// The supervisor channel through the real Pi host (in process, scripted coordinators; sub-agents are real `pi --mode
// rpc` children of the faux model): a sub-agent calls `ask_coordinator`; its coordinator's model is told in a
// `pi-crew-question` message tied to that agent, answers with follow-up-agent, and the agent goes on with the
// answer. Another live session of the workspace and a session of another workspace are never told, and cannot
// answer. A question nobody answers times out in the agent, which goes on alone; a run cancelled while its agent
// waits ends at once.
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { ModelRequest, PiHost } from "../../../../test/e2e/harness.ts";
import { readSessionFile } from "../../../../test/e2e/support/pi-cli.ts";
import { questionMessageComponent } from "../../src/extension/run-message.ts";
import { readRun, team, until, widgetHistory, writeDefinitions } from "./support/crew-world.ts";
import { hostedWorld } from "./support/hosted-world.ts";

const frame = hostedWorld("crew-questions-");

const SOLO = (marker: string) =>
	`roles:\n  - { role: w, agent: worker }\nworkflow:\n  - { id: only, role: w, instructions: ${marker} }`;

const ask = (question: string) => ({ toolCalls: [{ name: "ask_coordinator", arguments: { question } }] });

/** The `pi-crew-question` messages a host's session holds. */
function questions(h: PiHost): { content: string; details: Record<string, unknown> }[] {
	return h
		.entries()
		.filter((e) => e.type === "custom_message" && e.customType === "pi-crew-question")
		.map((e) => e as unknown as { content: string; details: Record<string, unknown> });
}

/** The text of every tool result in an agent's session file. */
function toolResults(sessionFile: string): string[] {
	return readSessionFile(sessionFile)
		.filter((r) => r.type === "message")
		.map((r) => r.message as { role?: string; content?: { type: string; text?: string }[] })
		.filter((m) => m.role === "toolResult")
		.map((m) => (m.content ?? []).map((c) => c.text ?? "").join(""));
}

function lastText(request: ModelRequest): string {
	const last = request.messages.at(-1) as { content?: unknown } | undefined;
	const content = last?.content;
	if (typeof content === "string") return content;
	return Array.isArray(content) ? content.map((c: { text?: string }) => c.text ?? "").join("") : "";
}

describe("the supervisor channel", () => {
	it("delivers an agent's question to its own coordinator only, whose answer the agent goes on with", async () => {
		const world = frame.world();
		const ws = join(world.root, "ws");
		const elsewhere = join(world.root, "elsewhere");
		await mkdir(elsewhere, { recursive: true });
		await writeDefinitions(ws, { asking: SOLO("ASK-TASK") });
		await world.route("ASK-TASK", [ask("Blue or green?"), "painted it as the coordinator said"]);
		// One after the other: hosts started at once in one process load the extension's lazy modules concurrently.
		const a = await frame.host(ws);
		const b = await frame.host(ws);
		const c = await frame.host(elsewhere);

		const started = await team(a, { action: "run", team: "asking", goal: "Paint the shed" });
		assert.equal(started.isError, false, started.text);
		const runId = started.details.runId as string;
		const agentId = `${runId}:only`;
		// What A's model does when told: answer through follow-up-agent, naming the agent the message names.
		let answeredWith = "";
		a.script(
			(request) => {
				const named = /Agent (\S+) \(task only/.exec(lastText(request))?.[1] ?? "none";
				return [{ name: "team", arguments: { action: "follow-up-agent", agentId: named, message: "BLUE, please" } }];
			},
			(request) => {
				answeredWith = lastText(request);
				return "answered";
			},
		);
		const told = await until(() => questions(a)[0], "A is told the question").catch((error: Error) => {
			throw new Error(`${error.message}; A's extension errors: ${JSON.stringify(a.errors)}`);
		});
		assert.equal(told.details.agentId, agentId);
		assert.equal(told.details.runId, runId);
		assert.match(told.content, /asks you:\nBlue or green\?/);
		assert.match(told.content, new RegExp(`follow-up-agent", agentId: "${agentId}"`));

		const run = await until(async () => {
			const r = await readRun(ws, runId);
			return r.manifest.status === "done" ? r : undefined;
		}, "the run done after the answer");
		assert.equal(run.tasks[0]?.result, "painted it as the coordinator said");
		assert.match(answeredWith, /Answered the question of live agent/);
		const sessionFile = join(ws, ".pi", "crew", "runs", runId, "sessions", "only.jsonl");
		assert.ok(
			toolResults(sessionFile).includes("The coordinator answered: BLUE, please"),
			"the agent's tool returned the answer",
		);
		assert.deepEqual(questions(b), [], "another session of the workspace is never told");
		assert.deepEqual(questions(c), [], "a session of another workspace is never told");

		const shown = questionMessageComponent(
			told,
			{ expanded: true, outputPad: 0 },
			{ fg: (_c, t) => t, bold: (t) => t },
		);
		assert.match(shown.render(200).join("\n"), new RegExp(`crew agent only \\(run ${runId.slice(-8)}\\) asks`));
	});

	it("refuses another session's answer, times a question out, and cancels a waiting agent at once", async () => {
		const world = frame.world();
		const ws = join(world.root, "ws2");
		await writeDefinitions(ws, { waits: SOLO("WAIT-TASK"), stuck: SOLO("STUCK-TASK") });
		await world.route("WAIT-TASK", [ask("Anyone there?"), "went on alone"]);
		await world.route("STUCK-TASK", [ask("Still there?"), "never reached"]);
		const previous = process.env.PI_CREW_QUESTION_TIMEOUT_MS;
		process.env.PI_CREW_QUESTION_TIMEOUT_MS = "4000";
		try {
			const a = await frame.host(ws);
			const b = await frame.host(ws);
			const started = await team(a, { action: "run", team: "waits", goal: "Wait for nobody" });
			assert.equal(started.isError, false, started.text);
			const runId = started.details.runId as string;
			const agentId = `${runId}:only`;
			await until(() => questions(a)[0], "A is told the question").catch(async (error: Error) => {
				const why = {
					errors: a.errors,
					requests: world.requests("WAIT-TASK"),
					run: await readRun(ws, runId),
					events: a.sessionEvents.map((e) => e.type).slice(-30),
					entries: a.entries().map((e) => e.type),
				};
				throw new Error(`${error.message}; ${JSON.stringify(why)}`);
			});
			await until(
				() => widgetHistory(a).some((line) => line.includes("asks you")),
				"A's widget shows the waiting agent",
			);
			const fromB = await team(b, { action: "follow-up-agent", agentId, message: "from B" });
			assert.equal(fromB.isError, true);
			assert.match(fromB.text, /belongs to another session/);
			const run = await until(async () => {
				const r = await readRun(ws, runId);
				return r.manifest.status === "done" ? r : undefined;
			}, "the run done after the question timed out");
			assert.equal(run.tasks[0]?.result, "went on alone");
			const results = toolResults(join(ws, ".pi", "crew", "runs", runId, "sessions", "only.jsonl"));
			assert.ok(
				results.some((t) => t.startsWith("No answer from the coordinator")),
				results.join("\n"),
			);
			assert.ok(!results.some((t) => t.includes("from B")), "B's answer never reached the agent");

			process.env.PI_CREW_QUESTION_TIMEOUT_MS = "600000";
			const stuck = await team(a, { action: "run", team: "stuck", goal: "Wait, then be cancelled" });
			assert.equal(stuck.isError, false, stuck.text);
			const stuckId = stuck.details.runId as string;
			await until(() => questions(a).some((q) => q.details.runId === stuckId), "A is told the second question");
			const cancelled = await team(a, { action: "cancel", runId: stuckId });
			assert.equal(cancelled.isError, false, cancelled.text);
			const after = await readRun(ws, stuckId);
			assert.equal(after.manifest.status, "cancelled");
			assert.equal(after.tasks[0]?.status, "cancelled");
		} finally {
			if (previous === undefined) delete process.env.PI_CREW_QUESTION_TIMEOUT_MS;
			else process.env.PI_CREW_QUESTION_TIMEOUT_MS = previous;
		}
	});
});
