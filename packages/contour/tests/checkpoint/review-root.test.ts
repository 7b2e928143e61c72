/**
 * The review pipeline on real temporary Git repositories: the three targets, reuse of an unchanged snapshot's
 * report, content reuse by blob id (a one-file change parses one side; staging reviewed bytes parses nothing),
 * abort, retirement during a review, policies, and the snapshot identity a report carries. Issue: "Measured: work
 * counts in tests: a no-change pass parses, reads and rebuilds nothing; a one-file change parses one file; staging
 * already-analysed bytes reuses the model."
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ResidentMaps } from "pi-fovea/engine";
import { ReviewCache } from "../../src/checkpoint/review-cache.ts";
import { reviewRoot } from "../../src/checkpoint/review-root.ts";
import { takeSnapshot } from "../../src/git/index.ts";
import { parsePolicy } from "../../src/review/index.ts";
import { cleanup, commitAll, git, repo, tempDir, write } from "../git/support.ts";
import { LANGUAGES } from "./fixtures.ts";

after(cleanup);

const TS = LANGUAGES.typescript;
const HELPER = "export function helper(a: number): number {\n\treturn a * 2;\n}\n";

/** A committed repository with the simple router and a helper beside it. */
function project(): string {
	return repo({ [TS.path]: TS.simple, "src/helper.ts": HELPER, "README.md": "# demo\n" }, { commit: true });
}

describe("review targets", () => {
	it("staged (the default) reviews HEAD→index and labels the snapshot it analysed", async () => {
		const dir = project();
		write(dir, { [TS.path]: TS.branchy });
		git(dir, "add", TS.path);
		write(dir, { "src/helper.ts": `${HELPER}// unstaged\n` });
		const report = await reviewRoot({
			root: dir,
			cache: new ReviewCache(),
			origin: { kind: "checkpoint", agent: "a1" },
		});
		assert.equal(report.root, dir);
		assert.equal(report.target, "staged");
		assert.deepEqual(
			report.files.map((f) => [f.path, f.status]),
			[[TS.path, "modified"]],
			"the unstaged edit is not part of the commit candidate",
		);
		const [finding] = report.findings;
		assert.equal(finding?.kind, "complexity");
		assert.deepEqual([finding?.file, finding?.line, finding?.before?.value, finding?.after.value], [TS.path, 1, 1, 12]);
		const snapshot = await takeSnapshot({ root: dir });
		assert.deepEqual(report.snapshot, {
			head: git(dir, "rev-parse", "HEAD").trim(),
			branch: "main",
			indexDigest: snapshot.indexDigest,
			worktreeDigest: snapshot.worktreeDigest,
			objectFormat: "sha1",
		});
		assert.deepEqual(report.origin, { kind: "checkpoint", agent: "a1" }, "origin is recorded apart from the root");
		assert.equal(report.policy, null);
		assert.match(report.exposureNote ?? "", /exposure not modelled: no code map/);
	});

	it("working-tree reviews HEAD→worktree, unstaged and untracked files included", async () => {
		const dir = project();
		write(dir, { [TS.path]: TS.branchy, "src/extra.ts": "export const extra = 1;\n" });
		const report = await reviewRoot({
			root: dir,
			target: "working-tree",
			cache: new ReviewCache(),
			origin: { kind: "cli" },
		});
		assert.deepEqual(
			report.files.map((f) => [f.path, f.status]),
			[
				["src/extra.ts", "added"],
				[TS.path, "modified"],
			],
		);
		assert.equal(report.findings[0]?.kind, "complexity");
	});

	it("branch reviews merge-base(base)→HEAD: the base's own later commits are not part of it", async () => {
		const dir = project();
		git(dir, "checkout", "-q", "-b", "feature");
		write(dir, { [TS.path]: TS.branchy });
		commitAll(dir, "feature work");
		git(dir, "checkout", "-q", "main");
		write(dir, { "src/main-only.ts": "export const m = 1;\n" });
		commitAll(dir, "main moves on");
		const mergeBase = git(dir, "merge-base", "main", "feature").trim();
		git(dir, "checkout", "-q", "feature");
		const report = await reviewRoot({
			root: dir,
			target: "branch",
			base: "main",
			cache: new ReviewCache(),
			origin: { kind: "cli" },
		});
		assert.deepEqual(report.base, { ref: "main", oid: git(dir, "rev-parse", "main").trim(), mergeBase });
		assert.deepEqual(
			report.files.map((f) => f.path),
			[TS.path],
		);
		assert.equal(report.findings[0]?.kind, "complexity");
		assert.equal(report.snapshot.branch, "feature");
	});
});

