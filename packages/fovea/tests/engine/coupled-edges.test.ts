/**
 * Change coupling as an edge kind of the graph (`graph/coupled-edges.ts`): coupled edges between file nodes, built
 * from the mined history once per mined head (a warm query builds nothing and asks Git nothing, a new commit is read
 * alone and the edges are built again without rebuilding the graph), read by impact's evidence and focus's prior,
 * and absent, with a note saying why, in a root that is not Git or is a shallow clone.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { git } from "../../../../test/e2e/support/workspaces.ts";
import { coupledWith } from "../../src/engine/graph/index.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

/** Functions every file keeps, so an edit of its one changing constant is patched into the graph, not rebuilt. */
const STABLE = Array.from({ length: 8 }, (_, i) => `export function keep${i}(): number {\n\treturn ${i};\n}\n`).join(
	"",
);

let stamp = 0;
/** Commits one edit of each of `files`. */
async function commit(dir: string, files: readonly string[]): Promise<void> {
	stamp++;
	await writeTree(dir, Object.fromEntries(files.map((f) => [f, `export const v${stamp} = ${stamp};\n${STABLE}`])));
	git(dir, "add", "-A");
	git(dir, "commit", "-qm", `change ${stamp}`);
}

/** src/a.ts changed with src/b.ts twice, and once with src/c.ts and README.md (not a source file). */
async function coupledRepo(): Promise<string> {
	const dir = await temps.make();
	git(dir, "init", "-q", "-b", "main");
	await commit(dir, ["README.md", "src/a.ts", "src/b.ts", "src/c.ts"]);
	await commit(dir, ["src/a.ts", "src/b.ts"]);
	await commit(dir, ["src/a.ts", "src/b.ts"]);
	await commit(dir, ["src/a.ts", "src/c.ts", "README.md"]);
	return dir;
}

/** The coupled edges of `path` in `map`'s graph, as paths with their counts and weights. */
async function edgesOf(map: CodeMap, path: string): Promise<[string, number, number, number][]> {
	const { graph } = await map.refresh({ paths: [] });
	const edges = graph.graph.coupled();
	const id = graph.graph.fileNode.get(path);
	if (edges === undefined || id === undefined) return [];
	return coupledWith(edges, id).map((c) => [graph.graph.nodes[c.id]?.path ?? "", c.count, c.of, c.weight]);
}

describe("coupled edges of the graph", () => {
	it("are built once per mined head from the history; a warm query builds none and runs no Git", async () => {
		const dir = await coupledRepo();
		const map = new CodeMap(dir, { cache: false });
		const answer = await map.impact({ files: ["src/a.ts"], symbols: [] }, 2000);
		assert.deepEqual(
			[map.stats.coupledBuilds, map.stats.coupledEdgesAdded],
			[1, 2],
			"a–b and a–c: README.md is no file of the graph",
		);
		assert.deepEqual(await edgesOf(map, "src/a.ts"), [
			["src/b.ts", 2, 3, 2],
			["src/c.ts", 1, 3, 0.5],
		]);
		assert.equal(answer.files.find((f) => f.file === "src/b.ts")?.why, "changed with it 2 times in the last 3 commits");
		// Warm: impact and focus read the same edges, built once, and nothing asks Git.
		await map.impact({ files: ["src/a.ts"], symbols: [] }, 2000);
		await map.focus({ text: "v2" }, 2000, { paths: [] });
		assert.deepEqual([map.stats.coupledBuilds, map.coupling.stats.probes, map.coupling.stats.commitsRead], [1, 1, 3]);

		// A new commit: only it is read, the edges are built again from the history in memory, the graph is patched.
		await commit(dir, ["src/b.ts", "src/c.ts"]);
		map.markDirty(["src/b.ts", "src/c.ts"]);
		await map.impact({ files: ["src/a.ts"], symbols: [] }, 2000);
		assert.deepEqual(
			[map.coupling.stats.incrementalMines, map.coupling.stats.commitsRead],
			[1, 4],
			"only the new commit read",
		);
		assert.deepEqual([map.stats.coupledBuilds, map.stats.coupledEdgesAdded], [2, 5], "b–c joins a–b and a–c");
		assert.deepEqual([map.stats.graphsBuilt, map.stats.graphsPatched], [1, 1], "no graph rebuilt for history");
		assert.deepEqual(await edgesOf(map, "src/c.ts"), [
			["src/b.ts", 1, 2, 1],
			["src/a.ts", 1, 2, 0.5],
		]);
	});

	it("are absent in a root that is not Git and in a shallow clone, and impact says why", async () => {
		const plain = await temps.make();
		await writeTree(plain, { "src/a.ts": "export const a = 1;\n", "src/b.ts": 'import { a } from "./a";\n' });
		const none = new CodeMap(plain, { cache: false });
		const answer = await none.impact({ files: ["src/a.ts"], symbols: [] }, 2000);
		assert.match(answer.text, /Change coupling: none \(not a Git repository\)\./);
		assert.deepEqual([none.stats.coupledBuilds, await edgesOf(none, "src/a.ts")], [0, []]);

		const origin = await coupledRepo();
		const clones = await temps.make();
		git(clones, "clone", "-q", "--depth", "1", `file://${origin}`, "shallow");
		const shallow = new CodeMap(join(clones, "shallow"), { cache: false });
		const cut = await shallow.impact({ files: ["src/a.ts"], symbols: [] }, 2000);
		assert.match(cut.text, /Change coupling: none \(a shallow clone: its history is cut\)\./);
		assert.deepEqual([shallow.stats.coupledBuilds, shallow.coupling.stats.commitsRead], [0, 0]);
	});
});
