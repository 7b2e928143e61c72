/**
 * `contour hook install|uninstall|status` on real repositories, with real `git commit` running the hook (hooks are
 * on only in these temp repositories: the git helper reads no user or system config). Advisory by default, blocking
 * only under an explicit policy; another tool's hook is kept and chained, and restored by uninstall; linked worktrees
 * share the common dir's hook; `core.hooksPath` inside the repository is used, outside it refused; a hook whose Node
 * or CLI is gone says so.
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { cleanup, repo, tempDir, write } from "./git/support.ts";

after(cleanup);

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const caches = tempDir("contour-hook-cache-");
const ENV = {
	...process.env,
	FOVEA_CACHE_DIR: caches,
	CONTOUR_CACHE_DIR: "",
	NODE_OPTIONS: "",
	GIT_CONFIG_NOSYSTEM: "1",
	GIT_CONFIG_GLOBAL: "/dev/null",
};

function contour(args: string[], cwd: string): { code: number | null; stdout: string; stderr: string } {
	const run = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", env: ENV });
	return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Real git with hooks on (a fixed identity, no user config); returns the exit code and both outputs. */
function gitRun(cwd: string, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
	const run = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], {
		cwd,
		encoding: "utf8",
		env: ENV,
	});
	return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function head(dir: string): string {
	return execFileSync("git", ["rev-parse", "HEAD"], { cwd: dir, encoding: "utf8", env: ENV }).trim();
}

/** A TS function with `branches` ifs: cyclomatic complexity `branches + 1`. */
function branchy(name: string, branches: number): string {
	const body = Array.from({ length: branches }, (_, i) => `\tif (x === ${i}) {\n\t\ty += ${i};\n\t}`).join("\n");
	return `export function ${name}(x: number): number {\n\tlet y = 0;\n${body}\n\treturn y;\n}\n`;
}

const FOREIGN_HOOK = '#!/bin/sh\necho "lint ran" > "$(git rev-parse --show-toplevel)/lint-ran"\n';

/**
 * A repository whose policy forbids ui → db imports, with contour's blocking hook installed and a ui → db import
 * written to the worktree (not staged); `before` is its HEAD.
 */
function uiUsesDb(): { dir: string; before: string } {
	const policy = JSON.stringify({
		regions: { ui: "src/ui/**", db: "src/db/**" },
		forbid: [{ from: "ui", to: "db" }],
	});
	const dir = repo(
		{
			".pi/contour/policy.json": policy,
			"src/ui/view.ts": "export function view() {\n\treturn 1;\n}\n",
			"src/db/store.ts": "export function store() {\n\treturn 2;\n}\n",
		},
		{ commit: true },
	);
	assert.equal(contour(["hook", "install", "--blocking"], dir).code, 0);
	const before = head(dir);
	write(dir, {
		"src/ui/view.ts": 'import { store } from "../db/store.ts";\nexport function view() {\n\treturn store();\n}\n',
	});
	return { dir, before };
}

