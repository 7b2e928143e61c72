// Fovea's Git calls on a hostile repository: its fsmonitor, hooks and filter drivers never run, the guard follows
// config changes, and partial clones are refused with a clear error.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { git } from "../../../../../test/e2e/support/workspaces.ts";
import { forcedConfigFrom, repositoryGuard } from "../../../src/engine/git/guard.ts";
import { changedFiles, gitState, statusSignature } from "../../../src/engine/git/probe.ts";
import { makeTempDir, removeTempDir } from "../../support/temp-tree.ts";

const dirs: string[] = [];
after(async () => {
	for (const dir of dirs) await removeTempDir(dir);
});

async function hostileRepo(): Promise<{ dir: string; marker: string }> {
	const dir = await makeTempDir();
	dirs.push(dir);
	git(dir, "init", "-q");
	writeFileSync(join(dir, ".gitattributes"), "* filter=evil\n");
	writeFileSync(join(dir, "clean.ts"), "export const clean = 1;\n");
	writeFileSync(join(dir, "dirty.ts"), "export const dirty = 1;\n");
	git(dir, "add", "-A");
	git(dir, "commit", "-qm", "init");
	git(dir, "branch", "base");
	writeFileSync(join(dir, "dirty.ts"), "export const dirty = 2;\n");
	const traps = mkdtempSync(join(tmpdir(), "fovea-traps-"));
	dirs.push(traps);
	const marker = join(traps, "marker.log");
	const script = join(traps, "trap.sh");
	writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> ${JSON.stringify(marker)}\ncat\n`);
	chmodSync(script, 0o755);
	for (const [key, value] of [
		["core.fsmonitor", script],
		["core.hooksPath", traps],
		["filter.evil.clean", script],
		["filter.evil.smudge", script],
		["filter.evil.process", script],
		["filter.evil.required", "true"],
	] as const)
		git(dir, "config", key, value);
	writeFileSync(join(traps, "post-index-change"), `#!/bin/sh\necho hook >> ${JSON.stringify(marker)}\n`);
	chmodSync(join(traps, "post-index-change"), 0o755);
	// A racily clean entry: Git re-hashes it, through the clean filter if it may.
	const { mtime } = statSync(join(dir, "clean.ts"));
	utimesSync(join(dir, ".git", "index"), mtime, mtime);
	return { dir, marker };
}

describe("hardened Git in Fovea", () => {
	it("a status probe and an impact question run nothing of a hostile repository", async () => {
		const { dir, marker } = await hostileRepo();
		const indexBefore = readFileSync(join(dir, ".git", "index"));
		const state = await gitState(dir);
		assert.deepEqual(state.dirty, ["dirty.ts"]);
		const signature = await statusSignature(dir);
		assert.ok(signature.signature.includes("dirty.ts"));
		assert.deepEqual(await changedFiles(dir, { uncommitted: true, base: "base" }), ["dirty.ts"]);
		assert.equal(existsSync(marker), false, "no filter, fsmonitor or hook ran");
		assert.deepEqual(readFileSync(join(dir, ".git", "index")), indexBefore, "the index was not written");
		// The traps are real: an unhardened status with the same racy entry runs the filter.
		const { mtime } = statSync(join(dir, "clean.ts"));
		utimesSync(join(dir, ".git", "index"), mtime, mtime);
		try {
			git(dir, "status", "--porcelain");
		} catch {
			// the trap's filter protocol fails, after it ran
		}
		assert.equal(existsSync(marker), true, "plain git status fires the trap, so the test can fail");
	});

	it("the guard follows config changes and refuses partial clones", async () => {
		const dir = await makeTempDir();
		dirs.push(dir);
		git(dir, "init", "-q");
		assert.deepEqual(await repositoryGuard(dir), []);
		git(dir, "config", "filter.late.clean", "whatever");
		assert.deepEqual(await repositoryGuard(dir), [
			["filter.late.clean", ""],
			["filter.late.smudge", ""],
			["filter.late.process", ""],
			["filter.late.required", "false"],
		]);
		git(dir, "config", "remote.origin.promisor", "true");
		await assert.rejects(repositoryGuard(dir), /is a partial clone \(remote\.origin\.promisor = "true"\)/);
		await assert.rejects(changedFiles(dir, { uncommitted: true }), /partial clone/);
	});

	it("reads a config listing: promisor off is fine, partialclone is refused", () => {
		assert.deepEqual(forcedConfigFrom("remote.origin.promisor\nfalse\0", "/r"), []);
		assert.throws(() => forcedConfigFrom("extensions.partialclone\norigin\0", "/r"), /\/r is a partial clone/);
	});

	it("a config that cannot be read is an error, not a pass", async () => {
		const dir = await makeTempDir();
		dirs.push(dir);
		git(dir, "init", "-q");
		writeFileSync(join(dir, ".git", "config"), "[broken\n");
		await assert.rejects(repositoryGuard(dir), /git config failed/);
	});
});