describe("work counts", () => {
	it("a second review of an unchanged root reads, measures and parses nothing and reissues the analysis", async () => {
		const dir = project();
		write(dir, { [TS.path]: TS.branchy });
		git(dir, "add", "-A");
		const cache = new ReviewCache();
		const first = await reviewRoot({ root: dir, cache, origin: { kind: "background" } });
		assert.ok(first.work.parses > 0);
		const second = await reviewRoot({ root: dir, cache, origin: { kind: "checkpoint", sessionId: "s1" } });
		assert.equal(second.reusedFrom, first.id);
		assert.notEqual(second.id, first.id);
		assert.equal(second.key, first.key);
		const { gitProcesses, ...rest } = second.work;
		assert.equal(
			gitProcesses,
			3,
			"the snapshot is listed again (rev-parse, config, status); no object reader starts for a kept analysis",
		);
		assert.ok(
			Object.values(rest).every((n) => n === 0),
			`nothing read, measured, parsed or rebuilt: ${JSON.stringify(rest)}`,
		);
		assert.deepEqual(second.findings, first.findings);
		assert.deepEqual(second.origin, { kind: "checkpoint", sessionId: "s1" });
		assert.equal(cache.reports.list(dir).length, 1, "one kept report per analysis");
		assert.equal(cache.reports.latest(dir)?.id, second.id);
	});

	it("a working-tree pass on an unchanged root does not even hash the dirty files", async () => {
		const dir = project();
		write(dir, { [TS.path]: TS.branchy, "src/new.ts": "export const n = 1;\n" });
		const cache = new ReviewCache();
		const first = await reviewRoot({ root: dir, target: "working-tree", cache, origin: { kind: "background" } });
		assert.ok(first.work.worktreeFilesRead >= 2);
		const second = await reviewRoot({ root: dir, target: "working-tree", cache, origin: { kind: "background" } });
		assert.equal(second.reusedFrom, first.id);
		assert.deepEqual([second.work.worktreeFilesRead, second.work.blobsRead, second.work.parses], [0, 0, 0]);
		assert.equal(second.work.gitProcesses, 3, "one listing: rev-parse, config and status, no second snapshot");
		write(dir, { "src/new.ts": "export const n = 2;\n" });
		const third = await reviewRoot({ root: dir, target: "working-tree", cache, origin: { kind: "background" } });
		assert.equal(third.reusedFrom, undefined, "an edit is seen");
		assert.equal(third.work.sidesMeasured, 1);
	});

	it("a one-file change parses only that file's new side; the unchanged before side comes from the cache", async () => {
		const dir = project();
		const cache = new ReviewCache();
		write(dir, { [TS.path]: TS.branchy });
		const first = await reviewRoot({ root: dir, target: "working-tree", cache, origin: { kind: "background" } });
		assert.equal(first.work.sidesMeasured, 2, "before and after of the router");
		assert.equal(first.work.importsExtracted, 2);
		assert.equal(first.work.cloneFilesMeasured, 1, "the helper next to it, for clone search");
		assert.equal(first.work.parses, 3, "one parse per side gives its measure and its imports, one for the helper");
		write(dir, { [TS.path]: TS.branchy.replace("return x;", "return x + 1;") });
		const second = await reviewRoot({ root: dir, target: "working-tree", cache, origin: { kind: "background" } });
		assert.deepEqual(
			[second.work.sidesMeasured, second.work.importsExtracted, second.work.cloneFilesMeasured, second.work.parses],
			[1, 1, 0, 1],
			"one side measured and its imports extracted, from one parse of one file",
		);
		assert.equal(second.work.measuresReused, 1);
		assert.equal(second.work.blobsRead, 0, "the committed side is not read again");
	});

	it("with a code map, a staged side the worktree also holds is parsed once, for the review and the map", async () => {
		// The map's default fact cache lives under FOVEA_CACHE_DIR: a temp dir of this test.
		const saved = process.env.FOVEA_CACHE_DIR;
		process.env.FOVEA_CACHE_DIR = tempDir("contour-facts-");
		try {
			const dir = project();
			write(dir, { [TS.path]: TS.branchy });
			git(dir, "add", TS.path);
			const maps = new ResidentMaps(2);
			const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" }, maps });
			assert.equal(report.work.sidesMeasured, 2, "before and after of the router");
			assert.equal(report.work.parses, 2, "one parse per side (the map's facts rule the helper out of clone search)");
			assert.equal(report.work.mapFilesParsed, 1, "the map parsed the helper; the router's facts came from its side");
			assert.equal(maps.use(dir).index.snapshot?.files.get(TS.path)?.symbols[0]?.name, "route");

			// Partially staged: the worktree holds other bytes than the staged side, so the map parses them itself.
			const partial = project();
			write(partial, { [TS.path]: TS.branchy });
			git(partial, "add", TS.path);
			write(partial, { [TS.path]: `${TS.branchy}// unstaged\n` });
			const second = await reviewRoot({ root: partial, cache: new ReviewCache(), origin: { kind: "cli" }, maps });
			assert.equal(second.work.mapFilesParsed, 2, "router and helper");
		} finally {
			if (saved === undefined) delete process.env.FOVEA_CACHE_DIR;
			else process.env.FOVEA_CACHE_DIR = saved;
		}
	});

	it("with a code map, a change of no parsed source builds no map, and a change without findings builds no graph", async () => {
		const saved = process.env.FOVEA_CACHE_DIR;
		process.env.FOVEA_CACHE_DIR = tempDir("contour-facts-");
		try {
			const dir = project();
			write(dir, { "README.md": "# demo\n\nMore words.\n", "dist/app.min.js": "var a=1;\n" });
			git(dir, "add", "-A");
			const maps = new ResidentMaps(2);
			const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" }, maps });
			assert.deepEqual(
				report.files.map((file) => file.path),
				["README.md", "dist/app.min.js"],
			);
			assert.deepEqual([report.work.mapFilesParsed, report.work.graphsBuilt, report.work.parses], [0, 0, 0]);
			assert.equal(maps.use(dir).index.snapshot, undefined, "the root's map never refreshed");
			assert.deepEqual(report.notes, [], "nothing is missing for want of a map");
			assert.equal(report.exposureNote, undefined);
			assert.deepEqual(report.findings, []);

			// Code in the change: the map's facts are brought up to date, and its graph waits for a finding's exposure.
			write(dir, { "src/helper.ts": `${HELPER}// a note\n` });
			git(dir, "add", "-A");
			const quiet = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" }, maps });
			assert.deepEqual(quiet.findings, []);
			assert.equal(quiet.work.mapFilesParsed, 1, "the router, unchanged, parsed for the project's facts");
			assert.equal(quiet.work.graphsBuilt, 0, "no finding asks for exposure: no graph");
			write(dir, { [TS.path]: TS.branchy });
			git(dir, "add", "-A");
			const found = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" }, maps });
			assert.ok(found.findings.length > 0 && found.work.exposureQueries > 0);
			assert.equal(found.work.graphsBuilt, 1, "the graph is built for the finding's exposure");
		} finally {
			if (saved === undefined) delete process.env.FOVEA_CACHE_DIR;
			else process.env.FOVEA_CACHE_DIR = saved;
		}
	});

	it("a renamed file is one file with its previous path, and its unchanged bytes are read and parsed once", async () => {
		const dir = project();
		git(dir, "mv", "src/helper.ts", "src/helpers.ts");
		const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" } });
		assert.deepEqual(report.files, [
			{
				path: "src/helpers.ts",
				previousPath: "src/helper.ts",
				status: "renamed",
				lines: { before: 3, after: 3 },
				sourceLines: { before: 3, after: 3 },
			},
		]);
		assert.deepEqual(report.findings, []);
		assert.deepEqual(
			report.deltas.map((d) => [d.status, d.before?.file, d.after?.file]),
			[],
			"the file moved; its callables, in their place in it, did not",
		);
		assert.deepEqual([report.work.blobsRead, report.work.sidesMeasured, report.work.importsExtracted], [1, 1, 1]);
	});

	it("staging bytes already reviewed in the worktree reuses their measures: no blob read, nothing parsed", async () => {
		const dir = project();
		const cache = new ReviewCache();
		write(dir, { [TS.path]: TS.branchy });
		const worktree = await reviewRoot({ root: dir, target: "working-tree", cache, origin: { kind: "background" } });
		git(dir, "add", TS.path);
		const staged = await reviewRoot({ root: dir, target: "staged", cache, origin: { kind: "checkpoint" } });
		assert.equal(staged.reusedFrom, undefined, "a different target is a new analysis");
		assert.deepEqual(
			[staged.work.sidesMeasured, staged.work.importsExtracted, staged.work.parses, staged.work.blobsRead],
			[0, 0, 0, 0],
		);
		assert.equal(staged.work.measuresReused, 2);
		assert.deepEqual(staged.findings, worktree.findings);
	});
});

