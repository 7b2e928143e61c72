/**
 * A revert's subject names the commit it undoes (`rank/reverted-commit.ts`): focus ranks that commit's files first
 * when it is in the mined window, whatever the words of the code say, and reads nothing into a subject that only
 * says "revert" or quotes a subject no mined commit has.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { git } from "../../../../test/e2e/support/workspaces.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { revertedSubject } from "../../src/engine/rank/reverted-commit.ts";
import { CURRENCY, INVOICE, LEDGER } from "../support/rounding-files.ts";
import { commitTree, tempDirs } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

/** Says none of the query's words: only the reverted commit can bring it into the answer. */
const CLOCK = (n: number): string => `export function tick(): number {\n\treturn Date.now() + ${n};\n}\n`;

/** A root whose second commit changed the ledger and the clock together; the currency file changed after it. */
async function root(): Promise<string> {
	const dir = await temps.make();
	git(dir, "init", "-q", "-b", "main");
	await commitTree(
		dir,
		{ "src/invoice.ts": INVOICE, "src/currency.ts": CURRENCY(0), "src/ledger.ts": LEDGER(0), "src/clock.ts": CLOCK(0) },
		"import",
	);
	// A squashed pull request's subject ends with its number; its revert quotes the title without it.
	await commitTree(dir, { "src/ledger.ts": LEDGER(1), "src/clock.ts": CLOCK(1) }, "Keep the ledger in step (#7)");
	await commitTree(dir, { "src/currency.ts": CURRENCY(1) }, "Invoice rounding of currencies");
	return dir;
}

describe("focus on a revert's subject", () => {
	it("reads the reverted subject of git's and a hosted merge's forms only", () => {
		assert.equal(revertedSubject('Revert "Keep the ledger in step"'), "Keep the ledger in step");
		assert.equal(revertedSubject('Revert "fix(core): a "quoted" word" (#15094)'), 'fix(core): a "quoted" word');
		assert.equal(revertedSubject('Reapply "Revert "x""\n\nThis reverts commit 0a1b2c3.'), 'Revert "x"');
		assert.equal(revertedSubject("Revert the invoice rounding"), undefined);
		assert.equal(revertedSubject('fix: revert "x" in the ledger'), undefined);
	});

	it("ranks the files the reverted commit changed first, in focus's order", async () => {
		const map = new CodeMap(await root(), { cache: false });
		const reverted = (await map.focus({ text: 'Revert "Keep the ledger in step" (#12)' }, 2000)).files;
		assert.deepEqual(
			reverted.slice(0, 2).map((f) => f.file),
			["src/ledger.ts", "src/clock.ts"],
		);

		// The same words without a commit to name: the words decide, and the clock, which says none, is not first.
		const unnamed = (await map.focus({ text: 'Revert "Keep the ledger in step, twice"' }, 2000)).files;
		assert.notEqual(unnamed[1]?.file, "src/clock.ts");
		assert.ok(!unnamed.slice(0, 2).some((f) => f.file === "src/clock.ts"));
	});
});
