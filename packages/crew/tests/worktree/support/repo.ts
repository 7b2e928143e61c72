/** Real Git repositories in temp folders for the worktree tests, removed when each test ends. */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TestContext } from "node:test";
import type { GitOptions } from "../../../src/worktree/index.ts";

/** A fresh canonical temp folder deleted after the test. */
export function tempDir(t: TestContext, prefix = "crew-wt-"): string {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
	t.after(() => rmSync(dir, { recursive: true, force: true }));
	return dir;
}

/** Plain git for setting up fixtures (not the code under test), with a fixed identity. */
export function git(cwd: string, ...args: string[]): string {
	return execFileSync(
		"git",
		[
			"-c",
			"user.name=t",
			"-c",
			"user.email=t@t",
			"-c",
			"commit.gpgsign=false",
			"-c",
			"protocol.file.allow=always",
			...args,
		],
		{ cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
	);
}

/** Writes `files` (relative path → content) under `dir`. */
export function writeFiles(dir: string, files: Record<string, string>): void {
	for (const [rel, content] of Object.entries(files)) {
		mkdirSync(dirname(join(dir, rel)), { recursive: true });
		writeFileSync(join(dir, rel), content);
	}
}

/** A repository at `<temp>/<name>` with `files` in a first commit on `main`. */
export function repo(
	t: TestContext,
	files: Record<string, string> = { "README.md": "hello\n" },
	name = "repo",
): string {
	const dir = join(tempDir(t), name);
	mkdirSync(dir);
	git(dir, "-c", "init.defaultBranch=main", "init", "-q");
	writeFiles(dir, files);
	git(dir, "add", "-A");
	git(dir, "commit", "-q", "-m", "init");
	return dir;
}

/** Commits `files` on the current branch of `dir`; returns the new commit. */
export function commit(dir: string, files: Record<string, string>, message = "change"): string {
	writeFiles(dir, files);
	git(dir, "add", "-A");
	git(dir, "commit", "-q", "-m", message);
	return git(dir, "rev-parse", "HEAD").trim();
}

/** Everything a test compares to prove a repository was not touched: HEAD, status, index and refs. */
export function snapshot(dir: string): { head: string; status: string; index: string; refs: string } {
	return {
		head: git(dir, "rev-parse", "HEAD").trim(),
		status: git(dir, "status", "--porcelain=v1", "--untracked-files=all"),
		index: git(dir, "ls-files", "--stage"),
		refs: git(dir, "for-each-ref", "--format=%(refname) %(objectname)"),
	};
}

/** Git options that hide the user's global config (so no identity is configured), for identity tests. */
export function noIdentity(t: TestContext): GitOptions {
	const home = tempDir(t, "crew-home-");
	return { env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config") } };
}

/** A run id shaped like pi-crew's own. */
export const RUN = "20250131-123456-789-0a1b2c3d";
