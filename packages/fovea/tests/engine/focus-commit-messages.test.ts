/**
 * The root's commit subjects as evidence for focus (`rank/commit-messages.ts`): of two files the words of the code
 * rank close, the one whose past commits' subjects say the query's words ranks first; the subjects read are those of
 * the mined window only (HEAD's ancestors, the newest `limit`), never a commit after the mined head or on another ref.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { git } from "../../../../test/e2e/support/workspaces.ts";
import { ChangeCoupling } from "../../src/engine/history/index.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { CURRENCY, INVOICE, LEDGER } from "../support/rounding-files.ts";
import { commitTree, tempDirs } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

/**
 * A root where the ledger and the currency file each changed twice after the first commit, the currency file last
 * (so the change-history prior would put it first): the ledger's commits said "invoice rounding", the currency
 * file's did not. With `said: false` the ledger's subjects say nothing of invoices either.
 */
async function root(options: { said: boolean }): Promise<string> {
	const dir = await temps.make();
	git(dir, "init", "-q", "-b", "main");
	await commitTree(
		dir,
		{ "src/invoice.ts": INVOICE, "src/currency.ts": CURRENCY(0), "src/ledger.ts": LEDGER(0) },
		"import",
	);
	const ledgerSubject = options.said ? "Fix invoice rounding of refunds" : "Fix refunds";
	await commitTree(dir, { "src/ledger.ts": LEDGER(1) }, ledgerSubject);
	await commitTree(dir, { "src/currency.ts": CURRENCY(1) }, "Tidy the formatting");
	await commitTree(dir, { "src/ledger.ts": LEDGER(2) }, `${ledgerSubject} again`);
	await commitTree(dir, { "src/currency.ts": CURRENCY(2) }, "Tidy the formatting again");
	return dir;
}

const QUERY = "invoice rounding";

describe("focus with the commit subjects as evidence", () => {
	it("ranks the file whose past commits' subjects say the query's words first, after the best match", async () => {
		const map = new CodeMap(await root({ said: true }), { cache: false });
		const paths = (await map.focus({ text: QUERY }, 2000)).files.map((f) => f.file);
		assert.deepEqual(paths, ["src/invoice.ts", "src/ledger.ts", "src/currency.ts"]);
		assert.equal(map.coupling.stats.commitsRead, 4, "every commit but the root one");

		// The same history with subjects that do not say the words: the code's words and the recency decide.
		const unsaid = new CodeMap(await root({ said: false }), { cache: false });
		const plain = (await unsaid.focus({ text: QUERY }, 2000)).files.map((f) => f.file);
		assert.deepEqual(plain, ["src/invoice.ts", "src/currency.ts", "src/ledger.ts"]);
	});

	it("reads the subjects of the newest `limit` ancestors of the mined head only", async () => {
		const dir = await root({ said: true });
		const head = git(dir, "rev-parse", "HEAD").trim();
		// A commit after the mined head, and one on another branch: neither may be read.
		await commitTree(dir, { "src/currency.ts": CURRENCY(3) }, "Invoice rounding after the head");
		git(dir, "checkout", "-q", "-b", "other", head);
		await commitTree(dir, { "src/currency.ts": CURRENCY(4) }, "Invoice rounding on another ref");
		git(dir, "checkout", "-q", "main");

		const coupling = new ChangeCoupling(dir, { source: { gitDir: dir, head }, limit: 3 });
		assert.equal((await coupling.update()).available, true);
		assert.equal(coupling.stats.commitsRead, 3, "the newest three of the head's ancestors");
		assert.deepEqual(
			coupling.history?.commits.map((c) => c.subject),
			["Tidy the formatting again", "Fix invoice rounding of refunds again", "Tidy the formatting"],
		);

		const map = new CodeMap(dir, { cache: false, history: { gitDir: dir, head } });
		await map.focus({ text: QUERY }, 2000);
		const subjects = map.coupling.history?.commits.map((c) => c.subject) ?? [];
		assert.equal(subjects.length, 4);
		assert.ok(!subjects.some((s) => /after the head|another ref/.test(s)), subjects.join("; "));
	});
});
