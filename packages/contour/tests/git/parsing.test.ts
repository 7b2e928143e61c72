// The pure pieces against Git itself: blob ids as `git hash-object` computes them (sha1 and sha256 repositories),
// raw diff and path-list parsing with its refusals, text decoding, cat-file streaming of a large object, and one
// object reader answering several requests in order.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { after, describe, it } from "node:test";
import { decode, gitBlobOid, newGitWork, ObjectReader, readSides, takeSnapshot } from "../../src/git/index.ts";
import { checkedPath, parseRawDiff, ZERO_OID } from "../../src/git/raw-diff.ts";
import { parseStatusV2 } from "../../src/git/status-v2.ts";
import { cleanup, git, repo, tempDir, write } from "./support.ts";

after(cleanup);

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);

describe("blob ids", () => {
	it("match git hash-object for empty, text, binary and large content", () => {
		const dir = tempDir();
		for (const bytes of [
			Buffer.alloc(0),
			Buffer.from("hello\n"),
			Buffer.from([0, 1, 2, 255, 254]),
			Buffer.alloc(3 << 20, 7),
		]) {
			const expected = execFileSync("git", ["hash-object", "--stdin"], { cwd: dir, input: bytes, encoding: "utf8" });
			assert.equal(gitBlobOid(bytes), expected.trim());
		}
	});

	it("a sha256 repository snapshots and reads with 64-digit ids", async () => {
		const dir = tempDir();
		git(dir, "init", "-q", "-b", "main", "--object-format=sha256");
		write(dir, { "a.ts": "a\n" });
		git(dir, "add", "a.ts");
		git(dir, "commit", "-q", "-m", "init");
		write(dir, { "a.ts": "a2\n", "b.ts": "b\n" });
		git(dir, "add", "a.ts");
		const staged = await takeSnapshot({ root: dir });
		assert.equal(staged.objectFormat, "sha256");
		assert.equal(staged.head?.length, 64);
		assert.equal(staged.indexDigest.length, 64);
		const worktree = await takeSnapshot({ root: dir, target: "working-tree" });
		const b = worktree.changes.find((c) => c.path === "b.ts");
		assert.equal(b?.after?.oid, gitBlobOid(Buffer.from("b\n"), "sha256"));
		const a = staged.changes[0];
		const contents = await readSides(staged, [
			{ path: "a.ts", side: a?.before as NonNullable<typeof a>["after"] & object },
			{ path: "a.ts", side: a?.after as NonNullable<typeof a>["after"] & object },
		]);
		assert.deepEqual(
			contents.map((c) => c.kind === "text" && c.text),
			["a\n", "a2\n"],
		);
	});
});

describe("raw diff parsing", () => {
	it("reads modifications, renames with scores and unmerged records", () => {
		const out = Buffer.from(
			`:100644 100644 ${A} ${B} M\0src/a b.ts\0` +
				`:100644 100755 ${A} ${B} R087\0old\nname.ts\0new.ts\0` +
				`:000000 000000 ${ZERO_OID} ${ZERO_OID} U\0c.ts\0`,
		);
		assert.deepEqual(parseRawDiff(out), [
			{ status: "M", srcMode: "100644", dstMode: "100644", srcOid: A, dstOid: B, path: "src/a b.ts", validName: true },
			{
				status: "R",
				srcMode: "100644",
				dstMode: "100755",
				srcOid: A,
				dstOid: B,
				path: "new.ts",
				oldPath: "old\nname.ts",
				score: 87,
				validName: true,
			},
			{
				status: "U",
				srcMode: "000000",
				dstMode: "000000",
				srcOid: ZERO_OID,
				dstOid: ZERO_OID,
				path: "c.ts",
				validName: true,
			},
		]);
	});

	it("refuses abbreviated ids, truncated records and paths that could escape the root", () => {
		assert.throws(() => parseRawDiff(Buffer.from(`:100644 100644 abc def M\0a\0`)), /unexpected git diff --raw record/);
		assert.throws(() => parseRawDiff(Buffer.from(`:100644 100644 ${A} ${B} R100\0only-one\0`)), /truncated/);
		for (const path of ["../x", "/etc/passwd", "a//b", "a/./b", ""])
			assert.throws(() => checkedPath(path), /unsafe path/, JSON.stringify(path));
	});
});

