// Snapshots of real repositories: the three targets on one repository with partial staging, an unborn HEAD, a
// detached HEAD, deletions and renames, and the work counts of a no-change pass.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
	type ChangedFile,
	gitBlobOid,
	newGitWork,
	ObjectReaders,
	readSides,
	type Snapshot,
	takeSnapshot,
} from "../../src/git/index.ts";
import { cleanup, commitAll, git, repo, stageContent, write } from "./support.ts";

after(cleanup);

const byPath = (snapshot: Snapshot) => new Map(snapshot.changes.map((change) => [change.path, change]));
const summary = (snapshot: Snapshot) =>
	snapshot.changes.map((c) => `${c.status} ${c.oldPath ? `${c.oldPath} -> ` : ""}${c.path}`);
const hashObject = (dir: string, path: string) =>
	execFileSync("git", ["hash-object", "--", path], { cwd: dir, encoding: "utf8" }).trim();

function partiallyStaged(): string {
	const dir = repo(
		{ "a.ts": "one\ntwo\nthree\n", "b.ts": "export const b = 1;\n", "c.ts": "export const c = 1;\n" },
		{ commit: true },
	);
	write(dir, { "a.ts": "ONE\ntwo\nTHREE\n", "c.ts": "export const c = 2;\n", "d.ts": "export const d = 1;\n" });
	git(dir, "add", "c.ts", "d.ts");
	stageContent(dir, "a.ts", "ONE\ntwo\nthree\n");
	rmSync(join(dir, "b.ts"));
	write(dir, { "e.ts": "export const e = 1;\n" });
	return dir;
}

