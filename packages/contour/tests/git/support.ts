/**
 * Fixtures for the Git layer's tests: real repositories in temp directories, driven by the real `git` with a
 * fixed identity. Test setup may write the repository in ways a review never does (update-index, commits).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const made: string[] = [];

/** A fresh empty directory (canonical path), removed by `cleanup`. */
export function tempDir(prefix = "contour-git-"): string {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
	made.push(dir);
	return dir;
}

/** Removes every directory `tempDir` made. */
export function cleanup(): void {
	for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Runs git in `cwd` with a fixed identity and no user or system config; returns stdout. */
export function git(cwd: string, ...args: string[]): string {
	return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], {
		cwd,
		encoding: "utf8",
		stdio: ["pipe", "pipe", "pipe"],
		env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
	});
}

/** Writes `files` (path → content) under `dir`, making parent directories. */
export function write(dir: string, files: Record<string, string | Uint8Array>): void {
	for (const [path, content] of Object.entries(files)) {
		const file = join(dir, path);
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, content);
	}
}

/** A repository on branch main holding `files`; with `commit` they are committed as "init". */
export function repo(files: Record<string, string | Uint8Array> = {}, options: { commit?: boolean } = {}): string {
	const dir = tempDir();
	git(dir, "init", "-q", "-b", "main");
	write(dir, files);
	if (options.commit) {
		git(dir, "add", "-A");
		git(dir, "commit", "-q", "-m", "init");
	}
	return dir;
}

/** Stages everything and commits it. */
export function commitAll(dir: string, message = "change"): string {
	git(dir, "add", "-A");
	git(dir, "commit", "-q", "--allow-empty", "-m", message);
	return git(dir, "rev-parse", "HEAD").trim();
}

/** Writes `content` to the index at `path` without touching the worktree (test setup only), like `git add -p`. */
export function stageContent(dir: string, path: string, content: string): string {
	const oid = execFileSync("git", ["hash-object", "-w", "--stdin"], {
		cwd: dir,
		input: content,
		encoding: "utf8",
	}).trim();
	git(dir, "update-index", "--cacheinfo", `100644,${oid},${path}`);
	return oid;
}
