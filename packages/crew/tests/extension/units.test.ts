// The pure parts of the crew extension: the widget's lines, `/team` parsing, settings from the environment, run
// texts, ad-hoc teams, and the access hints that the coordinator's Fovea and Contour accept.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CREW_AGENT_ACCESS_EVENT, crewAgentAccess, crewAgentAccessHint } from "pi-fovea/agent-access";
import { peerWorkspaceRoot } from "pi-fovea/workspace";
import { PI_CLI } from "../../../../test/e2e/support/pi-cli.ts";
import { gitRepo } from "../../../../test/e2e/support/workspaces.ts";
import { type AgentDefinition, DefinitionCatalog } from "../../src/definitions/index.ts";
import { AccessReporter } from "../../src/extension/access-hints.ts";
import { coordinatorPiCommand, envPiArgs, parseModelChoice } from "../../src/extension/crew-config.ts";
import { requestedTeam } from "../../src/extension/run-start.ts";
import { oneLine, runListLine } from "../../src/extension/run-text.ts";
import { commandParams, parseTeamCommand } from "../../src/extension/team-command.ts";
import { plainLines, WIDGET_LINE_LIMIT, widgetRows } from "../../src/extension/widget.ts";
import type { CrewEvent, LiveAgentHandle } from "../../src/runtime/index.ts";
import type { RunListing, RunManifest, RunTask } from "../../src/state/index.ts";

const RUN = "20250101-000000-000-0000abcd";

function listing(status: RunManifest["status"], tasks: Partial<RunTask>[] = [{ id: "a", status: "done" }]): RunListing {
	const manifest = {
		runId: RUN,
		status,
		team: "pair",
		goal: "Do   the\nthing",
		workspaceMode: "single",
	} as RunManifest;
	return { runId: RUN, dir: "/x", manifest, tasks: tasks as RunTask[] };
}

function agent(taskId: string, extra: Partial<LiveAgentHandle> = {}): LiveAgentHandle {
	return { agentId: `${RUN}:${taskId}`, runId: RUN, taskId, status: "running", ...extra } as LiveAgentHandle;
}

describe("widget lines", () => {
	const plain = { now: Date.parse("2025-01-01T00:01:00Z"), shortIds: false };
	const widgetLines = (runs: RunListing[], agents: LiveAgentHandle[]) => {
		const rows = widgetRows(runs, agents, plain);
		return rows === undefined ? undefined : plainLines(rows);
	};

	it("one line per run, its agents under it, nothing when idle", () => {
		assert.equal(widgetLines([], []), undefined);
		const lines = widgetLines(
			[listing("running", [{ status: "done" }, { status: "running" }])],
			[agent("b", { currentTool: "bash" })],
		);
		assert.deepEqual(lines, [
			`crew ${RUN} · pair · running · 1/2 done · Do the thing`,
			`  b · agent ${RUN}:b · running · bash`,
		]);
		assert.match(
			widgetLines([listing("interrupted")], [])?.[0] ?? "",
			new RegExp(`/team resume ${RUN} · Do the thing$`),
		);
	});

	it("is bounded", () => {
		const agents = Array.from({ length: 30 }, (_, i) => agent(`t${i}`));
		const lines = widgetLines([listing("running")], agents) ?? [];
		assert.equal(lines.length, WIDGET_LINE_LIMIT);
		assert.match(lines.at(-1) ?? "", /^… 20 more lines: \/team list$/);
	});
});

describe("/team command parsing", () => {
	it("maps subcommands to tool parameters", () => {
		assert.deepEqual(commandParams(parseTeamCommand("run pair Fix the login bug --worktree")), {
			action: "run",
			team: "pair",
			goal: "Fix the login bug",
			workspaceMode: "worktree",
		});
		assert.deepEqual(commandParams(parseTeamCommand("status")), { action: "status" });
		assert.deepEqual(commandParams(parseTeamCommand(`resume ${RUN} --force`)), {
			action: "resume",
			runId: RUN,
			force: true,
		});
		assert.deepEqual(parseTeamCommand("").sub, "help");
		assert.deepEqual(commandParams(parseTeamCommand(`retry ${RUN}`)), { action: "retry", runId: RUN });
		assert.deepEqual(commandParams(parseTeamCommand(`retry ${RUN} build --force`)), {
			action: "retry",
			runId: RUN,
			taskId: "build",
			force: true,
		});
	});

	it("refuses what it does not know", () => {
		assert.throws(() => parseTeamCommand("fly"), /unknown subcommand 'fly'/);
		assert.throws(() => parseTeamCommand("status --commit"), /unknown flag --commit/);
		assert.throws(() => parseTeamCommand("run a b --worktree --single"), /not both/);
		assert.throws(() => commandParams(parseTeamCommand("run onlyteam")), /usage/);
		assert.throws(() => commandParams(parseTeamCommand("retry")), /usage: \/team retry <runId> \[taskId\]/);
		assert.throws(() => commandParams(parseTeamCommand(`retry ${RUN} a b`)), /unexpected argument b/);
		assert.throws(() => commandParams(parseTeamCommand(`cancel ${RUN} extra`)), /unexpected argument extra/);
	});
});

