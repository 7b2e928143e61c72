// Bad input through the real Pi host (in process, scripted coordinator; no sub-agent is ever started here):
// malformed definitions, unknown teams and agents, worktree mode without Git, outside Git or without a commit, a
// root of another workspace, a run directory edited by hand, and malformed tool and command input. Each gives a
// clear error naming what was wrong, and nothing on disk changes.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { cleanupTempDirs, type PiHost, startHost, tempDir } from "../../../../test/e2e/harness.ts";
import { commandText, gitRepo } from "../../../../test/e2e/support/workspaces.ts";
import { RunStore } from "../../src/state/index.ts";
import { CREW_EXTENSION, crewWorld, runIds, team, writeDefinitions } from "./support/crew-world.ts";

const WORKER_TEAM =
	"roles:\n  - { role: w, agent: worker }\nworkflow:\n  - { id: only, role: w, instructions: never started }";
let ws: string;
let other: string;
let host: PiHost;

before(async () => {
	const root = await tempDir("crew-bad-");
	await crewWorld(root);
	ws = join(root, "ws");
	other = join(root, "other");
	mkdirSync(other);
	await writeDefinitions(ws, {
		solo: WORKER_TEAM,
		wt: `workspaceMode: worktree\n${WORKER_TEAM}`,
		ghostly: "roles:\n  - { role: w, agent: ghost }\nworkflow:\n  - { id: only, role: w }",
	});
	writeFileSync(join(ws, ".pi/crew/teams/broken.md"), "---\nname: broken\ndescription: [unclosed\n---\n");
	host = await startHost({ cwd: ws, extensions: [CREW_EXTENSION] });
});

after(async () => {
	await host.dispose();
	await cleanupTempDirs();
});

async function refused(args: Parameters<typeof team>[1], pattern: RegExp): Promise<void> {
	const result = await team(host, args);
	assert.equal(result.isError, true, `expected a refusal: ${result.text}`);
	assert.match(result.text, pattern);
}

