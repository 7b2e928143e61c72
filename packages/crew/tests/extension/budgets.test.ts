// Crew budgets through the real Pi host (in process, scripted coordinator; sub-agents are real `pi --mode rpc`
// children of the faux model): an agent whose definition limits its turns is stopped when it would go past them,
// its task failed with `budget-exceeded: turns 2/2` and its partial result kept, the widget and `/team status` show
// spent/limit; a run budget given to the tool stops the next task from starting; bad budgets are clear errors.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { PiHost } from "../../../../test/e2e/harness.ts";
import { readRun, runIds as readRunIds, team, until, widgetHistory, writeDefinitions } from "./support/crew-world.ts";
import { hostedWorld } from "./support/hosted-world.ts";

const frame = hostedWorld("crew-budgets-");
const host = frame.host;

const echo = (text: string) => ({ name: "bash", arguments: { command: `echo ${text}` } });
/** A bash call that waits until `world.open(name)`. */
const gateCall = (name: string) => ({
	name: "bash",
	arguments: { command: `while [ ! -e '${join(frame.world().root, "gates", name)}' ]; do sleep 0.05; done` },
});

/** The `/team status` text (a run-end notification may arrive alongside it). */
async function statusText(h: PiHost, runId: string): Promise<string> {
	const result = await h.command(`/team status ${runId}`);
	const text = result.notifications.map((n) => n.message).find((m) => m.startsWith("Run "));
	assert.ok(text, JSON.stringify(result.notifications));
	return text;
}

async function ended(ws: string, runId: string) {
	return until(async () => {
		const run = await readRun(ws, runId);
		return ["done", "failed"].includes(String(run.manifest.status)) ? run : undefined;
	}, `run ${runId} ended`);
}