describe("settings", () => {
	it("PI_CREW_PI_ARGS is a JSON array of strings", () => {
		assert.deepEqual(envPiArgs({}), []);
		assert.deepEqual(envPiArgs({ PI_CREW_PI_ARGS: '["-e", "x.ts"]' }), ["-e", "x.ts"]);
		assert.throws(() => envPiArgs({ PI_CREW_PI_ARGS: "-e x.ts" }), /PI_CREW_PI_ARGS: expected a JSON array/);
		assert.throws(() => envPiArgs({ PI_CREW_PI_ARGS: "[1]" }), /PI_CREW_PI_ARGS: expected a JSON array of strings/);
	});

	it("PI_CREW_MODEL is provider/model or model", () => {
		assert.deepEqual(parseModelChoice("pi-faux/scripted"), { provider: "pi-faux", model: "scripted" });
		assert.deepEqual(parseModelChoice("sonnet"), { model: "sonnet" });
		assert.equal(parseModelChoice(" "), undefined);
		assert.throws(() => parseModelChoice("/x"), /PI_CREW_MODEL: expected provider\/model/);
	});

	it("recognizes the Pi CLI that runs this process, and nothing else", () => {
		assert.deepEqual(coordinatorPiCommand(["node", PI_CLI]), {
			command: process.execPath,
			args: [realpathSync(PI_CLI)],
		});
		assert.equal(coordinatorPiCommand(["node", import.meta.filename]), undefined);
		assert.equal(coordinatorPiCommand(["node", "/no/such/file"]), undefined);
		assert.equal(coordinatorPiCommand(["node"]), undefined);
	});
});

describe("run texts and ad-hoc teams", () => {
	it("a damaged listing shows its error", () => {
		assert.equal(
			runListLine({ runId: RUN, dir: "/x", error: new Error("tasks.json: broken") }),
			`${RUN}  damaged: tasks.json: broken`,
		);
		assert.equal(oneLine("a\n  b   c", 4), "a b…");
	});

	it("a listed run of another session names it; the CLI, which sees every session, names each run's", () => {
		const run = listing("interrupted");
		(run.manifest as RunManifest).ownerSessionId = "ended-one";
		const prefix = `${RUN}  interrupted  pair  1/1 tasks done  Do the thing`;
		assert.equal(runListLine(run, "ended-one"), prefix);
		assert.equal(runListLine(run, "me"), `${prefix}  [another session: ended-one, ended; force takes it over]`);
		assert.equal(runListLine(run), `${prefix}  session ended-one`);
	});

	it("tasks without a team make an ad-hoc team of their agents", () => {
		const worker = {
			name: "worker",
			description: "w",
			systemPrompt: "p",
			file: "f",
			layer: "builtin",
		} as AgentDefinition;
		const catalog = new DefinitionCatalog(new Map([["worker", worker]]), new Map(), []);
		const { team, tasks } = requestedTeam(
			{
				tasks: [
					{ id: "a", agent: "worker" },
					{ id: "b", agent: "worker", dependsOn: ["a"], instructions: "next" },
				],
			},
			catalog,
		);
		assert.equal(team.name, "ad-hoc");
		assert.deepEqual(team.roles, [{ role: "worker", agent: "worker" }]);
		assert.deepEqual(tasks?.[1], { id: "b", role: "worker", agent: "worker", dependsOn: ["a"], instructions: "next" });
		assert.throws(() => requestedTeam({ tasks: [] }, catalog), /at least one task/);
		assert.throws(() => requestedTeam({}, catalog), /field "team"/);
	});
});

describe("access hints", () => {
	it("is a version-1 report on Crew's own channel with the agent as origin, never a workspace hint", () => {
		const origin = { kind: "crew-agent" as const, agentId: `${RUN}:a`, runId: RUN, taskId: "a" };
		const hint = crewAgentAccessHint("/work/repo", "s1", origin);
		assert.deepEqual(hint, { version: 1, root: "/work/repo", sessionId: "s1", origin });
		assert.deepEqual(crewAgentAccess(hint, { sessionId: "s1" }), { root: "/work/repo", origin });
		assert.equal(crewAgentAccess(hint, { sessionId: "s2" }), undefined, "another session ignores it");
		for (const source of ["fovea", "contour"] as const) {
			assert.equal(peerWorkspaceRoot(hint, { source, sessionId: "s1" }), undefined, "no source: not a peer hint");
			assert.equal(peerWorkspaceRoot({ ...hint, source: "crew" }, { source, sessionId: "s1" }), undefined);
		}
	});

	it("publish each new root of this session's agents once; a worktree is its own root", async () => {
		const base = realpathSync(mkdtempSync(join(tmpdir(), "crew-hints-")));
		try {
			const repo = gitRepo(join(base, "repo"), { "a.ts": "x" }, { commit: true });
			const tree = join(repo, ".worktrees", RUN, "a");
			mkdirSync(tree, { recursive: true });
			writeFileSync(join(tree, ".git"), "gitdir: /nowhere\n");
			const sent: unknown[] = [];
			const reporter = new AccessReporter("s1", (channel, payload) => {
				assert.equal(channel, CREW_AGENT_ACCESS_EVENT);
				sent.push(payload);
			});
			const event = (sessionId: string): CrewEvent => ({
				type: "agent.access",
				runId: RUN,
				taskId: "a",
				agentId: `${RUN}:a`,
				workspaceId: repo,
				ownerSessionId: sessionId,
				data: { kind: "file" },
			});
			assert.equal(await reporter.report(`${RUN}:a`, join(tree, "f.ts"), event("s1")), tree);
			assert.equal(await reporter.report(`${RUN}:a`, join(tree, "g.ts"), event("s1")), tree);
			assert.equal(await reporter.report(`${RUN}:a`, join(repo, "a.ts"), event("s1")), repo);
			assert.equal(
				await reporter.report(`${RUN}:a`, join(repo, "a.ts"), event("s2")),
				undefined,
				"another session's agent",
			);
			assert.equal(sent.length, 2, "one hint per new root");
			assert.deepEqual(reporter.rootsOf(`${RUN}:a`), [tree, repo]);
			reporter.close();
			assert.equal(await reporter.report(`${RUN}:a`, join(base, "other.ts"), event("s1")), undefined);
		} finally {
			rmSync(base, { recursive: true, force: true });
		}
	});
});
