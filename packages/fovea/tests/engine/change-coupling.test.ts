/**
 * Change coupling mined from a root's own history (`history/`): what is read (HEAD's ancestors only, the newest
 * commits, huge commits left out), how little a new HEAD costs (only its new commits), what is kept with the facts
 * (a corrupt store is mined again), roots without usable history (not Git, shallow), a hostile repository's programs
 * never run, and how impact ranks and explains a coupled file.
 */
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { git } from "../../../../test/e2e/support/workspaces.ts";
import { buildCoupledEdges, coupledWith } from "../../src/engine/graph/index.ts";
import { ChangeCoupling } from "../../src/engine/history/index.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

/**
 * The files coupled with `file` by coupled edges built from `coupling`'s mined history over every path it names
 * (as the graph builds them over its files), as paths.
 */
function coupledOf(
	coupling: ChangeCoupling,
	file: string,
): { file: string; count: number; of: number; weight: number }[] {
	const history = coupling.history;
	if (history === undefined) return [];
	const paths = [...new Set(history.commits.flatMap((c) => c.files))].sort();
	const fileNode = new Map(paths.map((p, i) => [p, i]));
	const id = fileNode.get(file);
	if (id === undefined) return [];
	const edges = buildCoupledEdges(history, fileNode, paths.length);
	return coupledWith(edges, id).map((c) => ({
		file: paths[c.id] as string,
		count: c.count,
		of: c.of,
		weight: c.weight,
	}));
}

let stamp = 0;
/** Commits one edit of each of `files` (each gets a new line, so each is changed). */
async function commit(dir: string, files: readonly string[], message = "change"): Promise<void> {
	stamp++;
	await writeTree(dir, Object.fromEntries(files.map((f) => [f, `export const v${stamp} = ${stamp};\n`])));
	git(dir, "add", "-A");
	git(dir, "commit", "-qm", message);
}

/** A repository whose root commit (an import, which couples nothing) holds only a README. */
async function repository(): Promise<string> {
	const dir = await temps.make();
	git(dir, "init", "-q", "-b", "main");
	await commit(dir, ["README.md"]);
	return dir;
}

/** a.ts changed with b.ts twice and with a.test.ts once. */
async function coupledRepo(): Promise<string> {
	const dir = await repository();
	await commit(dir, ["a.ts", "b.ts"]);
	await commit(dir, ["a.ts", "a.test.ts"]);
	await commit(dir, ["a.ts", "b.ts"]);
	return dir;
}

