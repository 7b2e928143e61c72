// Which repository Fovea's Git questions reach: a root's status probe speaks only of a repository the root holds
// itself, and an impact's changed files are the root's own, relative to it, wherever it sits in its worktree.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { git } from "../../../../../test/e2e/support/workspaces.ts";
import { changedFiles, gitState, statusSignature } from "../../../src/engine/git/probe.ts";
import { makeTempDir, removeTempDir, writeTree } from "../../support/temp-tree.ts";

const dirs: string[] = [];
after(async () => {
	for (const dir of dirs) await removeTempDir(dir);
});

/** A repository with two packages, committed, on branch `base`; then a change in each package and at the top. */
async function monorepo(): Promise<string> {
	const dir = await makeTempDir();
	dirs.push(dir);
	await writeTree(dir, {
		"README.md": "top\n",
		"packages/a/src/pay.ts": "export const pay = 1;\n",
		"packages/a/src/old name.ts": "export const moved = 1;\n",
		"packages/b/src/ship.ts": "export const ship = 1;\n",
	});
	git(dir, "init", "-q");
	git(dir, "add", "-A");
	git(dir, "commit", "-qm", "init");
	git(dir, "branch", "base");
	await writeTree(dir, {
		"README.md": "top, edited\n",
		"packages/a/src/pay.ts": "export const pay = 2;\n",
		"packages/a/src/new.ts": "export const fresh = 1;\n",
		"packages/b/src/ship.ts": "export const ship = 2;\n",
	});
	git(dir, "mv", "packages/a/src/old name.ts", "packages/a/src/new name.ts");
	return dir;
}

describe("Fovea's Git questions stay in their root", () => {
	it("an impact's changed files in a directory inside a worktree are that directory's, relative to it", async () => {
		const repo = await monorepo();
		const narrow = join(repo, "packages/a");
		assert.deepEqual((await changedFiles(narrow, { uncommitted: true })).sort(), [
			"src/new name.ts",
			"src/new.ts",
			"src/old name.ts",
			"src/pay.ts",
		]);
		git(repo, "add", "-A");
		git(repo, "commit", "-qm", "second");
		// A committed rename is named by its new path, as `git diff --name-only` finds it.
		assert.deepEqual((await changedFiles(narrow, { base: "base" })).sort(), [
			"src/new name.ts",
			"src/new.ts",
			"src/pay.ts",
		]);
		// At the top, the same questions name every file, as before.
		assert.deepEqual((await changedFiles(repo, { base: "base" })).sort(), [
			"README.md",
			"packages/a/src/new name.ts",
			"packages/a/src/new.ts",
			"packages/a/src/pay.ts",
			"packages/b/src/ship.ts",
		]);
	});

	it("a status probe refuses a root without its own .git instead of reading the repository around it", async () => {
		const repo = await monorepo();
		// A directory inside the worktree: probed, it would be answered with the whole repository's dirty paths.
		await assert.rejects(gitState(join(repo, "packages/a")), /not a git repository/);
		// A nested repository whose .git was removed: Git would find the outer one.
		const inner = join(repo, "packages/b");
		git(inner, "init", "-q");
		assert.equal((await gitState(inner)).head, "(initial)", "its own repository, while it has one");
		rmSync(join(inner, ".git"), { recursive: true, force: true });
		await assert.rejects(statusSignature(inner), /not a git repository/);
		// The top of the worktree is probed as before.
		assert.ok((await gitState(repo)).dirty.includes("README.md"));
	});

	it("a directory in no worktree has no changed files to ask for: a clear error", async () => {
		const dir = await makeTempDir();
		dirs.push(dir);
		await assert.rejects(changedFiles(dir, { uncommitted: true }), /in no Git worktree/);
		await assert.rejects(changedFiles(dir, { base: "main" }), /in no Git worktree/);
	});
});