describe("abort, retirement and roots", () => {
	it("an aborted signal rejects with its reason and keeps no report", async () => {
		const dir = project();
		const cache = new ReviewCache();
		const controller = new AbortController();
		controller.abort();
		await assert.rejects(
			reviewRoot({ root: dir, cache, origin: { kind: "background" }, signal: controller.signal }),
			(error: Error) => error.name === "AbortError",
		);
		const later = new AbortController();
		write(dir, { [TS.path]: TS.branchy });
		// Aborts mid-review, when the pipeline asks for the code map after reading and measuring.
		const maps = {
			use() {
				later.abort();
				throw new Error("no map");
			},
		};
		await assert.rejects(
			reviewRoot({
				root: dir,
				target: "working-tree",
				cache,
				origin: { kind: "background" },
				signal: later.signal,
				maps,
			}),
			(error: Error) => error.name === "AbortError",
		);
		assert.equal(cache.reports.size, 0);
	});

	it("a root forgotten (retired) while its review runs gets no report published", async () => {
		const dir = project();
		const cache = new ReviewCache();
		write(dir, { [TS.path]: TS.branchy });
		const maps = {
			use(root: string): never {
				cache.reports.forget(root);
				throw new Error("map unavailable");
			},
		};
		const report = await reviewRoot({ root: dir, target: "working-tree", cache, origin: { kind: "background" }, maps });
		assert.equal(report.findings.length, 1, "the caller still gets its answer");
		assert.match(report.exposureNote ?? "", /exposure not modelled: map unavailable/);
		assert.equal(cache.reports.get(report.id), undefined, "but nothing is published into the new boundary");
	});

	it("a subdirectory as root reviews its worktree's top level and says which directory was asked for", async () => {
		const dir = project();
		const report = await reviewRoot({ root: join(dir, "src"), cache: new ReviewCache(), origin: { kind: "cli" } });
		assert.equal(report.root, dir);
		assert.equal(report.requestedRoot, join(dir, "src"));
		assert.deepEqual(report.files, []);
	});
});

