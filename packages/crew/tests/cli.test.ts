// `crew` without a model, on a real Git repository with runs made through the state layer and real task
// worktrees: list, status, worktrees and cleanup (dirty work kept or committed, a locked worktree refused, a
// missing one pruned, a working run's worktree left alone, a worktree of a deleted run cleaned), damaged runs,
// missing Git and usage errors, with their exit codes.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import {
	appendFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	realpathSync,
	rmSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { git, gitRepo } from "../../../test/e2e/support/workspaces.ts";
import { RunStore } from "../src/state/index.ts";
import { createTaskWorktree } from "../src/worktree/index.ts";
import { CREW_CLI } from "./extension/support/crew-world.ts";

let base: string;
let ws: string;
const ids: Record<string, string> = {};

function crew(
	args: string[],
	env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; out: string; err: string }> {
	return new Promise((done) => {
		execFile(process.execPath, [CREW_CLI, ...args], { cwd: ws, env, encoding: "utf8" }, (error, out, err) => {
			done({ code: error ? Number(error.code) : 0, out, err });
		});
	});
}

async function finishedRun(store: RunStore, session: string, tasks: string[]): Promise<string> {
	const { manifest } = await store.createRun({
		ownerSessionId: session,
		team: "t",
		goal: `goal of ${session}`,
		workspaceMode: "worktree",
		tasks: tasks.map((id) => ({ id, role: "w", agent: "worker" })),
	});
	await store.updateManifest(manifest.runId, { status: "running" });
	for (const id of tasks) {
		await store.updateTask(manifest.runId, id, { status: "running" });
		await store.updateTask(manifest.runId, id, { status: "done", result: `result of ${id}` });
	}
	await store.updateManifest(manifest.runId, { status: "done" });
	return manifest.runId;
}

before(async () => {
	base = realpathSync(mkdtempSync(join(tmpdir(), "crew-cli-")));
	ws = gitRepo(join(base, "repo"), { "a.ts": "export const a = 1;\n" }, { commit: true });
	const store = await RunStore.open(ws);
	ids.done = await finishedRun(store, "s1", ["dirty", "clean", "locked", "gone", "guarded"]);
	const { manifest } = await store.createRun({
		ownerSessionId: "s2",
		team: "t",
		goal: "still working",
		workspaceMode: "worktree",
		tasks: [{ id: "busy", role: "w", agent: "worker" }],
	});
	ids.working = manifest.runId;
	await store.updateManifest(ids.working, { status: "running" });
	const dead = await store.createRun({
		ownerSessionId: "s3",
		ownerPid: 2 ** 31 - 2,
		team: "t",
		goal: "owner died",
		workspaceMode: "single",
		tasks: [{ id: "x", role: "w", agent: "worker" }],
	});
	ids.dead = dead.manifest.runId;
	await store.updateManifest(ids.dead, { status: "running" });
	const make = (runId: string, taskId: string) => createTaskWorktree({ cwd: ws, runId, taskId });
	for (const task of ["dirty", "clean", "locked", "gone", "guarded"]) await make(ids.done, task);
	await make(ids.working, "busy");
	ids.orphan = "20200101-000000-000-0000dead";
	await make(ids.orphan, "left");
	writeFileSync(join(ws, ".worktrees", ids.done, "dirty", "work.md"), "uncommitted work\n");
	git(ws, "worktree", "lock", "--reason", "on a USB drive", join(ws, ".worktrees", ids.done, "locked"));
	writeFileSync(join(ws, ".worktrees", ids.done, "guarded", "a.ts"), "export const a = 2;\n");
	git(ws, "worktree", "lock", join(ws, ".worktrees", ids.done, "guarded"));
	rmSync(join(ws, ".worktrees", ids.done, "gone"), { recursive: true, force: true });
});

after(() => rmSync(base, { recursive: true, force: true }));

