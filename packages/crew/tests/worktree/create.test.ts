import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
	chmodSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
	cleanupTaskWorktree,
	createTaskWorktree,
	isWorktreeError,
	openRepository,
	taskBranchName,
	verifyTaskWorktree,
} from "../../src/worktree/index.ts";
import { commit, git, RUN, repo, snapshot, tempDir } from "./support/repo.ts";

test("create: path, branch, exclude entry, verified .git file, and a clean status in the main repository", async (t) => {
	const root = repo(t, { "src/a.ts": "export const a = 1;\n" });
	const before = snapshot(root);
	const wt = await createTaskWorktree({ cwd: join(root, "src"), runId: RUN, taskId: "implement" });
	assert.equal(wt.path, join(root, ".worktrees", RUN, "implement"));
	assert.equal(wt.branch, `crew/${RUN}-implement`);
	assert.equal(wt.head, before.head);
	assert.equal(wt.repoRoot, root);
	assert.deepEqual([wt.origin, wt.excludeAdded, wt.warnings], ["created", true, []]);
	assert.equal(readFileSync(join(wt.path, "src/a.ts"), "utf8"), "export const a = 1;\n");
	assert.equal(git(wt.path, "symbolic-ref", "--short", "HEAD").trim(), wt.branch);
	assert.equal(
		readFileSync(join(wt.path, ".git"), "utf8").trim(),
		`gitdir: ${join(root, ".git", "worktrees", "implement")}`,
	);
	assert.equal(git(wt.path, "rev-parse", "--show-toplevel").trim(), wt.path);
	assert.match(readFileSync(join(root, ".git/info/exclude"), "utf8"), /^\/\.worktrees\/$/m);
	const after = snapshot(root);
	assert.deepEqual({ ...after, refs: before.refs }, before, "main worktree, index and HEAD unchanged");
	assert.equal(after.refs, `refs/heads/${wt.branch} ${wt.head}\n${before.refs}`, "the one new ref is the task branch");

	const second = await createTaskWorktree({ repoRoot: root, runId: RUN, taskId: "review" });
	assert.equal(second.excludeAdded, false);
	const lines = readFileSync(join(root, ".git/info/exclude"), "utf8").split("\n");
	assert.equal(lines.filter((l) => l === "/.worktrees/").length, 1, "the exclude line is added once");
	assert.equal(git(root, "status", "--porcelain", "--untracked-files=all"), "");
});

test("create: no repository hook runs, neither from .git/hooks nor from core.hooksPath in the repo config", async (t) => {
	const root = repo(t);
	const marker = join(tempDir(t), "marker");
	const hook = `#!/bin/sh\necho ran >> ${marker}\n`;
	for (const dir of [join(root, ".git/hooks"), join(root, "my-hooks")]) {
		mkdirSync(dir, { recursive: true });
		for (const name of ["post-checkout", "reference-transaction", "post-index-change"]) {
			writeFileSync(join(dir, name), hook);
			chmodSync(join(dir, name), 0o755);
		}
	}
	git(root, "checkout", "-q", "-b", "probe"); // the hooks work when Git runs them normally
	assert.ok(existsSync(marker), "fixture check: the hook does run for a plain git checkout");
	rmSync(marker);
	git(root, "checkout", "-q", "main");
	rmSync(marker);
	git(root, "config", "core.hooksPath", join(root, "my-hooks"));
	const wt = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "t1" });
	assert.equal(wt.origin, "created");
	assert.equal(existsSync(marker), false, "no hook ran during worktree creation");
});

test("create: an existing branch is refused with its name, and nothing changes", async (t) => {
	const root = repo(t);
	const branch = taskBranchName(RUN, "plan");
	const tip = commit(root, { "x.txt": "x\n" });
	git(root, "branch", branch, "HEAD");
	const before = snapshot(root);
	await assert.rejects(createTaskWorktree({ cwd: root, runId: RUN, taskId: "plan" }), (error: Error) => {
		assert.ok(isWorktreeError(error, "branch-exists"));
		assert.match(error.message, new RegExp(branch.replaceAll("/", "\\/")));
		assert.match(error.message, /run 20250131-123456-789-0a1b2c3d, task plan/);
		return true;
	});
	assert.deepEqual(snapshot(root), before);
	assert.equal(git(root, "rev-parse", branch).trim(), tip);
	assert.equal(existsSync(join(root, ".worktrees", RUN, "plan")), false);
	assert.doesNotMatch(git(root, "worktree", "list"), /\.worktrees/);
});

test("create: the same task again reuses its verified worktree; a vanished folder is pruned and its branch reattached", async (t) => {
	const root = repo(t);
	const first = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "build" });
	const work = commit(first.path, { "work.txt": "task work\n" }, "task work");
	const again = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "build" });
	assert.deepEqual([again.origin, again.path, again.head], ["reused", first.path, work]);

	rmSync(first.path, { recursive: true, force: true });
	assert.match(git(root, "worktree", "list", "--porcelain"), /prunable/);
	const back = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "build" });
	assert.equal(back.origin, "reattached");
	assert.equal(back.head, work, "the branch's commits carry on");
	assert.equal(readFileSync(join(back.path, "work.txt"), "utf8"), "task work\n");
	assert.doesNotMatch(git(root, "worktree", "list", "--porcelain"), /prunable/);
});