describe("snapshot targets", () => {
	it("staged is HEAD→index: the staged hunk only, no worktree deletion, no untracked file", async () => {
		const dir = partiallyStaged();
		const snapshot = await takeSnapshot({ root: dir });
		assert.equal(snapshot.target, "staged");
		assert.equal(snapshot.root, dir);
		assert.equal(snapshot.branch, "main");
		assert.equal(snapshot.head, git(dir, "rev-parse", "HEAD").trim());
		assert.deepEqual(summary(snapshot), ["modified a.ts", "modified c.ts", "added d.ts"]);
		const a = byPath(snapshot).get("a.ts") as ChangedFile;
		assert.equal(a.after?.source, "index");
		assert.equal(a.before?.source, "commit");
		assert.equal(a.after?.oid, gitBlobOid(Buffer.from("ONE\ntwo\nthree\n")));
		assert.equal(a.after?.bytes, 14);
		assert.equal(a.before?.mode, "100644");
		const [before, staged] = await readSides(snapshot, [
			{ path: "a.ts", side: a.before as NonNullable<ChangedFile["before"]> },
			{ path: "a.ts", side: a.after as NonNullable<ChangedFile["after"]> },
		]);
		assert.deepEqual(before, { kind: "text", text: "one\ntwo\nthree\n", oid: a.before?.oid, bytes: 14 });
		assert.equal(staged?.kind === "text" && staged.text, "ONE\ntwo\nthree\n");
	});

	it("working-tree is HEAD→worktree: unstaged hunks, deletions and untracked files too", async () => {
		const dir = partiallyStaged();
		const snapshot = await takeSnapshot({ root: dir, target: "working-tree" });
		assert.deepEqual(summary(snapshot), ["modified a.ts", "deleted b.ts", "modified c.ts", "added d.ts", "added e.ts"]);
		const changes = byPath(snapshot);
		const a = changes.get("a.ts") as ChangedFile;
		assert.equal(a.after?.source, "worktree");
		assert.equal(a.after?.oid, hashObject(dir, "a.ts"));
		// A file the worktree holds exactly as staged is named by its index side.
		assert.equal(changes.get("c.ts")?.after?.source, "index");
		assert.equal(changes.get("e.ts")?.after?.source, "worktree");
		assert.equal(changes.get("b.ts")?.after, undefined);
		const [text] = await readSides(snapshot, [{ path: "a.ts", side: a.after as NonNullable<ChangedFile["after"]> }]);
		assert.equal(text?.kind === "text" && text.text, "ONE\ntwo\nTHREE\n");
	});

	it("staging the same bytes gives the worktree side's oid, so analysed bytes are recognized", async () => {
		const dir = partiallyStaged();
		const worktree = byPath(await takeSnapshot({ root: dir, target: "working-tree" })).get("a.ts");
		git(dir, "add", "a.ts");
		const staged = byPath(await takeSnapshot({ root: dir })).get("a.ts");
		assert.equal(worktree?.after?.source, "worktree");
		assert.equal(staged?.after?.source, "index");
		assert.equal(staged?.after?.oid, worktree?.after?.oid);
		assert.equal(staged?.after?.bytes, worktree?.after?.bytes);
	});

	it("branch is merge-base(base, HEAD)→HEAD, whatever main did since and whatever is staged", async () => {
		const dir = repo({ "a.ts": "a\n", "b.ts": "b\n" }, { commit: true });
		const fork = git(dir, "rev-parse", "HEAD").trim();
		git(dir, "checkout", "-q", "-b", "feature");
		write(dir, { "a.ts": "a2\n", "f.ts": "f\n" });
		commitAll(dir, "feature work");
		git(dir, "checkout", "-q", "main");
		write(dir, { "b.ts": "b on main\n" });
		commitAll(dir, "main work");
		git(dir, "checkout", "-q", "feature");
		write(dir, { "staged.ts": "not committed\n" });
		git(dir, "add", "staged.ts");
		const snapshot = await takeSnapshot({ root: dir, target: "branch", base: "main" });
		assert.deepEqual(snapshot.base, { ref: "main", oid: git(dir, "rev-parse", "main").trim(), mergeBase: fork });
		assert.equal(snapshot.branch, "feature");
		assert.deepEqual(summary(snapshot), ["modified a.ts", "added f.ts"]);
		assert.equal(byPath(snapshot).get("a.ts")?.after?.source, "commit");
	});

	it("names the blob the reviewed state holds for each file whose working copy differs", async () => {
		const dir = repo({ "m.ts": "m\n", "s.ts": "s\n", "r.ts": "r\n", "g.ts": "g\n", "d.ts": "d\n" }, { commit: true });
		const head = (path: string) => git(dir, "rev-parse", `HEAD:${path}`).trim();
		const staged = (path: string) => git(dir, "rev-parse", `:${path}`).trim();
		// m: edited, staged, edited again. s: staged only. r: renamed to q, then q edited. g: deleted on disk only.
		// n: added and staged, then edited. u: untracked. d: unchanged.
		write(dir, { "m.ts": "m2\n", "s.ts": "s2\n", "n.ts": "n\n" });
		git(dir, "add", "m.ts", "s.ts", "n.ts");
		git(dir, "mv", "r.ts", "q.ts");
		write(dir, { "m.ts": "m3\n", "n.ts": "n2\n", "q.ts": "q\n", "u.ts": "u\n" });
		rmSync(join(dir, "g.ts"));
		const blobs = (snapshot: Snapshot) => (snapshot.reviewedBlobs ?? []).map((b) => [b.path, b.oid]);
		const stagedReview = await takeSnapshot({ root: dir, target: "staged" });
		assert.deepEqual(stagedReview.workingCopyDiffers, ["g.ts", "m.ts", "n.ts", "q.ts", "u.ts"]);
		assert.deepEqual(blobs(stagedReview), [
			["g.ts", head("g.ts")],
			["m.ts", staged("m.ts")],
			["n.ts", staged("n.ts")],
			["q.ts", staged("q.ts")],
		]);
		const branchReview = await takeSnapshot({ root: dir, target: "branch", base: "HEAD" });
		assert.deepEqual(branchReview.workingCopyDiffers, ["g.ts", "m.ts", "n.ts", "q.ts", "r.ts", "s.ts", "u.ts"]);
		assert.deepEqual(
			blobs(branchReview),
			[
				["g.ts", head("g.ts")],
				["m.ts", head("m.ts")],
				["r.ts", head("r.ts")],
				["s.ts", head("s.ts")],
			],
			"HEAD's blobs; n.ts and q.ts are not in HEAD",
		);
	});
});

