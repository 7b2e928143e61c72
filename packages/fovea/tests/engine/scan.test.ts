/**
 * The tree walk (`engine/scan/walk.ts`) on real temporary trees:
 * - "honoring `.gitignore` files at every level", plus `.git/info/exclude`; ignored directories are not entered.
 * - "always skipping `.git`, `node_modules`, and dependency/build dirs".
 * - "symlinks pointing outside the root are not followed"; symlinked directories inside the root are not followed.
 * - "Generated, minified and oversized files are skipped visibly" / "Other files are listed as coverage gaps": by
 *   name and size here (content checks belong to the index); data, docs and media are not code and not listed.
 * - bounded by `maxFiles` and depth, with `truncated`.
 */
import assert from "node:assert/strict";
import { mkdir, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RecordedFile, ScannedFile } from "../../src/engine/scan/file-metadata.ts";
import { rootRelativeSegments, scanPaths } from "../../src/engine/scan/path-check.ts";
import { isSkippedDirName } from "../../src/engine/scan/skip-dirs.ts";
import { scanRoot } from "../../src/engine/scan/walk.ts";
import { makeTempDir, removeTempDir, tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
async function tree(entries: Record<string, string>): Promise<string> {
	const dir = await temps.make();
	await writeTree(dir, entries);
	return dir;
}
after(temps.removeAll);

describe("scanRoot", () => {
	it("lists supported files with language, size and mtime, sorted, with posix paths", async () => {
		const root = await tree({
			"src/a.ts": "export const a = 1;\n",
			"src/view.tsx": "export const V = () => null;\n",
			"lib/util.py": "def f():\n    pass\n",
			"main.go": "package main\n",
			"b.rs": "fn main() {}\n",
			"A.java": "class A {}\n",
			"x.mjs": "export {};\n",
		});
		const scan = await scanRoot(root);
		assert.deepEqual(
			scan.files.map((f) => [f.path, f.language]),
			[
				["A.java", "java"],
				["b.rs", "rust"],
				["lib/util.py", "python"],
				["main.go", "go"],
				["src/a.ts", "typescript"],
				["src/view.tsx", "tsx"],
				["x.mjs", "javascript"],
			],
		);
		const a = scan.files.find((f) => f.path === "src/a.ts");
		assert.equal(a?.size, "export const a = 1;\n".length);
		assert.ok((a?.mtimeMs ?? 0) > 0);
		assert.deepEqual(scan.gaps, []);
		assert.equal(scan.truncated, false);
		assert.equal(scan.stats.filesStatted, 7);
	});

	it("lists unsupported source as gaps, too-large and .min files as gaps, and leaves non-code out", async () => {
		const root = await tree({
			"native/x.c": "int main(){}\n",
			"native/x.hpp": "#pragma once\n",
			"app.rb": "puts 1\n",
			"deploy.sh": "echo hi\n",
			"Main.kt": "fun main() {}\n",
			"vendor.min.js": "var a=1;\n",
			"big.ts": `export const big = "${"x".repeat(2000)}";\n`,
			"small.ts": "export {};\n",
			"logo.png": "\x89PNG",
			"package.json": "{}",
			"README.md": "# hi",
			"yarn.lock": "",
			Makefile: "all:\n",
			"data.csv": "a,b\n",
		});
		const scan = await scanRoot(root, { maxFileBytes: 1000 });
		assert.deepEqual(
			scan.files.map((f) => f.path),
			["small.ts"],
		);
		assert.deepEqual(scan.gaps, [
			{ path: "Main.kt", reason: "unsupported-language" },
			{ path: "app.rb", reason: "unsupported-language" },
			{ path: "big.ts", reason: "too-large" },
			{ path: "deploy.sh", reason: "unsupported-language" },
			{ path: "native/x.c", reason: "unsupported-language" },
			{ path: "native/x.hpp", reason: "unsupported-language" },
			{ path: "vendor.min.js", reason: "minified" },
		]);
	});

	it("names the tsconfig.json, jsconfig.json and package.json files it passes, when unchanged too", async () => {
		const root = await tree({
			"tsconfig.json": "{}",
			"packages/web/tsconfig.json": "{}",
			"packages/web/jsconfig.json": "{}",
			"packages/web/src/a.ts": "export const a = 1;\n",
			"packages/api/jsconfig.json": "{}",
			"packages/api/index.js": "export const b = 1;\n",
			"packages/api/package.json": "{}",
			"packages/docs/tsconfig.base.json": "{}",
		});
		const first = await scanRoot(root);
		const settings = [
			"packages/api/jsconfig.json",
			"packages/api/package.json",
			"packages/web/jsconfig.json",
			"packages/web/tsconfig.json",
			"tsconfig.json",
		];
		assert.deepEqual(first.settingsFiles, settings);
		const recorded = new Map<string, RecordedFile>(
			first.files.map((f) => [f.path, { size: f.size, mtimeMs: f.mtimeMs, ctimeMs: f.ctimeMs, language: f.language }]),
		);
		const again = await scanRoot(root, { recorded });
		assert.equal(again.unchanged, true);
		assert.deepEqual(again.settingsFiles, settings);
	});

	it("always skips version-control, dependency and build-output directories", async () => {
		const root = await tree({
			"src/keep.ts": "export {};\n",
			".git/hooks/pre-commit.js": "x",
			"node_modules/dep/index.js": "x",
			"pkg/node_modules/dep/index.js": "x",
			"dist/out.js": "x",
			"build/out.js": "x",
			"target/debug/x.rs": "x",
			"vendor/lib/x.go": "x",
			".venv/lib/x.py": "x",
			"__pycache__/x.py": "x",
			"coverage/x.js": "x",
			".next/x.js": "x",
		});
		const scan = await scanRoot(root);
		assert.deepEqual(
			scan.files.map((f) => f.path),
			["src/keep.ts"],
		);
		// Build-output names can hold real code: skipped, but listed; dependency trees and metadata say nothing.
		assert.deepEqual(
			scan.gaps.map((g) => [g.path, g.reason]),
			[
				[".next/", "generated-dir"],
				["build/", "generated-dir"],
				["coverage/", "generated-dir"],
				["dist/", "generated-dir"],
				["target/", "generated-dir"],
			],
		);
		for (const name of [".git", "node_modules", "dist", "build", "target", "vendor", ".venv", "coverage"]) {
			assert.equal(isSkippedDirName(name), true, name);
		}
		for (const name of ["src", "lib", "pkg", "internal", "app"]) assert.equal(isSkippedDirName(name), false, name);
	});

	it("lists files and directories named in bytes that are not UTF-8 as unreadable gaps", async () => {
		const root = await tree({ "ok.ts": "export {};\n" });
		const latin1 = (name: string) => Buffer.concat([Buffer.from(`${root}/`), Buffer.from(name, "latin1")]);
		await writeFile(latin1("caf\xe9.ts"), "export const x = 1;\n");
		await mkdir(latin1("d\xe9j\xe0"));
		await writeFile(Buffer.concat([latin1("d\xe9j\xe0"), Buffer.from("/inner.ts")]), "export {};\n");
		const scan = await scanRoot(root);
		assert.deepEqual(
			scan.files.map((f) => f.path),
			["ok.ts"],
		);
		assert.deepEqual(scan.gaps.map((g) => [g.path, g.reason]).sort(), [
			["caf\uFFFD.ts", "unreadable"],
			["d\uFFFDj\uFFFD/", "unreadable"],
		]);
	});

	it("lists a build-output directory holding code as a gap unless an ignore file leaves it out", async () => {
		const root = await tree({
			"src/main.ts": "export {};\n",
			"src/build/compiler.ts": "export function compile() {}\n",
			"lib/out/x.ts": "export {};\n",
			"web/.gitignore": "dist/\n",
			"web/dist/app.js": "x",
		});
		const scan = await scanRoot(root);
		assert.deepEqual(
			scan.files.map((f) => f.path),
			["src/main.ts"],
		);
		assert.deepEqual(scan.gaps, [
			{ path: "lib/out/", reason: "generated-dir" },
			{ path: "src/build/", reason: "generated-dir" },
		]);
	});

	it("honors .gitignore at every level, negations in deeper files, and .git/info/exclude", async () => {
		const root = await tree({
			".gitignore": "*.gen.ts\nsecret/\n/top-only.ts\n",
			".git/info/exclude": "local-*.ts\n",
			"a.ts": "",
			"a.gen.ts": "",
			"top-only.ts": "",
			"local-notes.ts": "",
			"secret/inner.ts": "",
			"sub/.gitignore": "!keep.gen.ts\nscratch.py\n",
			"sub/keep.gen.ts": "",
			"sub/other.gen.ts": "",
			"sub/scratch.py": "",
			"sub/top-only.ts": "",
			"sub/deeper/scratch.py": "",
			"other/scratch.py": "",
			"ignored.rb": "",
		});
		await writeFile(join(root, ".gitignore"), "*.gen.ts\nsecret/\n/top-only.ts\nignored.rb\n");
		const scan = await scanRoot(root);
		assert.deepEqual(
			scan.files.map((f) => f.path),
			["a.ts", "other/scratch.py", "sub/keep.gen.ts", "sub/top-only.ts"],
		);
		assert.deepEqual(scan.gaps, [], "an ignored unsupported file is not a gap either");
		assert.equal(scan.stats.ignoreFilesRead, 3);
	});

	it("applies an edited .gitignore on the next walk (compiled rules are reused only while the text is the same)", async () => {
		const root = await tree({
			".gitignore": "*.gen.ts\n",
			"a.ts": "",
			"b.gen.ts": "",
			"sub/.gitignore": "c.ts\n",
			"sub/c.ts": "",
		});
		const paths = async () => (await scanRoot(root)).files.map((f) => f.path);
		assert.deepEqual(await paths(), ["a.ts"]);
		assert.deepEqual(await paths(), ["a.ts"], "the same answers from the reused rules");
		await writeFile(join(root, ".gitignore"), "a.ts\n");
		await writeFile(join(root, "sub/.gitignore"), "");
		assert.deepEqual(await paths(), ["b.gen.ts", "sub/c.ts"]);
	});

	it("does not follow symlinks: not to a directory outside the root, not inside it, not to files; lists them", async () => {
		const outside = await tree({ "escape.ts": "export const escaped = 1;\n", "deep/x.ts": "" });
		const root = await tree({ "src/real.ts": "export {};\n" });
		await symlink(outside, join(root, "link-out"), "dir");
		await symlink(join(root, "src"), join(root, "link-in"), "dir");
		await symlink(join(outside, "escape.ts"), join(root, "file-link.ts"), "file");
		await symlink("loop-b", join(root, "loop-a"));
		await symlink("loop-a", join(root, "loop-b"));
		await symlink(join(outside, "escape.ts"), join(root, "NOTES"), "file");
		const scan = await scanRoot(root);
		assert.deepEqual(
			scan.files.map((f) => f.path),
			["src/real.ts"],
		);
		assert.equal(scan.stats.symlinksSkipped, 6);
		// Listed: the one named like source, those leading to a directory (its part of the tree is not mapped), and
		// those leading nowhere (a loop); not a link to a file that is not source, nor an ignored one.
		assert.deepEqual(scan.gaps, [
			{ path: "file-link.ts", reason: "symlink" },
			{ path: "link-in/", reason: "symlink" },
			{ path: "link-out/", reason: "symlink" },
			{ path: "loop-a", reason: "symlink" },
			{ path: "loop-b", reason: "symlink" },
		]);
		const { verdicts } = await scanPaths(root, ["file-link.ts", "link-in"]);
		assert.deepEqual(verdicts, [
			{ path: "file-link.ts", kind: "gap", gap: { path: "file-link.ts", reason: "symlink" } },
			{ path: "link-in", kind: "absent" },
		]);
		await writeFile(join(root, ".gitignore"), "file-link.ts\nlink-*/\nloop-*\n");
		assert.deepEqual((await scanRoot(root)).gaps, []);
		assert.deepEqual((await scanPaths(root, ["file-link.ts"])).verdicts, [{ path: "file-link.ts", kind: "absent" }]);
	});

	it("stops at maxFiles and maxDepth with truncated set, deterministically", async () => {
		const entries: Record<string, string> = {};
		for (let i = 0; i < 30; i++) entries[`m${String(i).padStart(2, "0")}.ts`] = "";
		const root = await tree(entries);
		const first = await scanRoot(root, { maxFiles: 10 });
		assert.equal(first.truncated, true);
		assert.equal(first.files.length, 10);
		assert.deepEqual(
			first.files.map((f) => f.path),
			(await scanRoot(root, { maxFiles: 10 })).files.map((f) => f.path),
		);
		assert.equal((await scanRoot(root, { maxFiles: 30 })).truncated, false);

		const deep = await tree({ "a/b/c/d/e.ts": "", "a/top.ts": "" });
		const shallow = await scanRoot(deep, { maxDepth: 2 });
		assert.deepEqual(
			shallow.files.map((f) => f.path),
			["a/top.ts"],
		);
		assert.equal(shallow.truncated, true);
		assert.equal((await scanRoot(deep, { maxDepth: 4 })).truncated, false);
	});

	it("given the records of every file, lists nothing while all are as recorded, else walks again and lists", async () => {
		const root = await tree({
			"src/a.ts": "export const a = 1;\n",
			"src/b.ts": "export const b = 2;\n",
			"lib/c.py": "def c():\n    pass\n",
			"big.ts": `export const big = "${"x".repeat(2000)}";\n`,
		});
		const records = (files: readonly ScannedFile[]) =>
			new Map<string, RecordedFile>(
				files.map((f) => [f.path, { size: f.size, mtimeMs: f.mtimeMs, ctimeMs: f.ctimeMs, language: f.language }]),
			);
		const listed = await scanRoot(root, { maxFileBytes: 1000 });
		assert.equal(listed.unchanged, false);
		assert.equal(listed.files.length, 3);
		let recorded = records(listed.files);

		const same = await scanRoot(root, { maxFileBytes: 1000, recorded });
		assert.equal(same.unchanged, true);
		assert.deepEqual(same.files, [], "nothing listed");
		assert.deepEqual(same.gaps, listed.gaps, "gaps are still listed");
		assert.deepEqual(same.directories, listed.directories);
		assert.equal(same.stats.filesStatted, 4, "one walk");

		const expectChange = async (what: string, edit: () => Promise<unknown>, files: number) => {
			await edit();
			const scan = await scanRoot(root, { maxFileBytes: 1000, recorded });
			assert.equal(scan.unchanged, false, what);
			assert.deepEqual(scan, { ...(await scanRoot(root, { maxFileBytes: 1000 })), stats: scan.stats }, what);
			assert.equal(scan.files.length, files, what);
			assert.ok(scan.stats.filesStatted > files, `${what}: a compare walk, then a listing one`);
			recorded = records(scan.files);
			assert.equal((await scanRoot(root, { maxFileBytes: 1000, recorded })).unchanged, true, `${what}, recorded`);
		};
		await expectChange("mtime", () => utimes(join(root, "src/a.ts"), 1, 1), 3);
		await expectChange("a file more", () => writeFile(join(root, "src/d.ts"), "export {};\n"), 4);
		await expectChange("a file less", () => rm(join(root, "src/d.ts")), 3);
		const racy = new Map(recorded);
		racy.set("lib/c.py", { ...(recorded.get("lib/c.py") as RecordedFile), racy: true });
		assert.equal((await scanRoot(root, { maxFileBytes: 1000, recorded: racy })).unchanged, false, "racy");
		const relabelled = new Map(recorded);
		relabelled.set("lib/c.py", { ...(recorded.get("lib/c.py") as RecordedFile), language: "go" });
		assert.equal((await scanRoot(root, { maxFileBytes: 1000, recorded: relabelled })).unchanged, false, "language");
		const truncated = await scanRoot(root, { maxFiles: 2, maxFileBytes: 1000 });
		const again = await scanRoot(root, { maxFiles: 2, maxFileBytes: 1000, recorded: records(truncated.files) });
		assert.equal(again.unchanged, true, "the same truncated walk");
		assert.equal(again.truncated, true);
	});

	it("stops when aborted", async () => {
		const root = await tree({ "a.ts": "" });
		const controller = new AbortController();
		controller.abort();
		await assert.rejects(scanRoot(root, { signal: controller.signal }), { name: "AbortError" });
	});
});

describe("scanPaths", () => {
	let root: string;
	before(async () => {
		root = await tree({
			".gitignore": "gen/\n",
			"src/a.ts": "export {};\n",
			"src/b.rb": "",
			"src/min.min.js": "",
			"gen/x.ts": "",
			"node_modules/d/i.ts": "",
			"notes.md": "",
		});
		await mkdir(join(root, "empty"));
		const outside = await tree({ "o.ts": "" });
		await symlink(outside, join(root, "out"), "dir");
	});

	it("classifies named paths as the walk would, touching only their ancestors", async () => {
		const { verdicts, stats } = await scanPaths(root, [
			"src/a.ts",
			"src\\b.rb",
			"./src/min.min.js",
			"gen/x.ts",
			"node_modules/d/i.ts",
			"out/o.ts",
			"notes.md",
			"src/missing.ts",
			"empty",
			"../escape.ts",
			"",
		]);
		assert.deepEqual(
			verdicts.map((v) => [v.path, v.kind]),
			[
				["src/a.ts", "file"],
				["src/b.rb", "gap"],
				["src/min.min.js", "gap"],
				["gen/x.ts", "absent"],
				["node_modules/d/i.ts", "absent"],
				["out/o.ts", "absent"],
				["notes.md", "absent"],
				["src/missing.ts", "absent"],
				["empty", "directory"],
			],
		);
		assert.equal(stats.ignoreFilesRead, 1, "the root .gitignore, read once");
		assert.deepEqual(rootRelativeSegments("a/../b"), undefined);
		assert.deepEqual(rootRelativeSegments("./a//b/"), ["a", "b"]);
	});
});

describe("nested repositories", () => {
	it("are closed: neither the walk nor a path refresh enters a subdirectory with its own .git", async () => {
		const root = await makeTempDir();
		try {
			await mkdir(join(root, "vendor-repo", ".git"), { recursive: true });
			await writeTree(root, {
				"own/a.ts": "export const a = 1;\n",
				"vendor-repo/b.ts": "export const b = 1;\n",
				"worktree/.git": "gitdir: /elsewhere\n",
				"worktree/c.ts": "export const c = 1;\n",
			});
			const scan = await scanRoot(root);
			assert.deepEqual(
				scan.files.map((f) => f.path),
				["own/a.ts"],
			);
			assert.equal(scan.stats.nestedRepositories, 2);
			assert.deepEqual(scan.gaps, [
				{ path: "vendor-repo/", reason: "nested-repository" },
				{ path: "worktree/", reason: "nested-repository" },
			]);
			const paths = await scanPaths(root, ["vendor-repo/b.ts", "worktree/c.ts", "own/a.ts"]);
			assert.deepEqual(
				paths.verdicts.map((v) => v.kind),
				["absent", "absent", "file"],
			);
		} finally {
			await removeTempDir(root);
		}
	});
});