describe("contour hook", () => {
	it("installs advisory beside another tool's hook, runs on git commit, reports status, and uninstall restores", () => {
		const dir = repo({ "src/a.ts": branchy("parse", 2), ".gitignore": "lint-ran\n" }, { commit: true });
		const hook = join(dir, ".git", "hooks", "pre-commit");
		writeFileSync(hook, FOREIGN_HOOK, { mode: 0o755 });
		assert.match(contour(["hook", "status"], dir).stdout, /not installed; .* is another tool's hook/);

		const installed = contour(["hook", "install"], dir);
		assert.equal(installed.code, 0, installed.stderr);
		assert.match(installed.stdout, /contour hook installed: .*pre-commit \(advisory/);
		assert.match(installed.stdout, /kept the existing pre-commit hook as pre-commit\.contour-chained/);
		assert.match(installed.stdout, new RegExp(`runs: ${process.execPath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} `));

		write(dir, { "src/a.ts": branchy("parse", 14) });
		gitRun(dir, "add", "-A");
		const commit = gitRun(dir, "commit", "-q", "-m", "complex");
		assert.equal(commit.code, 0, "advisory: the commit goes through");
		assert.match(commit.stderr, /^contour review · root /m, "the hook printed the staged review");
		assert.match(commit.stderr, /complexity up \(1\): `parse` 3 → 15/);
		assert.ok(existsSync(join(dir, "lint-ran")), "the chained hook ran first");

		const status = contour(["hook", "status", "--json"], dir);
		const info = JSON.parse(status.stdout) as {
			installed: string;
			mode: string;
			chained: boolean;
			node: { exists: boolean };
		};
		assert.deepEqual([info.installed, info.mode, info.chained, info.node.exists], ["contour", "advisory", true, true]);

		const removed = contour(["hook", "uninstall"], dir);
		assert.equal(removed.code, 0, removed.stderr);
		assert.match(removed.stdout, /the earlier pre-commit hook is back/);
		assert.equal(readFileSync(hook, "utf8"), FOREIGN_HOOK);
		assert.equal(existsSync(`${hook}.contour-chained`), false);
		const again = contour(["hook", "uninstall"], dir);
		assert.equal(again.code, 2, "a hook contour did not write is left alone");
		assert.match(again.stderr, /was not written by contour: it is left as it is/);
		assert.equal(readFileSync(hook, "utf8"), FOREIGN_HOOK);
	});

	it("blocking stops a commit that violates the repository's policy and lets others through", () => {
		const { dir, before } = uiUsesDb();
		gitRun(dir, "add", "-A");
		const blocked = gitRun(dir, "commit", "-q", "-m", "ui uses db");
		assert.notEqual(blocked.code, 0);
		assert.match(blocked.stderr, /violates the repository's contour policy/);
		assert.equal(head(dir), before, "nothing was committed");
		write(dir, { "src/ui/view.ts": "export function view() {\n\treturn 3;\n}\n" });
		gitRun(dir, "add", "-A");
		assert.equal(gitRun(dir, "commit", "-q", "-m", "fine").code, 0);
		assert.notEqual(head(dir), before);
	});

	it("blocking reviews what the commit records: `commit -a` and `commit <path>` stage into Git's own index file", () => {
		const { dir, before } = uiUsesDb();
		assert.doesNotMatch(contour(["hook", "status"], dir).stdout, /outdated/, "the hook install wrote is current");
		for (const args of [
			["commit", "-q", "-a", "-m", "ui uses db"],
			["commit", "-q", "-m", "ui uses db", "--", "src/ui/view.ts"],
		]) {
			const blocked = gitRun(dir, ...args);
			assert.notEqual(blocked.code, 0, `git ${args.join(" ")} was let through:\n${blocked.stderr}`);
			assert.match(blocked.stderr, /violates the repository's contour policy/);
			assert.equal(head(dir), before, "nothing was committed");
		}

		// A hook an earlier contour wrote (its review line without --index-file) is named as outdated by status.
		const hook = join(dir, ".git", "hooks", "pre-commit");
		const current = readFileSync(hook, "utf8");
		const review = /^if \[ -n "\$\{GIT_INDEX_FILE:-\}" \]; then\n[\s\S]*?\nfi\n/m;
		assert.match(current, review);
		writeFileSync(hook, current.replace(review, '"$NODE" "$CLI" review --staged >&2\n'));
		const status = contour(["hook", "status"], dir);
		assert.match(status.stdout, /^outdated: an earlier contour wrote this hook .*run contour hook install again$/m);
		assert.equal(contour(["hook", "install", "--blocking"], dir).code, 0);
		assert.doesNotMatch(contour(["hook", "status"], dir).stdout, /outdated/, "install rewrites it");
	});

	it("a linked worktree installs into the common dir; core.hooksPath inside is used, outside refused", () => {
		const dir = repo({ "src/a.ts": branchy("parse", 2) }, { commit: true });
		const linked = join(tempDir("contour-hook-linked-"), "wt");
		gitRun(dir, "worktree", "add", "-q", "-b", "feature", linked);
		const fromLinked = contour(["hook", "install"], linked);
		assert.equal(fromLinked.code, 0, fromLinked.stderr);
		assert.ok(readFileSync(join(dir, ".git", "hooks", "pre-commit"), "utf8").includes("contour-hook"));
		assert.match(contour(["hook", "status"], dir).stdout, /^contour hook: installed, advisory/m, "one hook for both");
		write(linked, { "src/a.ts": branchy("parse", 3) });
		gitRun(linked, "add", "-A");
		const commit = gitRun(linked, "commit", "-q", "-m", "from the linked worktree");
		assert.equal(commit.code, 0);
		assert.match(commit.stderr, new RegExp(`^contour review · root ${linked}`, "m"));
		assert.equal(contour(["hook", "uninstall"], linked).code, 0);

		gitRun(dir, "config", "core.hooksPath", ".githooks");
		const inside = contour(["hook", "install"], dir);
		assert.equal(inside.code, 0, inside.stderr);
		assert.match(inside.stdout, /hooks: .*\.githooks \(core\.hooksPath\)$/m);
		assert.ok(existsSync(join(dir, ".githooks", "pre-commit")));
		assert.equal(contour(["hook", "uninstall"], dir).code, 0);

		const shared = tempDir("contour-hook-shared-");
		gitRun(dir, "config", "core.hooksPath", shared);
		const outside = contour(["hook", "install"], dir);
		assert.equal(outside.code, 2);
		assert.match(
			outside.stderr,
			/outside this repository .* would run for every repository that shares that directory/,
		);
		assert.equal(existsSync(join(shared, "pre-commit")), false);
	});

	it("a hook whose recorded Node is gone says so and lets the commit through", () => {
		const dir = repo({ "src/a.ts": branchy("parse", 2) }, { commit: true });
		assert.equal(contour(["hook", "install"], dir).code, 0);
		const hook = join(dir, ".git", "hooks", "pre-commit");
		writeFileSync(hook, readFileSync(hook, "utf8").replace(/^NODE='.*'$/m, `NODE='${join(dir, "gone", "node")}'`));
		write(dir, { "src/a.ts": branchy("parse", 3) });
		gitRun(dir, "add", "-A");
		const commit = gitRun(dir, "commit", "-q", "-m", "node gone");
		assert.equal(commit.code, 0);
		assert.match(
			commit.stderr,
			/contour hook: cannot review this commit: .*gone\/node or .* is gone; run contour hook install again/,
		);
		assert.match(contour(["hook", "status"], dir).stdout, /^missing: .*gone\/node/m);
	});
});