describe("policy", () => {
	const policyJson = JSON.stringify({
		regions: { ui: "src/ui/**", db: "src/db/**" },
		forbid: [{ from: "ui", to: "db", reason: "the UI goes through the API" }],
	});

	it("the root's policy file makes a new forbidden import a violation, ranked first", async () => {
		const dir = repo(
			{
				"src/ui/view.ts": "export function view() {\n\treturn 1;\n}\n",
				"src/db/store.ts": "export function store() {\n\treturn 2;\n}\n",
				".pi/contour/policy.json": policyJson,
			},
			{ commit: true },
		);
		write(dir, {
			"src/ui/view.ts": 'import { store } from "../db/store.ts";\nexport function view() {\n\treturn store();\n}\n',
			[TS.path]: TS.branchy,
		});
		git(dir, "add", "-A");
		const cache = new ReviewCache();
		const maps = new ResidentMaps(2, { cache: false });
		const advisory = await reviewRoot({ root: dir, cache, origin: { kind: "cli" }, maps });
		assert.equal(advisory.policy, null, "a policy file applies only when asked for");
		assert.equal(advisory.policyViolations, 0);
		const report = await reviewRoot({ root: dir, cache, origin: { kind: "cli" }, rootPolicy: true, maps });
		assert.deepEqual(report.policy, { source: join(dir, ".pi/contour/policy.json"), rules: 1 });
		assert.equal(report.policyViolations, 1);
		const [first] = report.findings;
		assert.deepEqual(
			[first?.kind, first?.file, first?.line, first?.policy],
			["forbidden-import", "src/ui/view.ts", 1, true],
		);
		assert.notEqual(report.key, advisory.key, "the policy is part of what was analysed");
	});

	it("a root's policy directory that a symlink puts outside the root is refused, not read", async () => {
		const elsewhere = repo({ "contour/policy.json": policyJson });
		const dir = repo({ "src/ui/view.ts": "export const v = 1;\n" }, { commit: true });
		symlinkSync(elsewhere, join(dir, ".pi"));
		write(dir, { "src/ui/view.ts": "export const v = 2;\n" });
		git(dir, "add", "src/ui/view.ts");
		await assert.rejects(
			reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" }, rootPolicy: true }),
			/policy file .* resolves to .*, outside the root \(through a symlink\)/,
		);
		// Without the root's policy asked for, the review runs as before.
		const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" } });
		assert.equal(report.policy, null);
	});

	it("a policy file linked within the root is followed; one leading nowhere, or not a file, is an error", async () => {
		const dir = repo({ "src/ui/view.ts": "export const v = 1;\n", ".pi/real.json": policyJson }, { commit: true });
		mkdirSync(join(dir, ".pi/contour"), { recursive: true });
		symlinkSync("../real.json", join(dir, ".pi/contour/policy.json"));
		write(dir, { "src/ui/view.ts": "export const v = 2;\n" });
		git(dir, "add", "src/ui/view.ts");
		const review = () => reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" }, rootPolicy: true });
		const report = await review();
		assert.deepEqual(report.policy, { source: join(dir, ".pi/contour/policy.json"), rules: 1 });
		rmSync(join(dir, ".pi/real.json"));
		await assert.rejects(review(), /policy file .* is a symbolic link that leads nowhere/);
		rmSync(join(dir, ".pi/contour/policy.json"));
		execFileSync("mkfifo", [join(dir, ".pi/contour/policy.json")]);
		await assert.rejects(review(), /policy file .* is not a regular file/);
	});

	it("a staged review sees a cycle through the staged state of a file edited since", async () => {
		const dir = repo(
			{ "src/a.ts": "export const a = 1;\n", "src/b.ts": 'import { a } from "./a";\nexport const b = a;\n' },
			{ commit: true },
		);
		// Committed and staged: `b` imports `a`. Staged now: `a` imports `b`, closing a cycle. Only in the working
		// copy: `b` no longer imports `a`, so the map (which reads the working copy) sees no cycle.
		write(dir, { "src/a.ts": 'import { b } from "./b";\nexport const a = b;\n' });
		git(dir, "add", "src/a.ts");
		write(dir, { "src/b.ts": "export const b = 2;\n" });
		const maps = new ResidentMaps(2, { cache: false });
		const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" }, maps });
		const cycles = report.findings.filter((f) => f.kind === "import-cycle");
		assert.equal(cycles.length, 1, "the commit closes a → b → a");
		assert.doesNotMatch(report.notes.join("\n"), /import graph/);
		assert.equal(report.work.importsExtracted >= 2, true, "a's staged side and b's index blob");
	});

	it("a staged review does not take unstaged imports of other files for the commit's", async () => {
		const dir = repo(
			{
				"src/db/q.ts": "export const q = 1;\n",
				"src/ui/v.ts": "export const v = 1;\n",
				"src/a.ts": "export const a = 1;\n",
				"src/b.ts": "export const b = 1;\n",
			},
			{ commit: true },
		);
		// Staged: a new file, and `a` importing `b`. Only in the working copy: `v` importing the database, `b`
		// importing `a` (a cycle the commit would not have).
		write(dir, {
			"src/db/x.ts": "export const x = 1;\n",
			"src/a.ts": 'import { b } from "./b";\nexport const a = b;\n',
		});
		git(dir, "add", "src/db/x.ts", "src/a.ts");
		write(dir, {
			"src/ui/v.ts": 'import { x } from "../db/x";\nexport const v = x;\n',
			"src/b.ts": 'import { a } from "./a";\nexport const b = a;\n',
		});
		const policy = { policy: parsePolicy(policyJson), source: "test" };
		const maps = new ResidentMaps(2, { cache: false });
		const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" }, policy, maps });
		assert.deepEqual(
			report.findings.map((f) => f.kind).filter((k) => k === "forbidden-import" || k === "import-cycle"),
			[],
			"neither the unstaged import of the database nor the unstaged half of a cycle is the commit's",
		);
		assert.doesNotMatch(report.notes.join("\n"), /import graph/, "both were read as the index holds them");
		// The working tree's review sees both.
		const worktree = await reviewRoot({
			root: dir,
			cache: new ReviewCache(),
			origin: { kind: "cli" },
			policy,
			maps,
			target: "working-tree",
		});
		const kinds = worktree.findings.map((f) => f.kind);
		assert.ok(kinds.includes("forbidden-import") && kinds.includes("import-cycle"), kinds.join(", "));
	});

	it("without a code map the policy sees imports among changed files only, and the report says so", async () => {
		const dir = repo({ "src/ui/view.ts": "export const v = 1;\n" }, { commit: true });
		write(dir, {
			"src/ui/view.ts": 'import { store } from "../db/store.ts";\nexport const v = store();\n',
			"src/db/store.ts": "export function store() {\n\treturn 2;\n}\n",
		});
		git(dir, "add", "-A");
		const policy = { policy: parsePolicy(policyJson), source: "test" };
		const report = await reviewRoot({ root: dir, cache: new ReviewCache(), origin: { kind: "cli" }, policy });
		assert.equal(report.policyViolations, 1, "both files are part of the change");
		assert.match(report.notes.join("\n"), /policy checked on imports among the changed files only/);
	});
});