test("create: a stale registration of another task is pruned, and a locked one makes a clear error", async (t) => {
	const root = repo(t);
	const other = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "other" });
	rmSync(other.path, { recursive: true, force: true });
	const fresh = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "fresh" });
	assert.equal(fresh.origin, "created");
	assert.doesNotMatch(git(root, "worktree", "list"), /other/, "the stale registration was dropped");

	git(root, "worktree", "lock", "--reason", "on a usb stick", fresh.path);
	await assert.rejects(createTaskWorktree({ cwd: root, runId: RUN, taskId: "fresh" }), (error: Error) => {
		assert.ok(isWorktreeError(error, "locked"));
		assert.match(error.message, /on a usb stick/);
		assert.ok(error.message.includes(fresh.path));
		return true;
	});
});

test("create: a smudge filter that would rewrite .git never runs; a rewritten .git file fails verification", async (t) => {
	const root = repo(t, { "x.txt": "x\n", ".gitattributes": "x.txt filter=evil\n" });
	// A hostile smudge filter (Git would run it at checkout inside the new worktree) pointing .git at the parent.
	git(root, "config", "filter.evil.smudge", `sh -c 'printf "gitdir: %s\\n" "${join(root, ".git")}" > .git; cat'`);
	const wt = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "t1" });
	assert.equal(readFileSync(join(wt.path, "x.txt"), "utf8"), "x\n");
	assert.match(readFileSync(join(wt.path, ".git"), "utf8"), /\.git\/worktrees\/t1/, "the filter did not run");

	writeFileSync(join(wt.path, ".git"), `gitdir: ${join(root, ".git")}\n`);
	await assert.rejects(verifyTaskWorktree(wt.path, await openRepository(root)), (error: Error) => {
		assert.ok(isWorktreeError(error, "verification-failed"), error.message);
		assert.ok(error.message.includes(wt.path));
		return true;
	});
});

test("create: submodules from a local path are initialized; a remote one is never fetched and gives a warning", async (t) => {
	const sub = repo(t, { "lib.txt": "library\n" }, "sub");
	const root = repo(t);
	git(root, "submodule", "add", "-q", sub, "vendor/lib");
	git(root, "commit", "-q", "-m", "add submodule");
	const wt = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "subs" });
	assert.deepEqual(wt.warnings, []);
	assert.equal(readFileSync(join(wt.path, "vendor/lib/lib.txt"), "utf8"), "library\n");

	git(root, "config", "-f", ".gitmodules", "submodule.remote.path", "vendor/remote");
	git(root, "config", "-f", ".gitmodules", "submodule.remote.url", "https://example.invalid/remote.git");
	git(root, "update-index", "--add", "--cacheinfo", `160000,${git(sub, "rev-parse", "HEAD").trim()},vendor/remote`);
	git(root, "add", ".gitmodules");
	git(root, "commit", "-q", "-m", "add remote submodule");
	const remote = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "remote" });
	assert.equal(remote.warnings.length, 1);
	assert.match(remote.warnings[0] ?? "", /never fetches/);
	assert.match(remote.warnings[0] ?? "", /not allowed/);
	assert.match(remote.warnings[0] ?? "", /submodule vendor\/remote/);
	assert.equal(readFileSync(join(remote.path, "vendor/lib/lib.txt"), "utf8"), "library\n");

	// Cleanup: a worktree with submodules is removed when nothing would be lost, and kept when a submodule holds
	// commits that exist only inside the worktree's own Git folder.
	assert.equal((await cleanupTaskWorktree({ path: remote.path })).action, "removed");
	commit(join(wt.path, "vendor/lib"), { "lib.txt": "changed in the task\n" });
	git(wt.path, "add", "vendor/lib");
	git(wt.path, "commit", "-q", "-m", "bump submodule");
	const kept = await cleanupTaskWorktree({ path: wt.path });
	assert.equal(kept.action, "kept");
	assert.match(kept.reason ?? "", /submodule vendor\/lib hold/);
	assert.ok(existsSync(join(wt.path, "vendor/lib/lib.txt")));
});

test("create: tasks prepared at the same time each get their worktree, and the exclude line is written once", async (t) => {
	const root = repo(t);
	const ids = ["a", "b", "c", "d"];
	const made = await Promise.all(ids.map((taskId) => createTaskWorktree({ cwd: root, runId: RUN, taskId })));
	assert.deepEqual(
		made.map((w) => w.origin),
		ids.map(() => "created"),
	);
	assert.equal(made.filter((w) => w.excludeAdded).length, 1);
	assert.equal(
		readFileSync(join(root, ".git/info/exclude"), "utf8")
			.split("\n")
			.filter((l) => l === "/.worktrees/").length,
		1,
	);
	assert.equal(git(root, "worktree", "list").trim().split("\n").length, 5);
});

