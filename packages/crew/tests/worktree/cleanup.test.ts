import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
	cleanupTaskWorktree,
	createTaskWorktree,
	formatTaskWorktrees,
	isWorktreeError,
	listTaskWorktrees,
} from "../../src/worktree/index.ts";
import { commit, git, noIdentity, RUN, repo, snapshot } from "./support/repo.ts";

const branchList = (root: string) => git(root, "branch", "--list", "crew/*", "--format=%(refname:short)").trim();

test("cleanup: a clean, unmoved worktree is removed with its branch; one with commits keeps its branch", async (t) => {
	const root = repo(t);
	const before = snapshot(root);
	const idle = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "idle" });
	const done = await cleanupTaskWorktree({ path: idle.path });
	assert.deepEqual([done.action, done.branchDeleted, done.dirtyFiles], ["removed", true, []]);
	assert.equal(existsSync(idle.path), false);
	assert.deepEqual(snapshot(root), before);

	const busy = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "busy" });
	const work = commit(busy.path, { "feature.txt": "feature\n" });
	const kept = await cleanupTaskWorktree({ path: busy.path });
	assert.equal(kept.action, "removed");
	assert.equal(kept.branchDeleted, false);
	assert.match(kept.branchKeptReason ?? "", /commits that are on no other branch/);
	assert.equal(kept.mergeCommand, `git merge --no-ff ${busy.branch}`);
	assert.equal(git(root, "rev-parse", busy.branch).trim(), work);

	await assert.rejects(createTaskWorktree({ cwd: root, runId: RUN, taskId: "busy" }), (e: Error) =>
		isWorktreeError(e, "branch-exists"),
	);

	const landed = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "landed" });
	commit(landed.path, { "landed.txt": "landed\n" });
	git(root, "merge", "-q", "--no-ff", "-m", "merge", landed.branch);
	const merged = await cleanupTaskWorktree({ path: landed.path });
	assert.equal(merged.branchDeleted, true, "a fully merged branch is deleted");
	assert.equal(merged.mergeCommand, undefined);
	assert.equal(branchList(root), busy.branch);
});

test("cleanup: a dirty worktree is kept and reported by default, and removed with force", async (t) => {
	const root = repo(t, { "a.txt": "a\n" });
	const wt = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "dirty" });
	writeFileSync(join(wt.path, "a.txt"), "changed\n");
	writeFileSync(join(wt.path, "new.txt"), "new\n");
	const kept = await cleanupTaskWorktree({ path: wt.path });
	assert.equal(kept.action, "kept");
	assert.deepEqual(kept.dirtyFiles.sort(), ["a.txt", "new.txt"]);
	assert.match(kept.reason ?? "", /uncommitted work in 2 file/);
	assert.equal(readFileSync(join(wt.path, "a.txt"), "utf8"), "changed\n", "nothing was touched");
	assert.equal(branchList(root), wt.branch);

	const forced = await cleanupTaskWorktree({ path: wt.path, force: true });
	assert.equal(forced.action, "removed");
	assert.deepEqual(forced.discarded.sort(), ["a.txt", "new.txt"]);
	assert.equal(forced.branchDeleted, true);
	assert.equal(existsSync(wt.path), false);
});

test("cleanup: commitDirty commits the work to the task branch (no hook, fallback identity) and gives the merge command", async (t) => {
	const root = repo(t, { "a.txt": "a\n" });
	const options = noIdentity(t);
	const wt = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "save", ...options });
	writeFileSync(join(wt.path, "a.txt"), "changed\n");
	writeFileSync(join(wt.path, "new.txt"), "new\n");
	const marker = join(root, "hook-ran");
	writeFileSync(join(root, ".git/hooks/pre-commit"), `#!/bin/sh\ntouch ${marker}\nexit 1\n`, { mode: 0o755 });
	const result = await cleanupTaskWorktree({ path: wt.path, commitDirty: true, ...options });
	assert.equal(result.action, "removed");
	assert.equal(existsSync(wt.path), false);
	assert.equal(existsSync(marker), false, "the pre-commit hook did not run");
	const saved = result.committed;
	assert.ok(saved);
	assert.equal(saved.branch, wt.branch);
	assert.equal(saved.mergeCommand, `git merge --no-ff ${wt.branch}`);
	assert.deepEqual(saved.files.sort(), ["a.txt", "new.txt"]);
	assert.equal(git(root, "rev-parse", wt.branch).trim(), saved.commit);
	assert.equal(git(root, "show", `${saved.commit}:a.txt`), "changed\n");
	assert.equal(git(root, "show", `${saved.commit}:new.txt`), "new\n");
	assert.equal(git(root, "log", "-1", "--format=%an <%ae>", saved.commit).trim(), "pi-crew <pi-crew@localhost>");
	assert.equal(result.branchDeleted, false);
	git(root, ...saved.mergeCommand.split(" ").slice(1), "-q", "-m", "bring it in");
	assert.equal(readFileSync(join(root, "new.txt"), "utf8"), "new\n", "the recorded command merges the work");
});

