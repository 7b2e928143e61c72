// Refusals are clear errors: conflicts, a repository that moves mid-snapshot, bad or unknown bases, a deleted
// root, no repository, a bare repository, a partial clone, missing objects, and a file that changed since the
// snapshot. A linked worktree is an ordinary root.

import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
	ConflictError,
	type ContentRequest,
	RepositoryMovedError,
	readSides,
	takeSnapshot,
} from "../../src/git/index.ts";
import { cleanup, commitAll, git, repo, tempDir, write } from "./support.ts";

after(cleanup);

function conflicted(): string {
	const dir = repo({ "a.ts": "a\n", "b.ts": "b\n" }, { commit: true });
	git(dir, "checkout", "-q", "-b", "side");
	write(dir, { "a.ts": "side\n" });
	commitAll(dir);
	git(dir, "checkout", "-q", "main");
	write(dir, { "a.ts": "main\n" });
	commitAll(dir);
	assert.throws(() => git(dir, "merge", "-q", "side"));
	return dir;
}

function objectPath(dir: string, oid: string): string {
	return join(dir, ".git", "objects", oid.slice(0, 2), oid.slice(2));
}

describe("refusals", () => {
	it("conflicts are an error naming the conflicted paths, for the staged and working-tree targets", async () => {
		const dir = conflicted();
		for (const target of ["staged", "working-tree"] as const) {
			const error = await takeSnapshot({ root: dir, target }).catch((e: unknown) => e);
			assert.ok(error instanceof ConflictError, target);
			assert.deepEqual(error.paths, ["a.ts"]);
			assert.match(error.message, /unresolved merge conflicts in a\.ts/);
		}
		// A branch review compares commits only; the unmerged index does not matter to it.
		git(dir, "branch", "-q", "base", "HEAD~1");
		const branch = await takeSnapshot({ root: dir, target: "branch", base: "base" });
		assert.deepEqual(
			branch.changes.map((c) => c.path),
			["a.ts"],
		);
	});

	it("HEAD or the index moving mid-snapshot is a RepositoryMovedError", async () => {
		const dir = repo({ "a.ts": "a\n" }, { commit: true });
		write(dir, { "a.ts": "a2\n" });
		const commit = takeSnapshot({ root: dir, target: "working-tree", onBetweenReads: () => void commitAll(dir) });
		await assert.rejects(commit, (error: unknown) => {
			assert.ok(error instanceof RepositoryMovedError);
			assert.match(error.message, /changed while it was being snapshotted \(HEAD \w+ → \w+/);
			assert.match(error.message, /take the snapshot again/);
			return true;
		});
		write(dir, { "b.ts": "b\n" });
		const stage = takeSnapshot({ root: dir, onBetweenReads: () => void git(dir, "add", "b.ts") });
		await assert.rejects(stage, /the index was rewritten/);
		const checkout = takeSnapshot({ root: dir, onBetweenReads: () => void git(dir, "checkout", "-q", "-b", "other") });
		await assert.rejects(checkout, /branch main → other/);
		// Nothing moving, the same snapshot succeeds.
		assert.equal((await takeSnapshot({ root: dir })).branch, "other");
	});

	it("bases: unknown, unrelated, option-like, missing or out of place are clear errors", async () => {
		const dir = repo({ "a.ts": "a\n" }, { commit: true });
		await assert.rejects(takeSnapshot({ root: dir, target: "branch", base: "nope" }), /unknown base "nope"/);
		await assert.rejects(takeSnapshot({ root: dir, target: "branch", base: "--output=/tmp/x" }), /not a usable base/);
		await assert.rejects(takeSnapshot({ root: dir, target: "branch", base: "a\nb" }), /not a usable base/);
		await assert.rejects(takeSnapshot({ root: dir, target: "branch" }), /needs a base/);
		await assert.rejects(takeSnapshot({ root: dir, base: "main" }), /only for a branch review/);
		await assert.rejects(
			takeSnapshot({ root: dir, target: "everything" as "staged" }),
			/unknown snapshot target "everything"/,
		);
		git(dir, "checkout", "-q", "--orphan", "island");
		write(dir, { "i.ts": "i\n" });
		commitAll(dir);
		await assert.rejects(takeSnapshot({ root: dir, target: "branch", base: "main" }), /no common ancestor/);
	});

	it("a deleted root, a file, a non-repository and a bare repository are refused", async () => {
		const dir = repo({ "a.ts": "a\n" }, { commit: true });
		rmSync(dir, { recursive: true });
		await assert.rejects(takeSnapshot({ root: dir }), /does not exist \(was the root deleted or moved\?\)/);
		const plain = tempDir();
		writeFileSync(join(plain, "f.ts"), "f\n");
		await assert.rejects(takeSnapshot({ root: plain }), /is not inside a Git repository/);
		await assert.rejects(takeSnapshot({ root: join(plain, "f.ts") }), /is not a directory/);
		const bare = tempDir();
		git(bare, "init", "-q", "--bare");
		await assert.rejects(takeSnapshot({ root: bare }), /bare repository or a Git directory/);
		const inside = repo({ "a.ts": "a\n" }, { commit: true });
		await assert.rejects(takeSnapshot({ root: join(inside, ".git") }), /no worktree to review/);
	});

	it("a partial clone is refused before any object is read", async () => {
		for (const [key, value] of [
			["remote.origin.promisor", "true"],
			["extensions.partialclone", "origin"],
		] as const) {
			const dir = repo({ "a.ts": "a\n" }, { commit: true });
			git(dir, "config", key, value);
			await assert.rejects(takeSnapshot({ root: dir }), /is a partial clone .*it is not analysed/);
		}
		const dir = repo({ "a.ts": "a\n" }, { commit: true });
		git(dir, "config", "remote.origin.promisor", "false");
		assert.deepEqual((await takeSnapshot({ root: dir })).changes, []);
	});

	it("a missing object is an error naming it and its path, at snapshot and at read time", async () => {
		const dir = repo({ "a.ts": "a\n" }, { commit: true });
		write(dir, { "a.ts": "a, staged\n" });
		git(dir, "add", "a.ts");
		const snapshot = await takeSnapshot({ root: dir });
		const staged = snapshot.changes[0]?.after?.oid as string;
		rmSync(objectPath(dir, staged));
		await assert.rejects(takeSnapshot({ root: dir }), new RegExp(`object ${staged} \\(a\\.ts\\) is missing`));
		const requests: ContentRequest[] = [{ path: "a.ts", side: snapshot.changes[0]?.after as ContentRequest["side"] }];
		await assert.rejects(readSides(snapshot, requests), new RegExp(`object ${staged} \\(a\\.ts\\) is missing`));
	});

	it("a worktree file that changed after its snapshot is an error, never the wrong bytes", async () => {
		const dir = repo({ "a.ts": "a\n" }, { commit: true });
		write(dir, { "a.ts": "a2\n" });
		const snapshot = await takeSnapshot({ root: dir, target: "working-tree" });
		write(dir, { "a.ts": "a3\n" });
		const requests: ContentRequest[] = [{ path: "a.ts", side: snapshot.changes[0]?.after as ContentRequest["side"] }];
		await assert.rejects(readSides(snapshot, requests), /a\.ts .* changed since the snapshot was taken/);
	});

	it("an aborted snapshot rejects", async () => {
		const dir = repo({ "a.ts": "a\n" }, { commit: true });
		await assert.rejects(takeSnapshot({ root: dir, signal: AbortSignal.abort() }), /abort/i);
	});
});

describe("layouts", () => {
	it("a linked worktree is its own root with its own HEAD and index", async () => {
		const dir = repo({ "a.ts": "a\n" }, { commit: true });
		const linked = join(tempDir(), "linked");
		git(dir, "worktree", "add", "-q", "-b", "wt", linked);
		write(linked, { "a.ts": "in linked\n" });
		git(linked, "add", "a.ts");
		const snapshot = await takeSnapshot({ root: linked });
		assert.equal(snapshot.root, linked);
		assert.equal(snapshot.branch, "wt");
		assert.deepEqual(
			snapshot.changes.map((c) => c.path),
			["a.ts"],
		);
		assert.deepEqual((await takeSnapshot({ root: dir })).changes, []);
	});
});
