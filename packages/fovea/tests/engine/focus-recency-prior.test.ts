/**
 * The root's change history as a prior of focus (`rank/recency-prior.ts`): of two files the words rank close, the one
 * changed in the last commits ranks first; the best match stays first whatever its history; a root without history
 * ranks by the words alone.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { git } from "../../../../test/e2e/support/workspaces.ts";
import { RECENCY_HALF_LIFE } from "../../src/engine/graph/coupled-edges.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { CURRENCY, INVOICE, LEDGER } from "../support/rounding-files.ts";
import { commitTree, tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

/**
 * A root where `src/ledger.ts` changed in each of the last five commits and the other files never since the first;
 * `git: false` writes the same last tree without history.
 */
async function root(options: { git: boolean }): Promise<string> {
	const dir = await temps.make();
	const first = { "src/invoice.ts": INVOICE, "src/currency.ts": CURRENCY(0), "src/ledger.ts": LEDGER(0) };
	if (!options.git) {
		await writeTree(dir, { ...first, "src/ledger.ts": LEDGER(5) });
		return dir;
	}
	git(dir, "init", "-q", "-b", "main");
	await commitTree(dir, first);
	for (const n of [1, 2, 3, 4, 5]) await commitTree(dir, { "src/ledger.ts": LEDGER(n) });
	return dir;
}

const QUERY = "invoice rounding";

describe("focus with the change history as a prior", () => {
	it("ranks the file the last commits changed before one the words rank just above it, after the best match", async () => {
		const map = new CodeMap(await root({ git: true }), { cache: false });
		const paths = (await map.focus({ text: QUERY }, 2000)).files.map((f) => f.file);
		assert.equal(paths[0], "src/invoice.ts", "the best match stays first");
		assert.deepEqual(
			paths.filter((p) => p !== "src/invoice.ts"),
			["src/ledger.ts", "src/currency.ts"],
			`recently changed first: ${paths.join(", ")}`,
		);
		assert.equal(map.coupling.stats.commitsRead, 5, "every commit but the root one");
		const { graph } = await map.refresh({ paths: [] });
		const recency = (path: string) => graph.graph.coupled()?.recency[graph.graph.fileNode.get(path) ?? -1];
		const aged = (age: number) => 2 ** (-age / RECENCY_HALF_LIFE);
		const five = aged(0) + aged(1) + aged(2) + aged(3) + aged(4);
		assert.equal(recency("src/ledger.ts"), five, "the last five commits, newest first");
		assert.equal(recency("src/currency.ts"), 0, "the root commit is not mined");
	});

	it("ranks by the words alone in a root without history", async () => {
		const map = new CodeMap(await root({ git: false }), { cache: false });
		const paths = (await map.focus({ text: QUERY }, 2000)).files.map((f) => f.file);
		assert.deepEqual(paths, ["src/invoice.ts", "src/currency.ts", "src/ledger.ts"]);
		assert.equal(map.coupling.status.available, false);
	});
});