test("create: bad input gives clear errors and creates nothing", async (t) => {
	const plain = tempDir(t);
	await assert.rejects(createTaskWorktree({ cwd: plain, runId: RUN, taskId: "t" }), (error: Error) => {
		assert.ok(isWorktreeError(error, "not-a-repository"));
		assert.ok(error.message.includes(plain) && error.message.includes("single"));
		return true;
	});
	const root = repo(t);
	for (const [runId, taskId] of [
		[RUN, "../escape"],
		[RUN, ".."],
		["a/b", "t"],
		[RUN, ""],
	] as const) {
		await assert.rejects(createTaskWorktree({ cwd: root, runId, taskId }), (e: Error) =>
			isWorktreeError(e, "invalid-input"),
		);
	}
	await assert.rejects(
		createTaskWorktree({ cwd: root, runId: RUN, taskId: "t", base: "--output=/tmp/x" }),
		/not a revision/,
	);
	await assert.rejects(
		createTaskWorktree({ cwd: root, runId: RUN, taskId: "t", base: "nope" }),
		/base nope names no commit/,
	);
	const empty = join(tempDir(t), "empty");
	mkdirSync(empty);
	git(empty, "init", "-q");
	await assert.rejects(createTaskWorktree({ cwd: empty, runId: RUN, taskId: "t" }), (e: Error) =>
		isWorktreeError(e, "no-commits"),
	);
	assert.doesNotMatch(git(root, "branch", "--list"), /crew\//);
});

test("create: a .worktrees symlink or tracked files there are refused", async (t) => {
	const elsewhere = tempDir(t);
	const linked = repo(t);
	symlinkSync(elsewhere, join(linked, ".worktrees"));
	await assert.rejects(createTaskWorktree({ cwd: linked, runId: RUN, taskId: "t" }), (e: Error) => {
		assert.ok(isWorktreeError(e, "unsafe-layout"));
		return /symbolic link/.test(e.message);
	});
	const tracked = repo(t, { ".worktrees/keep.txt": "mine\n" });
	await assert.rejects(createTaskWorktree({ cwd: tracked, runId: RUN, taskId: "t" }), /tracks files under \.worktrees/);
	assert.equal(readFileSync(join(tracked, ".worktrees/keep.txt"), "utf8"), "mine\n");
});

test("create: a symlink at the task folder is refused and nothing is checked out where it points", async (t) => {
	const root = repo(t);
	const outside = tempDir(t);
	mkdirSync(join(root, ".worktrees", RUN), { recursive: true });
	const leaf = join(root, ".worktrees", RUN, "t2");
	symlinkSync(outside, leaf);
	await assert.rejects(createTaskWorktree({ cwd: root, runId: RUN, taskId: "t2" }), (e: Error) => {
		assert.ok(isWorktreeError(e, "unsafe-layout"));
		assert.match(e.message, /symbolic link/);
		assert.ok(e.message.includes(leaf), "the error names the task folder");
		return true;
	});
	assert.deepEqual(readdirSync(outside), [], "nothing was written where the link points");
	assert.doesNotMatch(git(root, "worktree", "list"), /outside|\.worktrees/);
	assert.equal(git(root, "branch", "--list", "crew/*"), "");
});

test("create: a task folder turned into a symlink just before git worktree add is refused after it, leaving the target alone", async (t) => {
	const root = repo(t);
	const outside = tempDir(t);
	writeFileSync(join(outside, "mine.txt"), "user data\n");
	const target = join(outside, "target");
	const leaf = join(root, ".worktrees", RUN, "t3");
	// A git that plants the link at the last moment, as a racing process could after the lstat check.
	const racing = join(tempDir(t), "racing-git");
	const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
	writeFileSync(
		racing,
		`#!/bin/sh\ncase " $* " in *" worktree add "*) mkdir -p "${target}" && ln -s "${target}" "${leaf}";; esac\nexec "${realGit}" "$@"\n`,
		{ mode: 0o755 },
	);
	await assert.rejects(createTaskWorktree({ cwd: root, runId: RUN, taskId: "t3", gitBinary: racing }), (e: Error) => {
		assert.ok(isWorktreeError(e, "unsafe-layout"));
		assert.ok(e.message.includes(leaf) && e.message.includes(target), e.message);
		return true;
	});
	assert.equal(readFileSync(join(outside, "mine.txt"), "utf8"), "user data\n");
	assert.ok(existsSync(join(target, "README.md")), "what git checked out outside was not deleted");
	assert.equal(git(root, "worktree", "list").trim().split("\n").length, 1, "the registration was dropped");
	assert.equal(git(root, "branch", "--list", "crew/*"), "", "the new task branch was deleted");
});

test("create: an inherited GIT_DIR cannot send worktree commands to another repository", async (t) => {
	const root = repo(t);
	const decoy = repo(t, { "d.txt": "d\n" }, "decoy");
	const saved = process.env.GIT_DIR;
	process.env.GIT_DIR = join(decoy, ".git");
	t.after(() => {
		if (saved === undefined) delete process.env.GIT_DIR;
		else process.env.GIT_DIR = saved;
	});
	const wt = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "t" });
	delete process.env.GIT_DIR;
	assert.equal(wt.repoRoot, root);
	assert.equal(git(decoy, "branch", "--list", "crew/*"), "");
});
