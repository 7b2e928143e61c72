import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createTaskWorktree, isWorktreeError, mergeBack, previewMerge } from "../../src/worktree/index.ts";
import { commit, git, RUN, repo, snapshot } from "./support/repo.ts";

/** A repository whose task branch changed `shared.txt` and added `task.txt`. */
async function fixture(t: Parameters<typeof repo>[0]) {
	const root = repo(t, { "shared.txt": "1\n2\n3\n", "other.txt": "o\n" });
	const wt = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "impl" });
	commit(wt.path, { "shared.txt": "1\nTASK\n3\n", "task.txt": "task\n" }, "task work");
	return { root, wt };
}

test("previewMerge: a clean merge is reported with its files, and nothing in the repository changes", async (t) => {
	const { root, wt } = await fixture(t);
	commit(root, { "other.txt": "main moved on\n" });
	writeFileSync(join(root, "other.txt"), "uncommitted\n");
	const before = snapshot(root);
	const worktreeBefore = snapshot(wt.path);
	const preview = await previewMerge({ cwd: root, branch: wt.branch });
	assert.equal(preview.clean, true);
	assert.deepEqual(preview.conflicts, []);
	assert.equal(preview.into, "main");
	assert.equal(preview.commits, 1);
	assert.deepEqual(preview.changedFiles, ["shared.txt", "task.txt"]);
	assert.deepEqual(snapshot(root), before, "status, index, HEAD and refs of the main worktree are unchanged");
	assert.deepEqual(snapshot(wt.path), worktreeBefore, "the task worktree is unchanged");
});

test("previewMerge: conflicts are listed without touching the worktree, index or HEAD", async (t) => {
	const { root, wt } = await fixture(t);
	commit(root, { "shared.txt": "1\nMAIN\n3\n" });
	const before = snapshot(root);
	const preview = await previewMerge({ repoRoot: root, branch: wt.branch, into: "main" });
	assert.equal(preview.clean, false);
	assert.deepEqual(preview.conflicts, ["shared.txt"]);
	assert.ok(preview.messages.some((m) => /CONFLICT \(content\): Merge conflict in shared\.txt/.test(m)));
	assert.deepEqual(snapshot(root), before);
	assert.equal(readFileSync(join(root, "shared.txt"), "utf8"), "1\nMAIN\n3\n");
});

test("mergeBack: refuses on conflicts and on a dirty target, touching nothing; merges a clean branch with no hook", async (t) => {
	const { root, wt } = await fixture(t);
	const mainMove = commit(root, { "shared.txt": "1\nMAIN\n3\n" });
	let before = snapshot(root);
	await assert.rejects(mergeBack({ cwd: root, branch: wt.branch }), (error: Error) => {
		assert.ok(isWorktreeError(error, "conflicts"));
		assert.ok(error.message.includes("shared.txt") && error.message.includes(wt.branch));
		return true;
	});
	assert.deepEqual(snapshot(root), before);

	git(root, "reset", "-q", "--hard", `${mainMove}~1`);
	writeFileSync(join(root, "other.txt"), "work in progress\n");
	before = snapshot(root);
	await assert.rejects(mergeBack({ cwd: root, branch: wt.branch }), (error: Error) => {
		assert.ok(isWorktreeError(error, "dirty"));
		assert.ok(error.message.includes("other.txt") && error.message.includes(root));
		return true;
	});
	assert.deepEqual(snapshot(root), before);

	git(root, "checkout", "-q", "--", "other.txt");
	const marker = join(root, "hook-ran");
	for (const hook of ["pre-merge-commit", "commit-msg", "post-merge"]) {
		writeFileSync(join(root, ".git/hooks", hook), `#!/bin/sh\ntouch ${marker}\nexit 1\n`, { mode: 0o755 });
	}
	const result = await mergeBack({ cwd: root, branch: wt.branch });
	assert.equal(result.merged, true);
	assert.equal(result.worktree, root);
	assert.equal(git(root, "rev-parse", "HEAD").trim(), result.commit);
	assert.equal(git(root, "rev-list", "--parents", "-1", "HEAD").trim().split(" ").length, 3, "a merge commit");
	assert.equal(readFileSync(join(root, "task.txt"), "utf8"), "task\n");
	assert.equal(readFileSync(join(root, "shared.txt"), "utf8"), "1\nTASK\n3\n");
	assert.equal(git(root, "status", "--porcelain"), "");
	assert.equal(readFileSync(join(root, ".git/hooks/post-merge"), "utf8").includes("touch"), true);
	assert.throws(() => readFileSync(marker), "no hook ran");

	const again = await mergeBack({ cwd: root, branch: wt.branch });
	assert.deepEqual([again.merged, again.preview.commits], [false, 0], "nothing left to merge");
	await assert.rejects(mergeBack({ cwd: root, branch: "crew/nope" }), /branch crew\/nope does not exist/);
	await assert.rejects(mergeBack({ cwd: root, branch: wt.branch, into: "elsewhere" }), /elsewhere does not exist/);
});