describe("status parsing", () => {
	it("reads the HEAD a run compared from its branch header: a commit, or null on an unborn branch", () => {
		const header = (oid: string) => Buffer.from(`# branch.oid ${oid}\0# branch.head main\0# branch.ab +? -?\0? x.ts\0`);
		assert.equal(parseStatusV2(header(A)).head, A);
		assert.equal(parseStatusV2(header("(initial)")).head, null);
		assert.equal(parseStatusV2(Buffer.from("? x.ts\0")).head, undefined, "a run without the header says nothing");
		assert.deepEqual(parseStatusV2(header(A)).untracked, [{ path: "x.ts", valid: true, directory: false }]);
	});

	it("splits one status run into HEAD→index, index→worktree, untracked and unmerged, as the diffs would", () => {
		const out = Buffer.concat([
			Buffer.from(`2 RM N... 100644 100644 100755 ${A} ${B} R85 new name.ts\0old\nname.ts\0`),
			Buffer.from(`1 .D N... 100644 100644 000000 ${A} ${A} gone.ts\0`),
			Buffer.from(`1 .A N... 000000 000000 100644 ${ZERO_OID} ${ZERO_OID} intent.ts\0`),
			Buffer.from(`1 A. N... 000000 100644 100644 ${ZERO_OID} ${B} added.ts\0`),
			Buffer.from(`u UU N... 100644 100644 100644 100644 ${A} ${B} ${A} c.ts\0`),
			Buffer.from("? ok.ts\0? nested/\0? bad-"),
			Buffer.from([0xff]),
			Buffer.from(".ts\0"),
		]);
		const listing = parseStatusV2(out);
		assert.deepEqual(listing.staged, [
			{
				status: "R",
				srcMode: "100644",
				dstMode: "100644",
				srcOid: A,
				dstOid: B,
				path: "new name.ts",
				oldPath: "old\nname.ts",
				score: 85,
				validName: true,
			},
			{
				status: "A",
				srcMode: "000000",
				dstMode: "100644",
				srcOid: ZERO_OID,
				dstOid: B,
				path: "added.ts",
				validName: true,
			},
		]);
		assert.deepEqual(listing.dirty, [
			{
				status: "M",
				srcMode: "100644",
				dstMode: "100755",
				srcOid: B,
				dstOid: ZERO_OID,
				path: "new name.ts",
				validName: true,
			},
			{
				status: "D",
				srcMode: "100644",
				dstMode: "000000",
				srcOid: A,
				dstOid: ZERO_OID,
				path: "gone.ts",
				validName: true,
			},
			{
				status: "A",
				srcMode: "000000",
				dstMode: "100644",
				srcOid: ZERO_OID,
				dstOid: ZERO_OID,
				path: "intent.ts",
				validName: true,
			},
		]);
		assert.deepEqual(listing.untracked, [
			{ path: "ok.ts", valid: true, directory: false },
			{ path: "nested", valid: true, directory: true },
			{ path: "bad-\ufffd.ts", valid: false, directory: false },
		]);
		assert.deepEqual(listing.conflicts, ["c.ts"]);
	});

	it("refuses short ids, unknown records, a rename without its source and paths that could escape the root", () => {
		const bad = [
			`1 .M N... 100644 100644 100644 abc def a.ts\0`,
			`3 .M N... 100644 100644 100644 ${A} ${A} a.ts\0`,
			`1 ?? N... 100644 100644 100644 ${A} ${A} a.ts\0`,
			`2 R. N... 100644 100644 100644 ${A} ${B} X85 b.ts\0a.ts\0`,
		];
		for (const record of bad) assert.throws(() => parseStatusV2(Buffer.from(record)), /unexpected git status record/);
		assert.throws(() => parseStatusV2(Buffer.from(`2 R. N... 100644 100644 100644 ${A} ${B} R85 b.ts\0`)), /truncated/);
		assert.throws(() => parseStatusV2(Buffer.from(`1 .M N... 100644 100644 100644 ${A} ${A} ../x\0`)), /unsafe path/);
		assert.throws(() => parseStatusV2(Buffer.from("? /etc/passwd\0")), /unsafe path/);
	});
});