test("cleanup: ignored files the task wrote keep the worktree (named, bounded) until force", async (t) => {
	const root = repo(t, { "a.txt": "a\n", ".gitignore": ".env\nbuild/\n*.log\n" });
	writeFileSync(join(root, ".env"), "the main checkout's own\n");
	const fresh = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "fresh" });
	const untouched = await cleanupTaskWorktree({ path: fresh.path });
	assert.deepEqual([untouched.action, untouched.ignored.count], ["removed", 0], "a checkout writes no ignored file");

	const wt = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "secrets" });
	writeFileSync(join(wt.path, ".env"), "TOKEN=only here\n");
	mkdirSync(join(wt.path, "build"));
	writeFileSync(join(wt.path, "build", "report.txt"), "report\n");
	for (let i = 0; i < 25; i++) writeFileSync(join(wt.path, `run-${String(i).padStart(2, "0")}.log`), "x\n");
	const kept = await cleanupTaskWorktree({ path: wt.path });
	assert.equal(kept.action, "kept");
	assert.deepEqual(kept.dirtyFiles, [], "ignored files are not uncommitted work");
	assert.equal(kept.ignored.count, 27);
	assert.equal(kept.ignored.named.length, 20, "bounded");
	assert.deepEqual(kept.ignored.named.slice(0, 3), [".env", "build/", "run-00.log"], "a folder ignored whole is one");
	assert.match(kept.reason ?? "", /27 ignored file\(s\) the task wrote \(\.env, build\/, .*, … and 7 more\)/);
	assert.equal(readFileSync(join(wt.path, "build", "report.txt"), "utf8"), "report\n", "nothing was deleted");

	writeFileSync(join(wt.path, "a.txt"), "changed\n");
	const committed = await cleanupTaskWorktree({ path: wt.path, commitDirty: true });
	assert.equal(committed.action, "kept", "committing the work does not take the ignored files");
	assert.equal(git(root, "show", `${committed.committed?.commit}:a.txt`), "changed\n");
	assert.equal(readFileSync(join(wt.path, ".env"), "utf8"), "TOKEN=only here\n");

	const discarded = await cleanupTaskWorktree({ path: wt.path, force: true });
	assert.equal(discarded.action, "removed");
	assert.equal(discarded.ignored.count, 27, "what went with it is listed");
	assert.equal(existsSync(wt.path), false);
	assert.equal(readFileSync(join(root, ".env"), "utf8"), "the main checkout's own\n");
});

test("cleanup: a locked worktree is an error unless forceLocked; a missing folder is pruned; unknown paths are refused", async (t) => {
	const root = repo(t);
	const wt = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "locked" });
	git(root, "worktree", "lock", "--reason", "in use", wt.path);
	for (const force of [false, true]) {
		await assert.rejects(cleanupTaskWorktree({ path: wt.path, force }), (error: Error) => {
			assert.ok(isWorktreeError(error, "locked"));
			assert.ok(error.message.includes(wt.path) && error.message.includes("in use"));
			return true;
		});
	}
	assert.ok(existsSync(wt.path));
	// Unlocking alone never discards work: a dirty locked worktree is kept, or committed with commitDirty.
	writeFileSync(join(wt.path, "work.txt"), "unsaved\n");
	const kept = await cleanupTaskWorktree({ path: wt.path, forceLocked: true });
	assert.deepEqual([kept.action, kept.discarded], ["kept", []]);
	assert.equal(readFileSync(join(wt.path, "work.txt"), "utf8"), "unsaved\n");
	const committed = await cleanupTaskWorktree({ path: wt.path, forceLocked: true, commitDirty: true });
	assert.equal(committed.action, "removed");
	assert.equal(git(root, "show", `${committed.committed?.commit}:work.txt`), "unsaved\n");

	const gone = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "gone" });
	rmSync(gone.path, { recursive: true, force: true });
	const pruned = await cleanupTaskWorktree({ path: gone.path });
	assert.deepEqual([pruned.action, pruned.branchDeleted], ["pruned", true]);
	assert.doesNotMatch(git(root, "worktree", "list"), /gone/);

	await assert.rejects(cleanupTaskWorktree({ path: gone.path }), (e: Error) => isWorktreeError(e, "not-registered"));
	await assert.rejects(cleanupTaskWorktree({ path: join(root, "src") }), (e: Error) =>
		isWorktreeError(e, "invalid-input"),
	);
});

test("list: task worktrees with branch, ids, dirty, locked and stale state, and a readable rendering", async (t) => {
	const root = repo(t);
	const clean = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "clean" });
	const dirty = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "dirty" });
	const locked = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "locked" });
	const stale = await createTaskWorktree({ cwd: root, runId: "20250201-000000-000-00000000", taskId: "stale" });
	git(root, "worktree", "add", "-q", "-b", "users-own", join(root, "..", "users-own"));
	writeFileSync(join(dirty.path, "scratch.txt"), "x\n");
	git(root, "worktree", "lock", "--reason", "busy", locked.path);
	rmSync(stale.path, { recursive: true, force: true });

	const entries = await listTaskWorktrees(root);
	assert.deepEqual(
		entries.map((e) => [e.taskId, e.branch, e.dirty, e.locked, e.prunable, e.exists]),
		[
			["clean", clean.branch, false, false, false, true],
			["dirty", dirty.branch, true, false, false, true],
			["locked", locked.branch, false, true, false, true],
			["stale", stale.branch, null, false, true, false],
		],
		"the user's own worktree outside .worktrees/ is not listed",
	);
	assert.deepEqual(entries[1]?.dirtyFiles, ["scratch.txt"]);
	assert.equal(entries[0]?.runId, RUN);
	assert.equal(entries[0]?.head, clean.head);
	assert.equal((await listTaskWorktrees(root, { runId: RUN })).length, 3);
	const text = formatTaskWorktrees(entries, root);
	assert.match(
		text,
		new RegExp(
			`\\.worktrees/${RUN}/dirty  crew/${RUN}-dirty @ [0-9a-f]{12}  run ${RUN} task dirty  dirty \\(1 file\\)`,
		),
	);
	assert.match(text, /locked: busy/);
	assert.match(text, /stale/);
	assert.equal(formatTaskWorktrees([], root), "No task worktrees.");
});