describe("bad input gives a clear error and loses nothing", () => {
	it("definitions: a malformed team file, an unknown team, a team or task naming an unknown agent", async () => {
		await refused({ action: "run", team: "broken", goal: "g" }, /team "broken" cannot be used: .*broken\.md/);
		await refused({ action: "run", team: "nope", goal: "g" }, /unknown team "nope"; known teams: .*solo/);
		await refused({ action: "run", team: "ghostly", goal: "g" }, /ghostly.*unknown agent "ghost"/);
		await refused(
			{ action: "run", goal: "g", tasks: [{ id: "a", agent: "ghost" }] },
			/unknown agent "ghost"; known agents: .*worker/,
		);
		await refused(
			{ action: "run", goal: "g", tasks: [{ id: "a", agent: "worker", dependsOn: ["zzz"] }] },
			/dependsOn.*unknown task "zzz"/,
		);
		await refused({ action: "run", team: "solo" }, /field "goal"/);
		const teams = await team(host, { action: "teams" });
		assert.match(teams.text, /- solo \(single\)/);
		assert.match(teams.text, /Problems:\n.*broken\.md/);
		assert.deepEqual(await runIds(ws), [], "no run was created");
	});

	it("worktree mode: outside Git, with Git missing, and in a repository without a commit", async () => {
		await refused({ action: "run", team: "wt", goal: "g" }, /is not inside a Git working tree/);
		await refused(
			{ action: "run", team: "solo", goal: "g", workspaceMode: "worktree" },
			/not inside a Git working tree/,
		);
		const path = process.env.PATH;
		process.env.PATH = "/nonexistent";
		try {
			await refused({ action: "run", team: "wt", goal: "g" }, /git is not installed or not on PATH/);
		} finally {
			process.env.PATH = path;
		}
		const repo = gitRepo(join(ws, "..", "empty-repo"));
		await writeDefinitions(repo, { wt: `workspaceMode: worktree\n${WORKER_TEAM}` });
		const inRepo = await startHost({ cwd: repo, extensions: [CREW_EXTENSION] });
		try {
			const result = await team(inRepo, { action: "run", team: "wt", goal: "g" });
			assert.equal(result.isError, true);
			assert.match(result.text, /has no commit yet/);
			assert.deepEqual(await runIds(repo), []);
		} finally {
			await inRepo.dispose();
		}
		assert.deepEqual(await runIds(ws), []);
	});

	it("tool input: roots of another workspace, missing fields, unknown runs and agents", async () => {
		await refused({ action: "list", root: other }, /is workspace .*other, not this session's workspace/);
		const alias = join(ws, "..", "ws-alias");
		symlinkSync(ws, alias);
		assert.equal((await team(host, { action: "list", root: alias })).isError, false, "an alias of the workspace");
		await refused({ action: "steer-agent", agentId: "20250101-000000-000-00000000:x" }, /field "message"/);
		await refused({ action: "stop-agent" }, /field "agentId"/);
		await refused({ action: "cancel" }, /field "runId"/);
		await refused({ action: "retry" }, /retry: field "runId"/);
		await refused(
			{ action: "retry", runId: "20250101-000000-000-00000000", root: other },
			/not this session's workspace/,
		);
		await refused(
			{ action: "retry", runId: "20250101-000000-000-00000000", taskId: "a" },
			/No run 20250101-000000-000-00000000 in workspace/,
		);
		await refused(
			{ action: "status", runId: "20250101-000000-000-00000000" },
			/No run 20250101-000000-000-00000000 in workspace/,
		);
		await refused({ action: "status", runId: "../../etc" }, /not a run id: "\.\.\/\.\.\/etc"/);
		await refused({ action: "resume-agent", agentId: "nobody" }, /No live agent 'nobody' in workspace/);
		await refused({ action: "worktrees" }, /not inside a Git working tree/);
		const bogus = await host.runTools([{ name: "team", arguments: { action: "explode" } }], { allowErrors: true });
		assert.equal(bogus.toolResults[0]?.isError, true);
	});

	it("a run directory edited by hand is reported with the file and field, and stays byte for byte", async () => {
		const store = await RunStore.open(ws);
		const input = {
			ownerSessionId: host.sessionId(),
			team: "solo",
			goal: "edited by hand",
			workspaceMode: "single" as const,
			tasks: [{ id: "only", role: "w", agent: "worker" }],
		};
		const { manifest } = await store.createRun(input);
		const runId = manifest.runId;
		const tasksFile = store.files(runId).tasks;
		const edited = readFileSync(tasksFile, "utf8").replace('"status": "pending"', '"status": "sleeping"');
		writeFileSync(tasksFile, edited);
		await refused({ action: "status", runId }, /tasks\.json: field "tasks\[0\]\.status": expected one of pending/);
		await refused({ action: "cancel", runId }, /tasks\.json/);
		await refused({ action: "resume", runId }, /tasks\.json/);
		await refused({ action: "retry", runId }, /tasks\.json/);
		assert.match(
			await commandText(host, "/team list"),
			new RegExp(`${runId} {2}damaged: .*tasks\\.json`),
			"its owner sees it",
		);

		const second = (await store.createRun({ ...input, goal: "manifest torn" })).manifest.runId;
		const manifestFile = store.files(second).manifest;
		const torn = readFileSync(manifestFile, "utf8").slice(0, 40);
		writeFileSync(manifestFile, torn);
		await refused({ action: "status", runId: second }, /manifest\.json/);
		assert.doesNotMatch(await commandText(host, "/team list"), new RegExp(second), "an unknown owner: only with force");
		assert.match(await commandText(host, "/team list --force"), new RegExp(`${second} {2}damaged: .*manifest\\.json`));
		assert.equal(readFileSync(manifestFile, "utf8"), torn, "nothing was rewritten");
		assert.equal(readFileSync(tasksFile, "utf8"), edited, "nothing was rewritten");
	});

	it("/team command: unknown subcommands and flags, missing arguments", async () => {
		const error = async (line: string, pattern: RegExp) => {
			const result = await host.command(line);
			const [note] = result.notifications;
			assert.equal(note?.type, "error", `${line}: ${note?.message}`);
			assert.match(note?.message ?? "", pattern);
		};
		await error("/team explode", /unknown subcommand 'explode'. Use one of: teams, run, status, list/);
		await error("/team list --everything", /unknown flag --everything/);
		await error("/team run solo", /usage: \/team run <team> <goal…>/);
		await error("/team cancel", /usage: \/team cancel <runId>/);
		await error("/team cleanup --commit --discard", /--commit or --discard, not both/);
		await error("/team cleanup", /not inside a Git working tree/);
	});
});
