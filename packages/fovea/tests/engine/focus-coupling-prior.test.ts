/**
 * Change coupling as a prior of focus (`rank/coupling-prior.ts`): a file that changed again and again with the file
 * a query finds ranks with it, though no import or name links them; a file that changed with it once does not; a
 * root without history ranks as before; a warm focus asks Git nothing.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { git } from "../../../../test/e2e/support/workspaces.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { commitTree, tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

const INVOICE = (n: number) =>
	`export function computeInvoiceTotal(lines: number[]): number {\n\treturn lines.reduce((a, b) => a + b, ${n});\n}\n`;
/** A test of the invoice module that neither imports it nor shares its name (it drives it through a build script). */
const LEDGER = (n: number) => `import { run } from "../scripts/harness";\n\nrun("ledger-${n}", () => true);\n`;
const DECOY = (n: number) => `import { run } from "../scripts/harness";\n\nrun("decoy-${n}", () => false);\n`;

/**
 * A root whose `src/invoice.ts` changed three times with `tests/ledger.test.ts` and once with `tests/decoy.test.ts`;
 * `git: false` writes the same last tree without history.
 */
async function root(options: { git: boolean }): Promise<string> {
	const dir = await temps.make();
	const base = {
		"scripts/harness.ts":
			"export function run(name: string, f: () => boolean): void {\n\tif (!f()) throw new Error(name);\n}\n",
		"src/shipping.ts": "export function shippingCost(weight: number): number {\n\treturn weight * 2;\n}\n",
	};
	if (!options.git) {
		await writeTree(dir, {
			...base,
			"src/invoice.ts": INVOICE(4),
			"tests/ledger.test.ts": LEDGER(3),
			"tests/decoy.test.ts": DECOY(4),
		});
		return dir;
	}
	git(dir, "init", "-q", "-b", "main");
	await commitTree(dir, { ...base, "tests/decoy.test.ts": DECOY(0) });
	for (const n of [1, 2, 3]) await commitTree(dir, { "src/invoice.ts": INVOICE(n), "tests/ledger.test.ts": LEDGER(n) });
	await commitTree(dir, { "src/invoice.ts": INVOICE(4), "tests/decoy.test.ts": DECOY(4) });
	return dir;
}

describe("focus with change coupling", () => {
	it("ranks the file that keeps changing with the best match, after it, and not one that changed with it once", async () => {
		const map = new CodeMap(await root({ git: true }), { cache: false });
		const answer = await map.focus({ text: "computeInvoiceTotal rounding" }, 2000);
		const paths = answer.files.map((f) => f.file);
		assert.equal(paths[0], "src/invoice.ts");
		assert.ok(paths.includes("tests/ledger.test.ts"), `the coupled test is ranked: ${paths.join(", ")}`);
		assert.ok(!paths.includes("tests/decoy.test.ts"), "one co-change is chance");
		assert.equal(map.coupling.stats.commitsRead, 4, "every commit but the root one");
	});

	it("ranks as before in a root without history", async () => {
		const map = new CodeMap(await root({ git: false }), { cache: false });
		const answer = await map.focus({ text: "computeInvoiceTotal rounding" }, 2000);
		const paths = answer.files.map((f) => f.file);
		assert.equal(paths[0], "src/invoice.ts");
		assert.ok(!paths.includes("tests/ledger.test.ts"));
		assert.equal(map.coupling.status.available, false);
	});

	it("asks Git once per index generation: a warm focus reads no history", async () => {
		const map = new CodeMap(await root({ git: true }), { cache: false });
		await map.focus({ text: "computeInvoiceTotal" }, 2000);
		const probes = map.coupling.stats.probes;
		assert.equal(probes, 1);
		await map.focus({ text: "shippingCost" }, 2000, { paths: [] });
		await map.focus({ text: "computeInvoiceTotal" }, 2000, { paths: [] });
		assert.equal(map.coupling.stats.probes, probes);
	});
});
