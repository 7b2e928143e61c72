/**
 * Ties in impact's change coupling (`rank/impact-fusion.ts`): files that changed with the change equally often, in
 * the same commit, rank by how specific that co-change is to them: the one that changed in fewer of the window's
 * commits first, a file that changes with everything last. A real Git repository; the coupled edges already carry
 * each file's commits, so no more history is read and no more edges are built for it.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { git } from "../../../../test/e2e/support/workspaces.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

/** Words each file keeps, none shared with another, so text likeness links no two files. */
const WORDS: Record<string, string> = {
	"src/change.ts": "ledger balance",
	"src/busy.ts": "registry index",
	"src/own.ts": "invoice total",
	"src/other.ts": "banner colour",
};

let stamp = 0;
/** Commits one edit of each of `files`: each file's own words, its first repeated once per commit so far. */
async function commit(dir: string, files: readonly string[]): Promise<void> {
	stamp++;
	const text = (f: string) => {
		const words = WORDS[f] ?? "";
		return `// ${words}\nexport const edits = "${words.split(" ")[0]?.repeat(stamp)}";\n`;
	};
	await writeTree(dir, Object.fromEntries(files.map((f) => [f, text(f)])));
	git(dir, "add", "-A");
	git(dir, "commit", "-qm", `change ${stamp}`);
}

describe("impact's change coupling ties", () => {
	it("rank the file that changes less elsewhere first among files that changed with the change equally", async () => {
		const dir = await temps.make();
		git(dir, "init", "-q", "-b", "main");
		await writeTree(dir, { "README.md": "ties\n" });
		git(dir, "add", "-A");
		git(dir, "commit", "-qm", "start");
		// busy.ts and own.ts changed with change.ts once, in one commit (same count, same weight); busy.ts also
		// changed in two more commits without it, own.ts in none.
		await commit(dir, ["src/change.ts", "src/busy.ts", "src/own.ts", "src/other.ts"]);
		await commit(dir, ["src/busy.ts", "src/other.ts"]);
		await commit(dir, ["src/busy.ts", "src/other.ts"]);
		const map = new CodeMap(dir, { cache: false });
		const answer = await map.impact({ files: ["src/change.ts"], symbols: [] }, 2000);
		const order = answer.files.map((f) => f.file);
		assert.deepEqual(
			order.filter((f) => f === "src/busy.ts" || f === "src/own.ts"),
			["src/own.ts", "src/busy.ts"],
			`own.ts's one co-change is all its history, busy.ts's one of three: ${order.join(", ")}`,
		);
		assert.equal(answer.files.find((f) => f.file === "src/own.ts")?.why, "changed with it once in the last 3 commits");
		// By node id (path order) busy.ts would come first: the tie is broken by the commits, not by the id.
		assert.ok("src/busy.ts" < "src/own.ts");
		assert.deepEqual(
			[map.coupling.stats.commitsRead, map.stats.coupledBuilds, map.stats.coupledEdgesAdded],
			[3, 1, 6],
			"three commits read, the coupled edges built once: every pair of the four files of the first commit",
		);
	});
});