describe("snapshot states", () => {
	it("an unborn HEAD compares with the empty tree; a branch review needs a commit", async () => {
		const dir = repo({ "a.ts": "a\n", "u.ts": "u\n" });
		git(dir, "add", "a.ts");
		const staged = await takeSnapshot({ root: dir });
		assert.equal(staged.head, null);
		assert.equal(staged.branch, "main");
		assert.deepEqual(summary(staged), ["added a.ts"]);
		assert.equal(staged.changes[0]?.before, undefined);
		const worktree = await takeSnapshot({ root: dir, target: "working-tree" });
		assert.deepEqual(summary(worktree), ["added a.ts", "added u.ts"]);
		await assert.rejects(takeSnapshot({ root: dir, target: "branch", base: "main" }), /has no commits yet/);
	});

	it("an empty repository has no changes and no index", async () => {
		const dir = repo();
		const snapshot = await takeSnapshot({ root: dir, target: "working-tree" });
		assert.deepEqual(snapshot.changes, []);
		assert.equal(snapshot.indexDigest, "no-index");
	});

	it("a detached HEAD has no branch and still reviews", async () => {
		const dir = repo({ "a.ts": "a\n" }, { commit: true });
		git(dir, "checkout", "-q", "--detach");
		write(dir, { "a.ts": "a2\n" });
		git(dir, "add", "a.ts");
		const snapshot = await takeSnapshot({ root: dir });
		assert.equal(snapshot.branch, null);
		assert.equal(snapshot.head, git(dir, "rev-parse", "HEAD").trim());
		assert.deepEqual(summary(snapshot), ["modified a.ts"]);
	});

	it("a detached HEAD that names a tree, or a commit that is missing, is a clear error", async () => {
		const dir = repo({ "a.ts": "a\n" }, { commit: true });
		write(dir, { "a.ts": "a2\n" });
		git(dir, "add", "a.ts");
		const tree = git(dir, "rev-parse", "main^{tree}").trim();
		writeFileSync(join(dir, ".git", "HEAD"), `${tree}\n`);
		await assert.rejects(takeSnapshot({ root: dir }), /HEAD of .* names a tree, not a commit/);
		writeFileSync(join(dir, ".git", "HEAD"), `${"1".repeat(40)}\n`);
		await assert.rejects(takeSnapshot({ root: dir }), /bad object|missing|not a commit/);
	});

	it("a subdirectory snapshots its worktree's top level", async () => {
		const dir = repo({ "src/a.ts": "a\n" }, { commit: true });
		write(dir, { "src/a.ts": "a2\n", "top.ts": "t\n" });
		const snapshot = await takeSnapshot({ root: join(dir, "src"), target: "working-tree" });
		assert.equal(snapshot.root, dir);
		assert.deepEqual(summary(snapshot), ["modified src/a.ts", "added top.ts"]);
	});

	it("deletions: staged with git rm, unstaged with rm, and removed from the index but kept on disk", async () => {
		const dir = repo({ "a.ts": "a\n", "b.ts": "b\n", "c.ts": "c\n" }, { commit: true });
		git(dir, "rm", "-q", "a.ts");
		rmSync(join(dir, "b.ts"));
		git(dir, "rm", "-q", "--cached", "c.ts");
		assert.deepEqual(summary(await takeSnapshot({ root: dir })), ["deleted a.ts", "deleted c.ts"]);
		const worktree = await takeSnapshot({ root: dir, target: "working-tree" });
		assert.deepEqual(summary(worktree), ["deleted a.ts", "deleted b.ts"]);
		assert.equal(worktree.changes[0]?.before?.bytes, 2);
	});

	it("renames: git mv with an edit is detected by -M; a plain mv pairs by identical content", async () => {
		const body = Array.from({ length: 20 }, (_, i) => `export const v${i} = ${i};\n`).join("");
		const dir = repo({ "old.ts": body, "plain.ts": "export const p = 1;\n" }, { commit: true });
		git(dir, "mv", "old.ts", "new.ts");
		write(dir, { "new.ts": `${body}export const extra = 1;\n` });
		git(dir, "add", "new.ts");
		renameSync(join(dir, "plain.ts"), join(dir, "moved.ts"));
		const staged = await takeSnapshot({ root: dir });
		assert.deepEqual(summary(staged), ["renamed old.ts -> new.ts"]);
		assert.ok((staged.changes[0]?.similarity ?? 0) > 80);
		const worktree = await takeSnapshot({ root: dir, target: "working-tree" });
		assert.deepEqual(summary(worktree), ["renamed plain.ts -> moved.ts", "renamed old.ts -> new.ts"]);
		assert.equal(byPath(worktree).get("moved.ts")?.similarity, 100);
	});

	it("an intent-to-add file (git add -N) is no staged change but is added in the worktree", async () => {
		const dir = repo({ "a.ts": "a\n" }, { commit: true });
		write(dir, { "later.ts": "export const later = 1;\n" });
		git(dir, "add", "-N", "later.ts");
		assert.deepEqual(summary(await takeSnapshot({ root: dir })), []);
		const worktree = await takeSnapshot({ root: dir, target: "working-tree" });
		assert.deepEqual(summary(worktree), ["added later.ts"]);
		assert.equal(worktree.changes[0]?.after?.oid, hashObject(dir, "later.ts"));
	});

	it("a touched but unchanged file is no change; a mode change is", async () => {
		const dir = repo({ "a.sh": "echo a\n", "b.ts": "b\n" }, { commit: true });
		writeFileSync(join(dir, "b.ts"), "b\n");
		execFileSync("chmod", ["+x", join(dir, "a.sh")]);
		const snapshot = await takeSnapshot({ root: dir, target: "working-tree" });
		assert.deepEqual(summary(snapshot), ["modified a.sh"]);
		assert.equal(snapshot.changes[0]?.after?.mode, "100755");
	});
});

