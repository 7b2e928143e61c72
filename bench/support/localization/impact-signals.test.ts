// Impact's signals taken apart on a real Git repository (not run by `npm test`):
// node --test bench/support/localization/*.test.ts
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { git, gitRepo, writeFiles } from "../../../test/e2e/support/workspaces.ts";
import { impactSignals } from "./impact-signals.ts";
import { TreeStates } from "./tree-states.ts";
import { makeWorkDir, removeWorkDir } from "./work-dirs.ts";

const dirs: string[] = [];
after(() => {
	for (const dir of dirs) removeWorkDir(dir);
});

/** Commits `files` (path → content) on top of what the repository holds; returns the new commit. */
function commit(repo: string, files: Record<string, string>): string {
	writeFiles(repo, files);
	git(repo, "add", "-A");
	git(repo, "commit", "-qm", "change");
	return git(repo, "rev-parse", "HEAD").trim();
}

/** A rare-word text the changed module and its look-alike share. */
const rare = "const escapedRunes = surrogatePair(indentWidth); // marshalIndent quoteKeyRunes";

test("each signal of impact alone: the reach, coupling by weight, text likeness, and what the change relies on", async () => {
	const work = makeWorkDir();
	dirs.push(work);
	const repo = gitRepo(`${work}/repo`, { "README.md": "root\n" }, { commit: true });
	const plain = (i: number) => `export function plain${i}(n: number): number {\n\treturn n + ${i};\n}\n`;
	commit(repo, {
		"src/helper.ts": "export function help(n: number): number {\n\treturn n;\n}\n",
		"src/core.ts": `import { help } from "./helper";\nexport function core(): number {\n\t${rare}\n\treturn help(1);\n}\n`,
		"src/user.ts": 'import { core } from "./core";\nexport const used = core();\n',
		"src/twin.ts": `export function twin(): void {\n\t${rare}\n}\n`,
		...Object.fromEntries([3, 4, 5, 6].map((i) => [`src/misc${i}.ts`, plain(i)])),
	});
	commit(repo, { "src/ledger.ts": plain(1), "src/once.ts": plain(2) });
	// core.ts changed with ledger.ts twice and with once.ts once, in commits of two files (a weight of 1 each); with
	// the seven other files of its first commit once (1/7 each).
	commit(repo, { "src/core.ts": `${rare}\n// 1\n`, "src/ledger.ts": `${plain(1)}// 1\n` });
	commit(repo, { "src/core.ts": `${rare}\n// 2\n`, "src/ledger.ts": `${plain(1)}// 2\n` });
	const head = commit(repo, {
		"src/core.ts": `import { help } from "./helper";\nexport function core(): number {\n\t${rare}\n\treturn help(1);\n}\n`,
		"src/once.ts": `${plain(2)}// 1\n`,
	});
	const states = new TreeStates(`${repo}/.git`, work);
	try {
		const signals = await impactSignals(await states.at(head), "src/core.ts");
		const paths = (list: { path: string }[]) => list.map((s) => s.path);
		assert.deepEqual(paths(signals.reach), ["src/user.ts"]);
		assert.deepEqual([signals.reach[0]?.relation, signals.reach[0]?.hops], ["calls", 1], "how the graph reaches it");
		assert.deepEqual(
			signals.coupling.slice(0, 2).map((c) => [c.path, c.score, c.weight]),
			[
				["src/ledger.ts", 2, 2],
				["src/once.ts", 1, 1],
			],
		);
		assert.equal(signals.coupling.length, 9, "and the seven other files of its first commit");
		assert.equal(signals.text[0]?.path, "src/twin.ts");
		assert.ok(!paths(signals.text).includes("src/core.ts"), "the changed file is left out");
		assert.deepEqual(signals.upstream, ["src/helper.ts"]);
	} finally {
		states.close();
	}
});
