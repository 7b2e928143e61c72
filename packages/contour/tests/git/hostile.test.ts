// A hostile repository: its config names an fsmonitor program, hooks, textconv, external-diff and filter drivers,
// a pager and more, each of which would log to a marker file. A review of every target, with every side read,
// runs none of them, and leaves the index and config byte-for-byte (and the index's mtime) as they were. A control
// run of plain Git at the end shows the traps were armed.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { newGitWork, readSides, takeSnapshot } from "../../src/git/index.ts";
import { cleanup, commitAll, git, repo, tempDir, write } from "./support.ts";

after(cleanup);

const HOOKS = ["pre-commit", "post-checkout", "post-index-change", "reference-transaction", "fsmonitor-watchman"];

function armed(): { dir: string; marker: string } {
	const dir = repo(
		{
			".gitattributes": "* diff=evil filter=evil\n",
			"clean.ts": "export const clean = 1;\n",
			"staged.ts": "export const staged = 1;\n",
			"dirty.ts": "export const dirty = 1;\n",
		},
		{ commit: true },
	);
	git(dir, "branch", "base");
	write(dir, { "staged.ts": "export const staged = 2;\n" });
	commitAll(dir, "on main");
	write(dir, { "staged.ts": "export const staged = 3;\n", "dirty.ts": "export const dirty = 2;\n", "new.ts": "n\n" });
	git(dir, "add", "staged.ts");
	const traps = tempDir("contour-traps-");
	const marker = join(traps, "marker.log");
	const script = join(traps, "trap.sh");
	writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> ${JSON.stringify(marker)}\ncat\n`);
	chmodSync(script, 0o755);
	const hooks = join(traps, "hooks");
	mkdirSync(hooks);
	for (const name of HOOKS) {
		writeFileSync(join(hooks, name), `#!/bin/sh\necho hook ${name} >> ${JSON.stringify(marker)}\n`);
		chmodSync(join(hooks, name), 0o755);
		writeFileSync(join(dir, ".git", "hooks", name), `#!/bin/sh\necho hook ${name} >> ${JSON.stringify(marker)}\n`);
		chmodSync(join(dir, ".git", "hooks", name), 0o755);
	}
	const config: [string, string][] = [
		["core.fsmonitor", script],
		["core.hooksPath", hooks],
		["core.pager", script],
		["pager.diff", script],
		["core.sshCommand", script],
		["core.askPass", script],
		["core.editor", script],
		["diff.external", script],
		["diff.evil.textconv", script],
		["diff.evil.command", script],
		["filter.evil.clean", script],
		["filter.evil.smudge", script],
		["filter.evil.process", script],
		["filter.evil.required", "true"],
		["gpg.program", script],
		["core.untrackedCache", "true"],
	];
	for (const [key, value] of config) git(dir, "config", key, value);
	// A racily clean entry (the index is no newer than the file), so Git re-hashes it, through the clean filter if
	// it may.
	const { mtime } = statSync(join(dir, "clean.ts"));
	utimesSync(join(dir, ".git", "index"), mtime, mtime);
	return { dir, marker };
}

describe("hostile repository", () => {
	it("runs nothing of the repository and writes nothing to it", async () => {
		const { dir, marker } = armed();
		const index = join(dir, ".git", "index");
		const config = join(dir, ".git", "config");
		const before = { index: readFileSync(index), config: readFileSync(config), mtime: statSync(index).mtimeMs };
		const saved = { external: process.env.GIT_EXTERNAL_DIFF, gitDir: process.env.GIT_DIR };
		const decoy = repo({ "decoy.ts": "d\n" }, { commit: true });
		// The user's environment may name an external diff or another repository; neither is used.
		process.env.GIT_EXTERNAL_DIFF = join(marker, "..", "trap.sh");
		process.env.GIT_DIR = join(decoy, ".git");
		const work = newGitWork();
		try {
			const snapshots = [
				await takeSnapshot({ root: dir, work }),
				await takeSnapshot({ root: dir, target: "working-tree", work }),
				await takeSnapshot({ root: dir, target: "branch", base: "base", work }),
			];
			assert.deepEqual(
				snapshots.map((s) => s.changes.map((c) => c.path)),
				[["staged.ts"], ["dirty.ts", "new.ts", "staged.ts"], ["staged.ts"]],
			);
			for (const snapshot of snapshots) {
				const requests = snapshot.changes.flatMap((c) =>
					[c.before, c.after].flatMap((side) => (side ? [{ path: c.path, side }] : [])),
				);
				const contents = await readSides(snapshot, requests, { work });
				assert.ok(contents.every((c) => c.kind === "text"));
			}
		} finally {
			restore("GIT_EXTERNAL_DIFF", saved.external);
			restore("GIT_DIR", saved.gitDir);
		}
		assert.ok(work.blobsRead > 0 && work.worktreeFilesRead > 0, "the review did read blobs and files");
		assert.equal(existsSync(marker), false, existsSync(marker) ? readFileSync(marker, "utf8") : "");
		assert.deepEqual(readFileSync(index), before.index, "the index is unchanged");
		assert.equal(statSync(index).mtimeMs, before.mtime, "the index was not rewritten");
		assert.deepEqual(readFileSync(config), before.config, "the config is unchanged");
		assert.equal(existsSync(join(dir, ".git", "index.lock")), false);

		// Control: plain Git in the same repository does run the traps.
		try {
			execFileSync("git", ["status", "--porcelain"], { cwd: dir, stdio: "ignore" });
		} catch {
			// A trap may well make Git fail; only the marker matters here.
		}
		assert.equal(existsSync(marker), true, "the traps were armed");
		rmSync(marker);
	});
});

function restore(name: string, value: string | undefined): void {
	if (value === undefined) delete process.env[name];
	else process.env[name] = value;
}