describe("decoding", () => {
	it("drops a BOM, keeps text, calls NUL bytes binary and bad UTF-8 invalid", () => {
		assert.deepEqual(decode(Buffer.from("\ufeffx\n"), "o"), { kind: "text", text: "x\n", oid: "o", bytes: 5 });
		assert.equal(decode(Buffer.from("a\0b"), "o").kind, "gap");
		assert.deepEqual(decode(Buffer.from([0x61, 0xc3]), "o"), {
			kind: "gap",
			gap: "invalid-utf8",
			reason: "not valid UTF-8",
		});
	});

	it("streams objects larger than a pipe chunk intact", async () => {
		const big = Array.from({ length: 120_000 }, (_, i) => `line ${i}\n`).join("");
		const dir = repo({ "big.ts": big, "small.ts": "s\n" });
		git(dir, "add", "-A");
		const snapshot = await takeSnapshot({ root: dir, maxBytes: 4 << 20 });
		const requests = snapshot.changes.map((c) => ({ path: c.path, side: c.after as NonNullable<typeof c.after> }));
		const contents = await readSides(snapshot, requests, { maxBytes: 4 << 20 });
		assert.deepEqual(
			contents.map((c) => c.kind === "text" && c.text),
			[big, "s\n"],
		);
	});
});

describe("object reader", () => {
	it("answers headers, HEAD and contents in order from one process, and reports missing objects", async () => {
		const dir = repo({ "a.ts": "alpha\n", "b.ts": "beta\n" }, { commit: true });
		const head = git(dir, "rev-parse", "HEAD").trim();
		const a = git(dir, "rev-parse", "HEAD:a.ts").trim();
		const b = git(dir, "rev-parse", "HEAD:b.ts").trim();
		const work = newGitWork();
		const reader = new ObjectReader(dir, { work });
		try {
			const [info, again] = await Promise.all([reader.info([a, "HEAD", C]), reader.info([b])]);
			assert.deepEqual(info, [
				{ oid: a, missing: false, type: "blob", size: 6 },
				{ oid: head, missing: false, type: "commit", size: info[1]?.missing === false ? info[1].size : -1 },
				{ missing: true },
			]);
			assert.deepEqual(again, [{ oid: b, missing: false, type: "blob", size: 5 }]);
			const read: string[] = [];
			await reader.contents([b, C, a], (oid, object) => {
				read.push(`${oid.slice(0, 4)}:${object.missing ? "missing" : object.content.toString()}`);
			});
			assert.deepEqual(read, [`${b.slice(0, 4)}:beta\n`, `${C.slice(0, 4)}:missing`, `${a.slice(0, 4)}:alpha\n`]);
		} finally {
			await reader.close();
		}
		assert.deepEqual(
			{ processes: work.processes, objectsChecked: work.objectsChecked, blobsRead: work.blobsRead },
			{ processes: 1, objectsChecked: 3, blobsRead: 2 },
			"one process; HEAD is looked up as a reference, not counted as an object",
		);
	});

	it("refuses names that are neither object ids nor HEAD, and fails what a throwing handler interrupts", async () => {
		const dir = repo({ "a.ts": "alpha\n" }, { commit: true });
		const a = git(dir, "rev-parse", "HEAD:a.ts").trim();
		const reader = new ObjectReader(dir);
		try {
			await assert.rejects(reader.info(["--batch-all-objects"]), /not an object id/);
			await assert.rejects(reader.info([`${a}\ncontents ${a}`]), /not an object id/);
			await assert.rejects(
				reader.contents(["HEAD"], () => {}),
				/not an object id/,
			);
			await assert.rejects(
				reader.contents([a], () => {
					throw new Error("handler refused");
				}),
				/handler refused/,
			);
			await assert.rejects(reader.info([a]), /handler refused/, "a reader that failed answers nothing more");
		} finally {
			await reader.close();
		}
	});
});
