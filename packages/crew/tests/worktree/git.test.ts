import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { crewGitCommand } from "../../src/worktree/git.ts";
import {
	createTaskWorktree,
	isWorktreeError,
	listTaskWorktrees,
	parseTaskWorktreePath,
	taskBranchName,
	taskWorktreePath,
} from "../../src/worktree/index.ts";
import { parseMergeTree, parseWorktreeList } from "../../src/worktree/porcelain.ts";
import { git, RUN, repo, tempDir } from "./support/repo.ts";

test("git: every call carries the hardening, drops repository-locating variables, and keeps GIT_* out of caller env", () => {
	const saved = process.env.GIT_DIR;
	process.env.GIT_DIR = "/elsewhere/.git";
	try {
		const command = crewGitCommand("/repo", ["worktree", "add", "x"], {
			env: { GIT_CONFIG_PARAMETERS: "'core.hooksPath'='/evil'", PATH: "/custom/bin" },
			config: [["protocol.file.allow", "always"]],
		});
		const joined = command.args.join(" ");
		for (const flag of [
			"core.hooksPath=/dev/null",
			"core.fsmonitor=false",
			"protocol.allow=never",
			"credential.helper=",
			"submodule.recurse=false",
			"commit.gpgSign=false",
			"gc.auto=0",
		]) {
			assert.ok(joined.includes(`-c ${flag}`), flag);
		}
		assert.equal(command.env.GIT_CONFIG_COUNT, "1", "a call's own setting is forced through GIT_CONFIG_COUNT");
		assert.deepEqual([command.env.GIT_CONFIG_KEY_0, command.env.GIT_CONFIG_VALUE_0], ["protocol.file.allow", "always"]);
		assert.deepEqual(command.args.slice(-5), ["-C", "/repo", "worktree", "add", "x"]);
		assert.equal(command.env.GIT_DIR, undefined);
		assert.equal(command.env.GIT_CONFIG_PARAMETERS, undefined);
		assert.equal(command.env.LC_ALL, "C");
		assert.equal(command.env.PATH, "/custom/bin");
		assert.equal(command.env.GIT_TERMINAL_PROMPT, "0");
		assert.equal(command.env.GIT_CONFIG_NOSYSTEM, "1");
		assert.equal(command.env.GIT_LFS_SKIP_SMUDGE, "1");
	} finally {
		if (saved === undefined) delete process.env.GIT_DIR;
		else process.env.GIT_DIR = saved;
	}
});

test("git: a missing git binary is a clear git-missing error, by injected binary and with PATH emptied", async (t) => {
	const root = repo(t);
	for (const call of [
		() => createTaskWorktree({ cwd: root, runId: RUN, taskId: "t", gitBinary: join(root, "no-such-git") }),
		() => listTaskWorktrees(root, { env: { PATH: "" } }),
	]) {
		await assert.rejects(call(), (error: Error) => {
			assert.ok(isWorktreeError(error, "git-missing"));
			assert.match(error.message, /git is not installed or not on PATH/);
			return true;
		});
	}
	// The same in a process whose whole environment has no PATH, as on a machine without Git.
	const module = pathToFileURL(join(import.meta.dirname, "../../src/worktree/index.ts")).href;
	const script = `import { createTaskWorktree } from ${JSON.stringify(module)};
createTaskWorktree({ cwd: ${JSON.stringify(root)}, runId: ${JSON.stringify(RUN)}, taskId: "t" })
	.then(() => console.log("created"), (e) => console.log(JSON.stringify({ code: e.code, message: e.message })));`;
	const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
		env: { PATH: "" },
		encoding: "utf8",
	});
	const reported = JSON.parse(out) as { code: string; message: string };
	assert.equal(reported.code, "git-missing");
	assert.match(reported.message, /git is not installed or not on PATH/);
	assert.equal(git(root, "worktree", "list").trim().split("\n").length, 1, "nothing was created");
});

test("git: a hung git is killed after timeoutMs with an error saying so", async (t) => {
	const dir = tempDir(t);
	const slow = join(dir, "slow-git");
	writeFileSync(slow, "#!/bin/sh\nexec sleep 30\n", { mode: 0o755 });
	await assert.rejects(listTaskWorktrees(dir, { gitBinary: slow, timeoutMs: 300 }), (error: Error) => {
		assert.ok(isWorktreeError(error, "git-failed"));
		assert.match(error.message, /killed after 300 ms/);
		return true;
	});
});

test("layout: branch names are valid refs, folders are single segments, and paths parse back", () => {
	assert.equal(taskBranchName(RUN, "plan"), `crew/${RUN}-plan`);
	assert.equal(taskBranchName("r1", "phase.1..x.lock"), "crew/r1-phase-1-x-lock");
	for (const taskId of ["phase.1..x.lock", "A_b-c", "x.", "v1.2"]) {
		execFileSync("git", ["check-ref-format", "--branch", taskBranchName(RUN, taskId)]);
	}
	for (const bad of ["", ".", "..", "a/b", "a\\b", "-x", ".hidden", "a b", "x".repeat(129)]) {
		assert.throws(() => taskBranchName(RUN, bad), /task id/);
		assert.throws(() => taskWorktreePath("/r", RUN, bad), /task id/);
	}
	assert.equal(taskWorktreePath("/r", RUN, "t"), `/r/.worktrees/${RUN}/t`);
	assert.deepEqual(parseTaskWorktreePath("/r", `/r/.worktrees/${RUN}/t`), { runId: RUN, taskId: "t" });
	assert.equal(parseTaskWorktreePath("/r", "/r/.worktrees/x"), undefined);
	assert.equal(parseTaskWorktreePath("/r", "/r/elsewhere/a/b"), undefined);
	assert.equal(parseTaskWorktreePath("/r", "/r/.worktrees/a/b/c"), undefined);
});

test("porcelain: worktree list and merge-tree output parse as Git prints them", () => {
	const list = parseWorktreeList(
		"worktree /r\0HEAD abc\0branch refs/heads/main\0\0worktree /r/.worktrees/x/y\0HEAD def\0detached\0locked usb\0prunable gitdir file points to non-existent location\0\0",
	);
	assert.equal(list.length, 2);
	assert.deepEqual(
		[list[1]?.path, list[1]?.detached, list[1]?.branch, list[1]?.lockReason, list[1]?.prunable],
		["/r/.worktrees/x/y", true, null, "usb", true],
	);
	assert.deepEqual(
		parseMergeTree(
			[
				"tree1",
				"f",
				"g",
				"",
				"1",
				"f",
				"Auto-merging",
				"Auto-merging f\n",
				"1",
				"f",
				"CONFLICT (contents)",
				"CONFLICT (content): Merge conflict in f\n",
				"",
			].join("\0"),
		),
		{
			tree: "tree1",
			conflicts: ["f", "g"],
			messages: ["Auto-merging f", "CONFLICT (content): Merge conflict in f"],
		},
	);
	assert.deepEqual(parseMergeTree("tree2\0"), { tree: "tree2", conflicts: [], messages: [] });
});