describe("change coupling", () => {
	it("counts the files that changed with a file in HEAD's commits, the root commit left out", async () => {
		const dir = await coupledRepo();
		const coupling = new ChangeCoupling(dir);
		const status = await coupling.update();
		assert.equal(status.available, true);
		assert.deepEqual(coupledOf(coupling, "a.ts"), [
			{ file: "b.ts", count: 2, of: 3, weight: 2 },
			{ file: "a.test.ts", count: 1, of: 3, weight: 1 },
		]);
		assert.equal(coupling.stats.commitsRead, 3);
		assert.equal(coupling.stats.pairs, 3, "one pair per two-file commit");
	});

	it("mines only the new commits of a HEAD that descends from the mined one, and keeps them with the facts", async () => {
		const dir = await coupledRepo();
		const store = await temps.make();
		const first = new ChangeCoupling(dir, { storeDir: store });
		await first.update();
		assert.deepEqual([first.stats.fullMines, first.stats.commitsRead], [1, 3]);
		await first.update();
		assert.equal(first.stats.commitsRead, 3, "the same HEAD reads nothing");
		await commit(dir, ["a.ts", "c.ts"], "couple c");
		await first.update();
		assert.deepEqual([first.stats.incrementalMines, first.stats.commitsRead], [1, 4], "only the new commit read");
		const subjects = ["couple c", "change", "change", "change"];
		assert.deepEqual(
			first.history?.commits.map((c) => c.subject),
			subjects,
			"the older commits keep their subjects",
		);
		assert.deepEqual(
			coupledOf(first, "a.ts").find((c) => c.file === "c.ts"),
			{ file: "c.ts", count: 1, of: 4, weight: 1 },
		);
		// A restart reads the stored history: nothing mined at the same HEAD.
		const restarted = new ChangeCoupling(dir, { storeDir: store });
		await restarted.update();
		assert.deepEqual([restarted.stats.commitsRead, restarted.stats.storeHits], [0, 1]);
		assert.equal(coupledOf(restarted, "a.ts")[0]?.count, 2);
		assert.deepEqual(
			restarted.history?.commits.map((c) => c.subject),
			subjects,
			"subjects kept with the facts",
		);
		// A corrupt store is ignored and the history mined again.
		await writeFile(join(store, "coupling.json"), '{"version":1,"commits":[["x",[7]]');
		const afterCorruption = new ChangeCoupling(dir, { storeDir: store });
		await afterCorruption.update();
		assert.deepEqual([afterCorruption.stats.fullMines, afterCorruption.stats.commitsRead], [1, 4]);
		assert.equal(coupledOf(afterCorruption, "a.ts")[0]?.count, 2);
	});

	it("reads at most the newest commits, skips huge ones, and mines again when HEAD moved back", async () => {
		const dir = await coupledRepo();
		await commit(dir, ["a.ts", "b.ts", "c.ts", "d.ts", "e.ts"], "reformat everything");
		const coupling = new ChangeCoupling(dir, { maxFiles: 4, limit: 3 });
		await coupling.update();
		assert.equal(coupling.stats.commitsRead, 3, "the newest three");
		assert.equal(coupling.stats.hugeSkipped, 1);
		assert.deepEqual(coupledOf(coupling, "c.ts"), [], "the huge commit couples nothing");
		assert.deepEqual(
			coupledOf(coupling, "a.ts").map((c) => [c.file, c.count, c.of]),
			[
				["a.test.ts", 1, 2],
				["b.ts", 1, 2],
			],
		);
		git(dir, "reset", "-q", "--hard", "HEAD~2");
		await coupling.update();
		assert.equal(coupling.stats.fullMines, 2, "a HEAD that does not descend from the mined one is mined anew");
	});

	it("weighs a co-change by its commit's size: a two-file commit says more than a sweeping one", async () => {
		const dir = await repository();
		await commit(dir, ["a.ts", "b.ts"]);
		const sweep = ["a.ts", "c.ts", "d.ts", "e.ts", "f.ts", "g.ts", "h.ts"];
		await commit(dir, sweep);
		await commit(dir, sweep);
		const coupling = new ChangeCoupling(dir);
		await coupling.update();
		const coupled = coupledOf(coupling, "a.ts");
		assert.deepEqual(coupled[0], { file: "b.ts", count: 1, of: 3, weight: 1 });
		const c = coupled.find((x) => x.file === "c.ts");
		assert.deepEqual([c?.count, c?.weight], [2, 2 / 6], "each of the six other files gets a sixth, twice");
		assert.deepEqual([coupling.stats.commitsRead, coupling.stats.pairs], [3, 1 + 21 + 21]);
	});

	it("follows renames: a renamed file's older commits count under its path at HEAD, also when mined incrementally", async () => {
		const dir = await coupledRepo();
		const store = await temps.make();
		const coupling = new ChangeCoupling(dir, { storeDir: store });
		await coupling.update();
		assert.equal(coupledOf(coupling, "a.ts")[0]?.file, "b.ts");
		// Renamed after the mine: the stored commits are brought to the new path by the one new commit read.
		git(dir, "mv", "a.ts", "pay.ts");
		git(dir, "commit", "-qm", "rename a to pay");
		await coupling.update();
		assert.deepEqual([coupling.stats.incrementalMines, coupling.stats.commitsRead], [1, 4]);
		assert.equal(coupling.stats.renamesFollowed, 1);
		assert.deepEqual(coupledOf(coupling, "a.ts"), [], "the old path couples nothing any more");
		assert.deepEqual(
			coupledOf(coupling, "pay.ts").map((c) => [c.file, c.count, c.of]),
			[
				["b.ts", 2, 4],
				["a.test.ts", 1, 4],
			],
		);
		// Renamed again, into a folder, and changed with b.ts: a chain a.ts → pay.ts → src/pay.ts, read from nothing.
		await mkdir(join(dir, "src"));
		git(dir, "mv", "pay.ts", "src/pay.ts");
		git(dir, "commit", "-qm", "move pay");
		await commit(dir, ["src/pay.ts", "b.ts"]);
		const fresh = new ChangeCoupling(dir);
		await fresh.update();
		assert.deepEqual(
			[fresh.stats.commitsRead, fresh.stats.renamesFollowed, fresh.stats.pairs],
			[6, 2, 4],
			"six commits, two renames, the pairs of the four two-file commits",
		);
		assert.deepEqual(
			coupledOf(fresh, "src/pay.ts").map((c) => [c.file, c.count, c.of]),
			[
				["b.ts", 3, 6],
				["a.test.ts", 1, 6],
			],
		);
		assert.deepEqual(coupledOf(fresh, "b.ts")[0], { file: "src/pay.ts", count: 3, of: 3, weight: 3 });
		// The store written before the renames is brought forward the same way on a restart.
		const restarted = new ChangeCoupling(dir, { storeDir: store });
		await restarted.update();
		assert.deepEqual([restarted.stats.incrementalMines, restarted.stats.commitsRead], [1, 2]);
		assert.deepEqual(coupledOf(restarted, "src/pay.ts"), coupledOf(fresh, "src/pay.ts"));
	});

	it("never counts a commit of another branch", async () => {
		const dir = await coupledRepo();
		git(dir, "checkout", "-qb", "side");
		await commit(dir, ["a.ts", "side.ts"]);
		await commit(dir, ["a.ts", "side.ts"]);
		git(dir, "checkout", "-q", "main");
		const coupling = new ChangeCoupling(dir);
		await coupling.update();
		assert.equal(coupling.stats.commitsRead, 3);
		assert.equal(
			coupledOf(coupling, "a.ts").some((c) => c.file === "side.ts"),
			false,
		);
	});

	it("says a non-Git root and a shallow clone have no history", async () => {
		const plain = await temps.make();
		await writeTree(plain, { "a.ts": "export const a = 1;\n" });
		const none = new ChangeCoupling(plain);
		assert.deepEqual(await none.update(), { available: false, reason: "not a Git repository" });
		const origin = await coupledRepo();
		const clones = await temps.make();
		git(clones, "clone", "-q", "--depth", "1", `file://${origin}`, "shallow");
		const shallow = new ChangeCoupling(join(clones, "shallow"));
		const status = await shallow.update();
		assert.equal(status.available, false);
		assert.match(status.available === false ? status.reason : "", /shallow/);
		assert.equal(shallow.stats.commitsRead, 0);
	});

	it("runs nothing a hostile repository configures (signature check, external diff, textconv, hooks)", async () => {
		const dir = await coupledRepo();
		const traps = mkdtempSync(join(tmpdir(), "fovea-traps-"));
		temps.add(traps);
		const marker = join(traps, "marker.log");
		const script = join(traps, "trap.sh");
		writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> ${JSON.stringify(marker)}\nexit 1\n`);
		chmodSync(script, 0o755);
		writeFileSync(join(traps, "post-checkout"), `#!/bin/sh\necho hook >> ${JSON.stringify(marker)}\n`);
		chmodSync(join(traps, "post-checkout"), 0o755);
		writeFileSync(join(dir, ".gitattributes"), "* diff=evil\n");
		// A signed commit, so that log.showSignature has a signature to check with its program.
		const tree = git(dir, "write-tree").trim();
		const parent = git(dir, "rev-parse", "HEAD").trim();
		const signed = [
			`tree ${tree}`,
			`parent ${parent}`,
			"author t <t@t> 1700000000 +0000",
			"committer t <t@t> 1700000000 +0000",
			"gpgsig -----BEGIN PGP SIGNATURE-----",
			" ",
			" iQEzBAABCAAdFiEE",
			" -----END PGP SIGNATURE-----",
			"",
			"signed",
			"",
		].join("\n");
		writeFileSync(join(traps, "commit.txt"), signed);
		const oid = git(dir, "hash-object", "-t", "commit", "-w", join(traps, "commit.txt")).trim();
		git(dir, "update-ref", "refs/heads/main", oid);
		for (const [key, value] of [
			["log.showSignature", "true"],
			["gpg.program", script],
			["diff.external", script],
			["diff.evil.textconv", script],
			["core.hooksPath", traps],
			["core.fsmonitor", script],
		] as const)
			git(dir, "config", key, value);
		const coupling = new ChangeCoupling(dir);
		assert.equal((await coupling.update()).available, true);
		assert.equal(coupling.stats.commitsRead, 4);
		assert.equal(existsSync(marker), false, "no program of the repository ran");
		// The traps are real: a plain `git log` with the same config runs the signature program.
		git(dir, "log", "-1", "-p");
		assert.equal(existsSync(marker), true, "plain git log fires the trap, so the test can fail");
	});

	it("ranks a file that changed with the queried one in impact, with its evidence, and says when there is none", async () => {
		const dir = await repository();
		await writeTree(dir, { "src/other.ts": "export function unrelated(): number {\n\treturn 0;\n}\n" });
		for (let i = 0; i < 3; i++) await commit(dir, ["src/pay.ts", "src/ledger.ts"]);
		const map = new CodeMap(dir, { cache: false });
		const answer = await map.impact({ files: ["src/pay.ts"], symbols: [] }, 2000);
		const ledger = answer.files.find((f) => f.file === "src/ledger.ts");
		assert.equal(ledger?.why, "changed with it 3 times in the last 3 commits");
		assert.deepEqual(ledger?.coupling, { count: 3, window: 3 });
		assert.equal(answer.files[0]?.file, "src/ledger.ts");
		assert.match(answer.text, /src\/ledger\.ts — changed with it 3 times in the last 3 commits/);
		assert.equal(map.coupling.stats.probes, 1);
		await map.impact({ files: ["src/pay.ts"], symbols: [] }, 2000);
		assert.equal(map.coupling.stats.probes, 1, "a warm query with nothing changed asks Git nothing");
		// A new commit that edits files: the next impact reads only that commit.
		await commit(dir, ["src/pay.ts", "src/ledger.ts"]);
		map.markDirty(["src/pay.ts", "src/ledger.ts"]);
		const later = await map.impact({ files: ["src/pay.ts"], symbols: [] }, 2000);
		assert.deepEqual(
			[map.coupling.stats.probes, map.coupling.stats.incrementalMines, map.coupling.stats.commitsRead],
			[2, 1, 4],
		);
		assert.equal(
			later.files.find((f) => f.file === "src/ledger.ts")?.why,
			"changed with it 4 times in the last 4 commits",
		);

		const plain = await temps.make();
		await writeTree(plain, { "src/pay.ts": "export const pay = 1;\n", "src/b.ts": 'import { pay } from "./pay";\n' });
		const noHistory = await new CodeMap(plain, { cache: false }).impact({ files: ["src/pay.ts"], symbols: [] }, 2000);
		assert.match(noHistory.text, /Change coupling: none \(not a Git repository\)\./);
	});

	it("leaves Contour's exposure the plain reach: no history read, no file only history links, the reach's scores", async () => {
		const dir = await repository();
		await writeTree(dir, { "src/uses.ts": 'import { v1 } from "./pay";\nexport const u = v1;\n' });
		for (let i = 0; i < 3; i++) await commit(dir, ["src/pay.ts", "src/ledger.ts"]);
		const map = new CodeMap(dir, { cache: false });
		const { reach, graph } = await map.exposure({ files: ["src/pay.ts"], symbols: [] });
		assert.deepEqual(
			reach.files.map((r) => [graph.nodes[r.id]?.path, r.score]),
			[["src/uses.ts", 0.5]],
			"its importer, scored by the reach (an import carries 0.5)",
		);
		assert.equal(map.coupling.stats.probes, 0, "no Git asked");
		const impact = await map.impact({ files: ["src/pay.ts"], symbols: [] }, 2000);
		assert.ok(impact.files.some((f) => f.file === "src/ledger.ts"));
		assert.equal(map.coupling.stats.probes, 1);
	});
});