describe("snapshot work", () => {
	it("a no-change pass reads nothing: no blob, no object header, no worktree file", async () => {
		const dir = repo({ "a.ts": "a\n", "b/c.ts": "c\n" }, { commit: true });
		for (const target of ["staged", "working-tree"] as const) {
			const work = newGitWork();
			const snapshot = await takeSnapshot({ root: dir, target, work });
			assert.deepEqual(snapshot.changes, []);
			assert.deepEqual({ ...work, processes: 0 }, { ...newGitWork(), processes: 0 }, target);
			// rev-parse (with HEAD), config, status, cat-file (HEAD once more).
			assert.equal(work.processes, 4, `${target} spawned ${work.processes} git processes`);
		}
		const work = newGitWork();
		assert.deepEqual(await readSides({ root: dir, objectFormat: "sha1" }, [], { work }), []);
		assert.deepEqual(work, newGitWork());
	});

	it("a change reads each distinct blob once, in one cat-file process", async () => {
		const dir = repo({ "a.ts": "same\n", "b.ts": "same\n", "c.ts": "c\n" }, { commit: true });
		write(dir, { "a.ts": "a2\n", "b.ts": "b2\n", "c.ts": "c2\n" });
		git(dir, "add", "-A");
		const snapshot = await takeSnapshot({ root: dir });
		const requests = snapshot.changes.flatMap((change) =>
			[change.before, change.after].flatMap((side) => (side ? [{ path: change.path, side }] : [])),
		);
		const work = newGitWork();
		const contents = await readSides(snapshot, requests, { work });
		assert.equal(contents.length, 6);
		assert.equal(work.blobsRead, 5, "the shared 'same' blob is read once");
		assert.equal(work.processes, 2, "one config guard and one cat-file --batch");
		assert.equal(work.worktreeFilesRead, 0);
	});

	it("a snapshot and the reads of its sides share one object reader: four Git processes in all", async () => {
		const dir = repo({ "a.ts": "a\n", "b.ts": "b\n" }, { commit: true });
		write(dir, { "a.ts": "a2\n", "c.ts": "c\n" });
		git(dir, "add", "-A");
		const work = newGitWork();
		const objects = new ObjectReaders();
		try {
			const snapshot = await takeSnapshot({ root: dir, work, objects });
			const requests = snapshot.changes.flatMap((change) =>
				[change.before, change.after].flatMap((side) => (side ? [{ path: change.path, side }] : [])),
			);
			const contents = await readSides(snapshot, requests, { work, objects, partialCloneRefused: true });
			assert.deepEqual(
				contents.map((content) => content.kind === "text" && content.text),
				["a\n", "a2\n", "c\n"],
			);
		} finally {
			await objects.close();
		}
		assert.equal(work.blobsRead, 3);
		assert.equal(work.processes, 4, "rev-parse, config, status and one cat-file");
	});

	it("a second snapshot of an unchanged repository has the same digests", async () => {
		const dir = partiallyStaged();
		const first = await takeSnapshot({ root: dir, target: "working-tree" });
		const second = await takeSnapshot({ root: dir, target: "working-tree" });
		assert.equal(first.indexDigest, second.indexDigest);
		assert.equal(first.worktreeDigest, second.worktreeDigest);
		write(dir, { "e.ts": "export const e = 22;\n" });
		const third = await takeSnapshot({ root: dir, target: "working-tree" });
		assert.notEqual(third.worktreeDigest, first.worktreeDigest);
		assert.equal(third.indexDigest, first.indexDigest);
	});
});
