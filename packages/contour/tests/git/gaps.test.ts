// Bad input gives a clear answer or a visible coverage gap: symlinks (never followed), submodules, binary bytes,
// invalid UTF-8, giant files, odd file names, special files, and a change of thousands of files.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type ContentRequest, newGitWork, readSides, type Snapshot, takeSnapshot } from "../../src/git/index.ts";
import { cleanup, commitAll, git, repo, tempDir, write } from "./support.ts";

after(cleanup);

const gaps = (snapshot: Snapshot) => Object.fromEntries(snapshot.changes.map((c) => [c.path, c.gap ?? "none"]));
const afterSides = (snapshot: Snapshot): ContentRequest[] =>
	snapshot.changes.flatMap((c) => (c.after ? [{ path: c.path, side: c.after }] : []));

describe("coverage gaps", () => {
	it("symlinks are gaps and never followed, even when they point out of the root", async () => {
		const outside = tempDir();
		write(outside, { "secret.ts": "export const secret = 1;\n", "dir/inner.ts": "x\n" });
		const dir = repo({ "a.ts": "a\n" }, { commit: true });
		symlinkSync(join(outside, "secret.ts"), join(dir, "escape.ts"));
		symlinkSync(join(outside, "dir"), join(dir, "dirlink"));
		symlinkSync("a.ts", join(dir, "inside.ts"));
		const work = newGitWork();
		const snapshot = await takeSnapshot({ root: dir, target: "working-tree", work });
		assert.deepEqual(gaps(snapshot), { dirlink: "symlink", "escape.ts": "symlink", "inside.ts": "symlink" });
		assert.equal(work.worktreeFilesRead, 0, "a link is described by its target text, never opened");
		const escaping = snapshot.changes.find((c) => c.path === "escape.ts");
		assert.equal(escaping?.after?.mode, "120000");
		assert.equal(escaping?.after?.bytes, join(outside, "secret.ts").length);
		const contents = await readSides(snapshot, afterSides(snapshot), { work });
		assert.deepEqual(
			contents.map((c) => c.kind === "gap" && c.gap),
			["symlink", "symlink", "symlink"],
		);
		assert.equal(work.worktreeFilesRead, 0);
		// Committed, the link is a staged gap too.
		git(dir, "add", "escape.ts");
		assert.deepEqual(gaps(await takeSnapshot({ root: dir })), { "escape.ts": "symlink" });
	});

	it("submodules (gitlinks) and embedded repositories are gaps", async () => {
		const dir = repo({ "a.ts": "a\n" }, { commit: true });
		const sub = join(dir, "sub");
		mkdirSync(sub);
		git(sub, "init", "-q", "-b", "main");
		write(sub, { "x.ts": "x\n" });
		const first = commitAll(sub);
		git(dir, "update-index", "--add", "--cacheinfo", `160000,${first},sub`);
		const staged = await takeSnapshot({ root: dir });
		assert.deepEqual(gaps(staged), { sub: "submodule" });
		assert.equal(staged.changes[0]?.after?.oid, first);
		commitAll(dir);
		write(sub, { "x.ts": "x2\n" });
		commitAll(sub);
		const embedded = join(dir, "other");
		mkdirSync(embedded);
		git(embedded, "init", "-q");
		const worktree = await takeSnapshot({ root: dir, target: "working-tree" });
		assert.deepEqual(gaps(worktree), { other: "submodule", sub: "submodule" });
		const contents = await readSides(worktree, afterSides(worktree));
		assert.deepEqual(
			contents.map((c) => c.kind === "gap" && c.gap),
			["submodule", "submodule"],
		);
	});

	it("binary bytes and invalid UTF-8 are content gaps; valid text beside them is read", async () => {
		const dir = repo({ "a.ts": "a\n" }, { commit: true });
		write(dir, {
			"bin.dat": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
			"latin1.ts": Buffer.from("export const caf\xe9 = 1;\n", "latin1"),
			"ok.ts": "export const ok = '✓';\n",
		});
		git(dir, "add", "-A");
		for (const target of ["staged", "working-tree"] as const) {
			const snapshot = await takeSnapshot({ root: dir, target });
			const contents = await readSides(snapshot, afterSides(snapshot));
			assert.deepEqual(
				contents.map((c) => (c.kind === "gap" ? c.gap : c.text)),
				["binary", "invalid-utf8", "export const ok = '✓';\n"],
				target,
			);
		}
	});

	it("files over the size limit are too-large gaps and are never read", async () => {
		const dir = repo({ "small.ts": "s\n", "big.ts": "b\n" }, { commit: true });
		write(dir, { "big.ts": "x".repeat(5000), "huge.ts": "y".repeat(9000) });
		git(dir, "add", "big.ts");
		const work = newGitWork();
		const snapshot = await takeSnapshot({
			root: dir,
			target: "working-tree",
			maxBytes: 1000,
			maxHashBytes: 8000,
			work,
		});
		assert.deepEqual(gaps(snapshot), { "big.ts": "too-large", "huge.ts": "too-large" });
		const huge = snapshot.changes.find((c) => c.path === "huge.ts");
		assert.deepEqual(huge?.after, { oid: null, mode: "100644", bytes: 9000, source: "worktree" });
		assert.equal(work.worktreeBytes, 0, "big.ts matches the index, huge.ts is past the hashing limit");
		const contents = await readSides(snapshot, afterSides(snapshot), { maxBytes: 1000, work });
		assert.deepEqual(
			contents.map((c) => c.kind === "gap" && c.gap),
			["too-large", "too-large"],
		);
		assert.equal(work.blobsRead + work.worktreeFilesRead, 0);
	});

	it("a byte budget turns the rest of a large read into over-budget gaps", async () => {
		const dir = repo({}, { commit: false });
		write(dir, { "a.ts": "a".repeat(600), "b.ts": "b".repeat(600), "c.ts": "c".repeat(600) });
		git(dir, "add", "-A");
		const snapshot = await takeSnapshot({ root: dir });
		const contents = await readSides(snapshot, afterSides(snapshot), { maxTotalBytes: 1300 });
		assert.deepEqual(
			contents.map((c) => c.kind),
			["text", "text", "gap"],
		);
		assert.equal(contents[2]?.kind === "gap" && contents[2].gap, "over-budget");
	});

	it("odd file names: spaces, a newline, unicode, leading dashes, quotes; a non-UTF-8 name is a gap", async () => {
		const names = ["with space.ts", "new\nline.ts", "ünï cødé.ts", "-leading-dash.ts", "--cached", 'quo"te\t.ts'];
		const dir = repo({ "keep.ts": "k\n" }, { commit: true });
		write(dir, Object.fromEntries(names.map((name, i) => [name, `export const v${i} = ${i};\n`])));
		git(dir, "add", "--", ...names.slice(0, 3));
		writeFileSync(Buffer.from(`${dir}/bad-\xff-name.ts`, "latin1"), "export const bad = 1;\n");
		const staged = await takeSnapshot({ root: dir });
		assert.deepEqual(staged.changes.map((c) => c.path).sort(), names.slice(0, 3).sort());
		const worktree = await takeSnapshot({ root: dir, target: "working-tree" });
		const paths = worktree.changes.map((c) => c.path);
		for (const name of names) assert.ok(paths.includes(name), `${JSON.stringify(name)} is listed`);
		const bad = worktree.changes.filter((c) => c.gap === "invalid-name");
		assert.equal(bad.length, 1);
		const readable = afterSides(worktree).filter((r) => names.includes(r.path));
		const contents = await readSides(worktree, readable);
		assert.deepEqual(
			contents.map((c) => c.kind),
			names.map(() => "text"),
		);
	});

	it("a tracked file replaced by a FIFO is a special-file gap and nothing hangs", async () => {
		const dir = repo({ "pipe.ts": "p\n" }, { commit: true });
		rmSync(join(dir, "pipe.ts"));
		execFileSync("mkfifo", [join(dir, "pipe.ts")]);
		const snapshot = await takeSnapshot({ root: dir, target: "working-tree" });
		assert.deepEqual(
			snapshot.changes.map((c) => [c.path, c.status, c.gap]),
			[["pipe.ts", "type-changed", "special-file"]],
		);
		const [content] = await readSides(snapshot, afterSides(snapshot));
		assert.equal(content?.kind === "gap" && content.gap, "special-file");
	});

	it("a change of 3,000 files is snapshotted and read in one cat-file process", async () => {
		const files = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`m${i % 30}/f${i}.ts`, `v${i}\n`]));
		const dir = repo(files, { commit: true });
		write(dir, Object.fromEntries(Object.keys(files).map((path) => [path, `${files[path]}changed\n`])));
		git(dir, "add", "-A");
		const work = newGitWork();
		const snapshot = await takeSnapshot({ root: dir, work });
		assert.equal(snapshot.changes.length, 3000);
		assert.equal(work.objectsChecked, 6001, "every blob and HEAD's commit");
		const contents = await readSides(snapshot, afterSides(snapshot), { work });
		assert.equal(contents.filter((c) => c.kind === "text").length, 3000);
		assert.equal(work.blobsRead, 3000);
		const worktree = await takeSnapshot({ root: dir, target: "working-tree" });
		assert.equal(worktree.changes.length, 3000);
	});
});