describe("crew CLI", () => {
	it("lists every session's runs, or one session's, as text and JSON", async () => {
		const text = await crew(["list"]);
		assert.equal(text.code, 0, text.err);
		assert.match(text.out, new RegExp(`${ids.done} {2}done {2}t {2}5/5 tasks done {2}worktree {2}goal of s1`));
		assert.match(text.out, new RegExp(`${ids.working} {2}running`));
		const json = JSON.parse((await crew(["list", "--json", "--session", "s1"])).out) as { runId: string }[];
		assert.deepEqual(
			json.map((r) => r.runId),
			[ids.done],
		);
	});

	it("shows a run's status, says when its owner died, and refuses unknown runs", async () => {
		const status = await crew(["status", ids.done ?? ""]);
		assert.equal(status.code, 0, status.err);
		assert.match(status.out, /- dirty \(w, agent worker\): done\n {2}result: result of dirty/);
		const dead = await crew(["status", ids.dead ?? "", "--json"]);
		assert.equal((JSON.parse(dead.out) as { ownerAlive: boolean }).ownerAlive, false);
		assert.match((await crew(["status", ids.dead ?? ""])).out, /its owner process is gone/);
		const unknown = await crew(["status", "20990101-000000-000-00000000"]);
		assert.equal(unknown.code, 2);
		assert.match(unknown.err, /No run 20990101-000000-000-00000000 in workspace/);
		assert.match((await crew(["status", "nope"])).err, /not a run id: "nope"/);
	});

	it("lists task worktrees and refuses without Git", async () => {
		const listed = await crew(["worktrees"]);
		assert.equal(listed.code, 0, listed.err);
		assert.match(listed.out, /\/dirty {2}crew\/\S+-dirty @ \w+ {2}run \S+ task dirty {2}dirty \(1 file\)/);
		assert.match(listed.out, /\/locked .*locked: on a USB drive/);
		const noGit = await crew(["worktrees"], { ...process.env, PATH: "/nonexistent" });
		assert.equal(noGit.code, 2);
		assert.match(noGit.err, /git is not installed or not on PATH/);
		const notRepo = await crew(["worktrees", "--root", base]);
		assert.equal(notRepo.code, 2);
		assert.match(notRepo.err, /not inside a Git working tree/);
	});

	it("cleans up without losing work: keeps dirty, refuses locked, prunes missing, leaves working runs alone", async () => {
		const first = await crew(["cleanup"]);
		assert.equal(first.code, 2, "a refused (locked) worktree makes the exit code 2");
		assert.match(first.out, /kept \.worktrees\/\S+\/dirty: it has uncommitted work in 1 file/);
		assert.match(first.out, /removed \.worktrees\/\S+\/clean\n {2}branch crew\/\S+-clean deleted/);
		assert.match(first.out, /error \.worktrees\/\S+\/locked: .*is locked \(on a USB drive\)/);
		assert.match(first.out, /pruned \.worktrees\/\S+\/gone/);
		assert.match(first.out, /removed \.worktrees\/20200101-000000-000-0000dead\/left/, "a deleted run's worktree");
		assert.doesNotMatch(first.out, /busy/, "a working run is left alone");
		assert.equal(
			readFileSync(join(ws, ".worktrees", ids.done ?? "", "dirty", "work.md"), "utf8"),
			"uncommitted work\n",
		);
		assert.ok(existsSync(join(ws, ".worktrees", ids.working ?? "", "busy")));

		const working = await crew(["cleanup", ids.working ?? ""]);
		assert.equal(working.code, 2);
		assert.match(working.err, /is still working; cancel it before cleaning up/);

		const committed = await crew(["cleanup", ids.done ?? "", "--commit", "--unlock", "--json"]);
		assert.equal(committed.code, 2, "the locked worktree with uncommitted work is refused");
		const outcomes = JSON.parse(committed.out) as {
			taskId: string;
			error?: string;
			result?: { action: string; committed?: { branch: string } };
		}[];
		assert.deepEqual(outcomes.map((o) => [o.taskId, o.result?.action ?? "refused"]).sort(), [
			["dirty", "removed"],
			["guarded", "refused"],
			["locked", "removed"],
		]);
		assert.match(
			outcomes.find((o) => o.taskId === "guarded")?.error ?? "",
			/locked, with uncommitted work in a\.ts; --unlock alone would discard it/,
		);
		assert.equal(
			readFileSync(join(ws, ".worktrees", ids.done ?? "", "guarded", "a.ts"), "utf8"),
			"export const a = 2;\n",
		);
		const branch = outcomes.find((o) => o.taskId === "dirty")?.result?.committed?.branch ?? "";
		assert.equal(git(ws, "show", `${branch}:work.md`), "uncommitted work\n", "the work is on the task branch");
	});

	it("usage errors exit with 2", async () => {
		for (const args of [
			["fly"],
			[],
			["status"],
			["cleanup", "--commit", "--discard"],
			["list", "--bogus"],
			["list", "extra"],
		]) {
			const result = await crew(args);
			assert.equal(result.code, 2, `${args.join(" ")}: ${result.out}${result.err}`);
		}
		assert.equal((await crew(["--help"])).code, 0);
	});

	it("a --root that is no directory is an input error: exit 2, said without the usage", async () => {
		writeFileSync(join(base, "a-file.txt"), "not a directory\n");
		for (const root of [join(base, "no-such-dir"), "/nonexistent", join(base, "a-file.txt")]) {
			for (const command of ["list", "worktrees"]) {
				const result = await crew([command, "--root", root]);
				assert.equal(result.code, 2, `${command} --root ${root}: ${result.out}${result.err}`);
				assert.equal(result.out, "");
				assert.match(result.err, /^crew: --root .+ (does not exist|is not a directory)/);
				assert.doesNotMatch(result.err, /usage:/);
			}
		}
	});

	it("help, --help and --version answer on stdout with exit 0", async () => {
		const help = await crew(["help"]);
		assert.equal(help.code, 0, help.err);
		assert.deepEqual(await crew(["--help"]), help, "help and --help agree");
		assert.match(help.out, /^usage:\n {2}crew list/);
		for (const verb of ["list", "status", "worktrees", "cleanup", "doctor"]) {
			assert.match(help.out, new RegExp(`\\n  ${verb} +\\S`), `a line saying what ${verb} does`);
		}
		assert.match(help.out, /--events N +status: how many of the last events to show \(default 10\)/);
		const version = await crew(["--version"]);
		assert.equal(version.code, 0, version.err);
		const { version: expected } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
		assert.equal(version.out, `crew ${expected}\n`);
	});

	it("a hand-edited run is reported with its file and field, and left as it is", async () => {
		const tasks = join(ws, ".pi", "crew", "runs", ids.dead ?? "", "tasks.json");
		const edited = readFileSync(tasks, "utf8").replace('"attempts": 0', '"attempts": "many"');
		writeFileSync(tasks, edited);
		const status = await crew(["status", ids.dead ?? ""]);
		assert.equal(status.code, 2);
		assert.match(status.err, /tasks\.json: field "tasks\[0\]\.attempts"/);
		assert.match((await crew(["list"])).out, new RegExp(`${ids.dead} {2}damaged: .*attempts`));
		assert.equal(readFileSync(tasks, "utf8"), edited);
	});

	it("cleanup keeps a worktree holding ignored files the task wrote and names them; --discard deletes them", async () => {
		const runId = await finishedRun(await RunStore.open(ws), "s4", ["env"]);
		const wt = await createTaskWorktree({ cwd: ws, runId, taskId: "env" });
		appendFileSync(join(ws, ".git", "info", "exclude"), ".env\nbuild/\n");
		writeFileSync(join(wt.path, ".env"), "TOKEN=only here\n");
		mkdirSync(join(wt.path, "build"));
		writeFileSync(join(wt.path, "build", "report.txt"), "report\n");
		const kept = await crew(["cleanup", runId]);
		assert.equal(kept.code, 0, kept.err);
		assert.match(
			kept.out,
			/kept \.worktrees\/\S+\/env: it holds 2 ignored file\(s\) the task wrote \(\.env, build\/\)/,
		);
		assert.match(kept.out, /\n {2}ignored files the task wrote, kept \(--discard deletes them\): \.env, build\/$/m);
		assert.equal(readFileSync(join(wt.path, ".env"), "utf8"), "TOKEN=only here\n", "nothing was deleted");
		const discarded = await crew(["cleanup", runId, "--discard"]);
		assert.equal(discarded.code, 0, discarded.err);
		assert.match(discarded.out, /removed \.worktrees\/\S+\/env\n {2}deleted ignored files: \.env, build\//);
		assert.equal(existsSync(wt.path), false);
	});
});
