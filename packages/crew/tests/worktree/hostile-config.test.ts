// A repository whose own config names a program for every place Git would run one (filter drivers, a merge driver,
// textconv and external diff, a submodule update command, fsmonitor, hooks, a signing program), driven through every
// worktree operation of pi-crew: none of those programs may run. Each writes a line to a marker file if it does.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
	cleanupTaskWorktree,
	createTaskWorktree,
	isWorktreeError,
	listTaskWorktrees,
	mergeBack,
	previewMerge,
} from "../../src/worktree/index.ts";
import { git, RUN, repo, tempDir } from "./support/repo.ts";

const HOOKS = [
	"pre-commit",
	"prepare-commit-msg",
	"commit-msg",
	"post-commit",
	"pre-merge-commit",
	"post-merge",
	"post-checkout",
	"reference-transaction",
	"post-index-change",
	"pre-auto-gc",
	"post-rewrite",
];

/** Plants a program for each configurable place in `root`'s config; returns the marker file they would write. */
function plantPrograms(root: string, traps: string): string {
	const marker = join(traps, "ran.log");
	const trap = join(traps, "trap");
	// Filters must pass content through if they run, so a run is seen in the marker, not as a broken checkout.
	writeFileSync(
		trap,
		`#!/bin/sh\necho "$1" >> ${JSON.stringify(marker)}\ncase "$1" in clean|smudge) cat ;; textconv) cat "$2" ;; esac\nexit 0\n`,
	);
	chmodSync(trap, 0o755);
	const fsmonitor = join(traps, "fsmonitor");
	writeFileSync(fsmonitor, `#!/bin/sh\necho fsmonitor >> ${JSON.stringify(marker)}\n`);
	chmodSync(fsmonitor, 0o755);
	const external = join(traps, "external-diff");
	writeFileSync(external, `#!/bin/sh\necho external-diff >> ${JSON.stringify(marker)}\n`);
	chmodSync(external, 0o755);
	const hooks = join(traps, "hooks");
	mkdirSync(hooks);
	for (const hook of HOOKS) {
		writeFileSync(join(hooks, hook), `#!/bin/sh\necho hook-${hook} >> ${JSON.stringify(marker)}\n`);
		chmodSync(join(hooks, hook), 0o755);
	}
	for (const [key, value] of [
		["filter.evil.clean", `${trap} clean`],
		["filter.evil.smudge", `${trap} smudge`],
		["filter.evil.required", "true"],
		// Git runs a filter's `process` instead of its clean and smudge, so the long-running kind gets its own driver.
		["filter.proc.process", `${trap} process`],
		["merge.evil.name", "a hostile merge driver"],
		["merge.evil.driver", `${trap} merge %O %A %B`],
		["diff.evil.textconv", `${trap} textconv`],
		["diff.evil.command", `${trap} diff-command`],
		["diff.external", external],
		["submodule.vendor/lib.update", `!${trap} submodule-update`],
		["core.fsmonitor", fsmonitor],
		["core.hooksPath", hooks],
		["commit.gpgSign", "true"],
		["gpg.program", `${trap} gpg`],
	] as const)
		git(root, "config", key, value);
	return marker;
}

/** What ran so far (empty when nothing did). */
function ran(marker: string): string {
	return existsSync(marker) ? readFileSync(marker, "utf8") : "";
}

/** Fixture Git in the planted repository, with every planted program switched off (the fixture is not under test). */
function quietGit(cwd: string, ...args: string[]): string {
	return git(
		cwd,
		"-c",
		"core.hooksPath=/dev/null",
		"-c",
		"core.fsmonitor=false",
		"-c",
		"filter.evil.clean=cat",
		"-c",
		"filter.evil.smudge=cat",
		"-c",
		"filter.proc.process=",
		"-c",
		"commit.gpgSign=false",
		...args,
	);
}

test("hostile config: no filter, merge driver, diff program, submodule command, fsmonitor, hook or signer runs in any worktree operation", async (t) => {
	const sub = repo(t, { "lib.txt": "library\n" }, "sub");
	const root = repo(t, {
		"shared.txt": "1\n2\n3\n4\n5\n",
		"x.txt": "raw\n",
		"data.dat": "data\n",
		".gitattributes": "*.txt filter=evil merge=evil diff=evil\n*.dat filter=proc\n",
	});
	git(root, "submodule", "add", "-q", sub, "vendor/lib");
	git(root, "commit", "-q", "-m", "add submodule");
	git(root, "submodule", "init", "-q");
	const marker = plantPrograms(root, tempDir(t, "crew-traps-"));
	const step = (name: string) => assert.equal(ran(marker), "", `${name}: no program of the repository ran`);

	// A program that ran and failed can fail the operation itself: what ran is the first thing said.
	const wt = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "edit" }).catch((error: Error) => {
		step(`createTaskWorktree (${error.message})`);
		throw error;
	});
	step("createTaskWorktree (checkout and submodule init)");
	assert.deepEqual(wt.warnings, []);
	assert.equal(readFileSync(join(wt.path, "x.txt"), "utf8"), "raw\n");
	assert.equal(readFileSync(join(wt.path, "vendor/lib/lib.txt"), "utf8"), "library\n", "the submodule is checked out");

	// Same-size edits: Git must re-hash the file to see the change, which is when it runs a clean filter.
	writeFileSync(join(wt.path, "shared.txt"), "1\n2\n3\n4\nT\n");
	writeFileSync(join(wt.path, "data.dat"), "DATA\n");
	const listed = await listTaskWorktrees(root);
	step("listTaskWorktrees");
	assert.deepEqual(listed.find((entry) => entry.path === wt.path)?.dirtyFiles, ["data.dat", "shared.txt"]);

	const cleaned = await cleanupTaskWorktree({ path: wt.path, commitDirty: true });
	step("cleanupTaskWorktree with commitDirty");
	assert.equal(cleaned.action, "removed");
	assert.deepEqual(cleaned.committed?.files, ["data.dat", "shared.txt"]);

	// Main moves on the same file, so bringing the task in is a three-way content merge: the merge driver's place.
	writeFileSync(join(root, "shared.txt"), "M\n2\n3\n4\n5\n");
	quietGit(root, "commit", "-q", "-am", "main moves");
	const preview = await previewMerge({ cwd: root, branch: wt.branch });
	step("previewMerge");
	assert.equal(preview.clean, false, "a file the repository wants merged by its own program is left as a conflict");
	assert.deepEqual(preview.conflicts, ["shared.txt"]);
	await assert.rejects(mergeBack({ cwd: root, branch: wt.branch }), (error: Error) =>
		isWorktreeError(error, "conflicts"),
	);
	step("mergeBack of a branch that needs the merge driver");

	// A branch that merges without a content merge: checkout (smudge), status (clean) and the merge commit (hooks).
	const second = await createTaskWorktree({ cwd: root, runId: RUN, taskId: "add" });
	writeFileSync(join(second.path, "added.txt"), "added\n");
	writeFileSync(join(second.path, "x.txt"), "new\n");
	await cleanupTaskWorktree({ path: second.path, commitDirty: true });
	writeFileSync(join(root, "x.txt"), "raw\n");
	const merged = await mergeBack({ cwd: root, branch: second.branch });
	step("mergeBack");
	assert.equal(merged.merged, true);
	assert.equal(readFileSync(join(root, "added.txt"), "utf8"), "added\n");
	assert.equal(readFileSync(join(root, "x.txt"), "utf8"), "new\n");
});