describe("crew budgets", { concurrency: 2 }, () => {
	it("stops an agent at its definition's turn limit, keeps its partial result and shows spent/limit", async () => {
		const world = frame.world();
		const ws = join(world.root, "turns");
		await writeDefinitions(ws, {
			capped:
				"roles:\n  - { role: w, agent: thrifty }\nworkflow:\n  - { id: work, role: w, instructions: TURNS-TASK }\n  - { id: after, role: w, dependsOn: [work], instructions: AFTER-TASK }",
		});
		await writeFile(
			join(ws, ".pi", "crew", "agents", "thrifty.md"),
			"---\nname: thrifty\ndescription: Works on a short leash.\nbudget: { turns: 2, tokens: 100000000 }\n---\nYou are thrifty.\n",
		);
		await world.route("TURNS-TASK", [
			{ text: "partial one", toolCalls: [gateCall("turns-1")] },
			{ text: "partial two", toolCalls: [echo("two")] },
			world.gate("turns-never"),
			"never reached",
		]);
		await world.route("AFTER-TASK", ["never started"]);
		const h = await host(ws);
		const started = await team(h, { action: "run", team: "capped", goal: "Spend little" });
		assert.equal(started.isError, false, started.text);
		const runId = started.details.runId as string;
		await until(
			() => widgetHistory(h).some((line) => line.includes("1/2 turn")),
			"the widget shows turns spent against the limit",
		);
		await world.open("turns-1");

		const run = await ended(ws, runId);
		assert.equal(run.manifest.status, "failed");
		const [work, next] = run.tasks;
		assert.equal(work?.status, "failed");
		assert.equal(work?.error, "budget-exceeded: turns 2/2");
		assert.equal(work?.result, "partial two", "the partial result is kept");
		assert.equal(next?.status, "failed");
		assert.match(String(next?.error), /not started: task work failed/);
		assert.equal(world.requests("AFTER-TASK").length, 0, "the dependent agent never ran");
		const status = await statusText(h, runId);
		assert.match(status, /- work \(w, agent thrifty\): failed\n {2}budget: turns [23]\/2, tokens \d+\/100000000/);
		assert.match(status, /error: budget-exceeded: turns 2\/2/);
		assert.match(status, /result: partial two/);
	});

	it("does not start a task once the run's budget (a tool parameter) is spent, and refuses bad budgets", async () => {
		const world = frame.world();
		const ws = join(world.root, "run");
		await writeDefinitions(ws, {
			chain:
				"roles:\n  - { role: w, agent: worker }\nworkflow:\n  - { id: first, role: w, instructions: SPEND-TASK }\n  - { id: second, role: w, dependsOn: [first], instructions: LATE-TASK }",
			broken: "budget: { turns: 0 }\nroles:\n  - { role: w, agent: worker }\nworkflow:\n  - { id: x, role: w }",
		});
		await world.route("SPEND-TASK", ["first done"]);
		await world.route("LATE-TASK", ["never started"]);
		const h = await host(ws);

		const bad = await team(h, { action: "run", team: "chain", goal: "g", budget: { turns: 0 } });
		assert.equal(bad.isError, true);
		assert.match(bad.text, /budget\.turns: expected >= 1/, "Pi checks the tool's schema");
		const unknown = await team(h, { action: "run", team: "chain", goal: "g", agentBudget: { minutes: 3 } });
		assert.match(unknown.text, /field "agentBudget.minutes": unknown field; allowed: turns, toolCalls, tokens, cost/);
		const flag = await h.command("/team run chain g --budget=turns=lots");
		assert.match(flag.notifications[0]?.message ?? "", /--budget: expected key=number pairs .*, got turns=lots/);
		const teams = await team(h, { action: "teams" });
		assert.match(teams.text, /broken\.md: field "budget\.turns": expected an integer from 1/);

		const started = await team(h, { action: "run", team: "chain", goal: "Spend once", budget: { turns: 1 } });
		assert.equal(started.isError, false, started.text);
		const runId = started.details.runId as string;
		const run = await ended(ws, runId);
		assert.equal(run.tasks[0]?.status, "done");
		assert.equal(run.tasks[0]?.result, "first done");
		assert.equal(run.tasks[1]?.status, "failed");
		assert.equal(run.tasks[1]?.error, "budget-exceeded: run turns 1/1; not started");
		assert.equal(world.requests("LATE-TASK").length, 0);
		assert.match(await statusText(h, runId), /run budget: turns 1\/1/);
	});

	it("takes a budget for each agent from the /team run flag, and stops the agent at it", async () => {
		const world = frame.world();
		const ws = join(world.root, "flag");
		await writeDefinitions(ws, {
			solo: "roles:\n  - { role: w, agent: worker }\nworkflow:\n  - { id: only, role: w, instructions: FLAG-TASK }",
		});
		await world.route("FLAG-TASK", [{ text: "first step", toolCalls: [echo("one")] }, world.gate("flag-never")]);
		const h = await host(ws);
		const started = await h.command("/team run solo Spend one turn --agent-budget=turns=1,cost=5");
		assert.match(started.notifications[0]?.message ?? "", /^Started run/);
		const runId = (await readRunIds(ws))[0] as string;
		const run = await ended(ws, runId);
		assert.equal(run.tasks[0]?.error, "budget-exceeded: turns 1/1");
		assert.equal(run.tasks[0]?.result, "first step");
		assert.match(await statusText(h, runId), /budget: turns [12]\/1, cost \$0\.\d+\/\$5\.00/);

		// A run budget reached while its agent works stops that agent too.
		await world.route("RUN-CAP-TASK", [
			{ toolCalls: [echo("one")] },
			{ text: "second step", toolCalls: [echo("two")] },
			world.gate("run-cap-never"),
		]);
		await writeDefinitions(ws, {
			capped:
				"roles:\n  - { role: w, agent: worker }\nworkflow:\n  - { id: only, role: w, instructions: RUN-CAP-TASK }",
		});
		const capped = await team(h, { action: "run", team: "capped", goal: "Two turns in all", budget: { turns: 2 } });
		assert.equal(capped.isError, false, capped.text);
		const cappedRun = await ended(ws, capped.details.runId as string);
		assert.equal(cappedRun.tasks[0]?.error, "budget-exceeded: run turns 2/2");
		assert.equal(cappedRun.tasks[0]?.result, "second step");
	});
});
