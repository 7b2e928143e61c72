// A code map with a change watch: a quiet root answers "unchanged" without a walk, an edit elsewhere refreshes just
// that file, a new directory or a commit is seen, and an untrustworthy watch falls back to the full check.
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { git } from "../../../../test/e2e/support/workspaces.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { RootWatch } from "../../src/engine/refresh/root-watch.ts";
import { watchBarrier } from "../../src/engine/refresh/watch-barrier.ts";
import { makeTempDir, removeTempDir } from "../support/temp-tree.ts";

process.env.FOVEA_CACHE_DIR ??= mkdtempSync(join(tmpdir(), "fovea-cache-"));
const dirs: string[] = [];
after(async () => {
	for (const dir of dirs) await removeTempDir(dir);
});

async function repo(): Promise<string> {
	const dir = await makeTempDir();
	dirs.push(dir);
	mkdirSync(join(dir, "src"));
	writeFileSync(join(dir, "src/a.ts"), "export function alpha(): number { return 1; }\n");
	writeFileSync(join(dir, "src/b.ts"), "import { alpha } from './a';\nexport const beta = alpha();\n");
	git(dir, "init", "-q");
	git(dir, "add", "-A");
	git(dir, "commit", "-qm", "init");
	return dir;
}

describe("RootWatch in a CodeMap", () => {
	it("a quiet root costs no walk; an edit refreshes exactly that file; a new directory is walked", async () => {
		const root = await repo();
		const map = new CodeMap(root, { watch: true });
		await map.refresh();
		assert.equal(map.index.stats.scans, 1);
		assert.ok(map.watch?.healthy, "every walked directory and the git dir are watched");
		await map.refresh();
		assert.equal(map.index.stats.scans, 2, "new watches are verified by one more walk");
		for (let i = 0; i < 3; i++) await map.refresh();
		assert.equal(map.index.stats.scans, 2, "then a quiet root is answered by the watch alone");
		assert.equal(map.stats.watchedRefreshes, 3);

		const parsed = map.index.stats.filesParsed;
		appendFileSync(join(root, "src/a.ts"), "export function gamma(): void {}\n");
		const answer = await map.focus({ text: "gamma" }, 800);
		assert.equal(answer.symbols[0]?.name, "gamma", "the outside edit is seen by the next focus");
		assert.equal(map.index.stats.scans, 2, "without a walk");
		assert.equal(map.index.stats.filesParsed, parsed + 1, "exactly the edited file is parsed");

		mkdirSync(join(root, "lib"));
		writeFileSync(join(root, "lib/c.ts"), "export function delta(): void {}\n");
		const found = await map.focus({ text: "delta" }, 800);
		assert.equal(found.symbols[0]?.name, "delta");
		assert.ok(map.index.stats.scans > 2, "a new directory needs a walk");
		await map.close();
		assert.equal(map.watch?.healthy, false, "a closed watch vouches for nothing");
	});

	it("a commit that leaves the worktree alone is still a change", async () => {
		const root = await repo();
		const map = new CodeMap(root, { watch: true });
		await map.refresh();
		const watch = map.watch as RootWatch;
		const reading = watch.changes;
		assert.equal(await watch.unchangedSince(reading), true);
		git(root, "commit", "-q", "--allow-empty", "-m", "empty");
		assert.equal(await watch.unchangedSince(reading), false, "HEAD moved: the git dir is watched");
		await map.close();
	});

	it("events are counted once a barrier returns, however late the kernel delivers them", async () => {
		const root = await repo();
		const watch = new RootWatch(root);
		watch.sync([root, join(root, "src")]);
		for (let i = 0; i < 20; i++) {
			const reading = watch.changes;
			appendFileSync(join(root, "src/a.ts"), `// ${i}\n`);
			assert.equal(await watch.unchangedSince(reading), false, `edit ${i} is seen`);
			assert.deepEqual(await watch.pathsSince(reading), ["src/a.ts"]);
		}
		assert.equal(await watchBarrier(), true);
		watch.close();
	});

	it("a watch over the directory budget is unhealthy and the map walks as before", async () => {
		const root = await repo();
		const watch = new RootWatch(root);
		const many = Array.from({ length: 9000 }, (_, i) => join(root, `missing-${i}`));
		assert.equal(watch.sync(many), 0);
		assert.equal(watch.healthy, false);
		assert.equal(await watch.pathsSince(0), undefined);
		watch.close();
	});
});
