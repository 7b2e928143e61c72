// fovea_dwell and fovea_impact through the real Pi host: a dwell spreads heat from what the agent has been looking
// at (and survives the eviction of the root's graph), an impact reports what a change exposes beyond itself.

import assert from "node:assert/strict";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { cleanupTempDirs, type PiHost, tempDir } from "../../../test/e2e/harness.ts";
import { commandText, git, gitRepo, withHost } from "../../../test/e2e/support/workspaces.ts";
import { POLYGLOT, POLYGLOT_GAPS } from "./fixtures/polyglot.ts";

const FOVEA = fileURLToPath(new URL("../src/extension/index.ts", import.meta.url));
// A temp dir of the harness, removed with the others after the file's tests.
process.env.FOVEA_CACHE_DIR = await tempDir("fovea-dwell-cache-");
after(cleanupTempDirs);

interface Item {
	file: string;
	name: string;
}

async function call(host: PiHost, name: string, args: Record<string, unknown>) {
	const run = await host.runTools([{ name, arguments: args as never }], { allowErrors: true });
	const result = run.toolResults[0];
	assert.ok(result !== undefined);
	return result as { text: string; isError: boolean; details: { files?: Item[]; exposed?: Item[]; symbols?: Item[] } };
}

describe("fovea_dwell and fovea_impact", () => {
	it("dwell spreads from recent reads to their neighbourhood, and needs attention first", async () => {
		const repo = gitRepo(join(await tempDir(), "shop"), { ...POLYGLOT }, { commit: true });
		await withHost({ cwd: repo, extensions: [FOVEA] }, async (host) => {
			const empty = await call(host, "fovea_dwell", {});
			assert.match(empty.text, /nothing to dwell on yet/);
			await host.runTools([{ name: "read", arguments: { path: "src/billing/tax.ts" } }]);
			const dwell = await call(host, "fovea_dwell", { factor: 3 });
			assert.equal(dwell.isError, false);
			assert.match(dwell.text, new RegExp(`^fovea dwell · root ${repo} · "around src/billing/tax\\.ts"`));
			const files = (dwell.details.files ?? []).map((f) => f.file);
			assert.equal(files[0], "src/billing/tax.ts", "the dwelt-on file is the hottest");
			assert.ok(files.includes("src/billing/invoice.ts"), "its importer and caller is in the neighbourhood");
		});
	});

	it("attention holds the symbols the agent read a few lines of, searched for by name, or edited", async () => {
		const repo = gitRepo(join(await tempDir(), "shop"), { ...POLYGLOT }, { commit: true });
		await withHost({ cwd: repo, extensions: [FOVEA] }, async (host) => {
			await host.runTools([{ name: "read", arguments: { path: "src/billing/invoice.ts", offset: 3, limit: 5 } }]);
			const read = await call(host, "fovea_dwell", { factor: 3 });
			assert.match(read.text, /"around src\/billing\/invoice\.ts:3-7"/);
			assert.equal(
				read.details.symbols?.[0]?.name,
				"LineItem",
				"the interface on the lines read is the hottest symbol",
			);
			assert.match(await commandText(host, "/fovea status"), /src\/billing\/invoice\.ts:3-7 \d\.\d\d/);
		});
		await withHost({ cwd: repo, extensions: [FOVEA] }, async (host) => {
			await host.runTools([{ name: "grep", arguments: { pattern: "applyTax", path: "src" } }]);
			const searched = await call(host, "fovea_dwell", { factor: 3 });
			assert.match(searched.text, /"around applyTax in src"/);
			assert.equal(searched.details.symbols?.[0]?.name, "applyTax");
		});
		await withHost({ cwd: repo, extensions: [FOVEA] }, async (host) => {
			const edit = { oldText: "\tquantity: number;", newText: "\tquantity: number;\n\tdiscount?: number;" };
			await host.runTools([{ name: "edit", arguments: { path: "src/billing/invoice.ts", edits: [edit] } }]);
			const edited = await call(host, "fovea_dwell", { factor: 3 });
			assert.match(edited.text, /"around src\/billing\/invoice\.ts:5-6"/);
			assert.equal(edited.details.symbols?.[0]?.name, "LineItem");
		});
	});

	it("a dwell on a root whose graph was paged out (FOVEA_CACHE_ROOTS=1) rebuilds it for the retained attention", async () => {
		const base = await tempDir();
		const shop = gitRepo(join(base, "shop"), { ...POLYGLOT }, { commit: true });
		const other = gitRepo(join(base, "other"), { "src/x.ts": "export const x = 1;\n" }, { commit: true });
		process.env.FOVEA_CACHE_ROOTS = "1";
		try {
			await withHost({ cwd: base, extensions: [FOVEA] }, async (host) => {
				await host.runTools([{ name: "read", arguments: { path: join(shop, "src/billing/tax.ts") } }]);
				assert.equal((await call(host, "fovea_sketch", { root: shop })).isError, false);
				assert.equal((await call(host, "fovea_sketch", { root: other })).isError, false);
				const roots = (await commandText(host, "/fovea roots")).split("\n");
				const shopLine = roots.find((line) => line.includes(` ${shop} `)) ?? "";
				assert.match(shopLine, /map not loaded$/, `the shop's graph is paged out:\n${roots.join("\n")}`);
				const dwell = await call(host, "fovea_dwell", { root: shop, factor: 3 });
				assert.equal(dwell.isError, false, dwell.text);
				assert.match(dwell.text, /"around src\/billing\/tax\.ts"/, "the attention outlived the paging");
				assert.equal(dwell.details.files?.[0]?.file, "src/billing/tax.ts");
			});
		} finally {
			delete process.env.FOVEA_CACHE_ROOTS;
		}
	});

	it("impact ranks what a change exposes, not the change itself, from files, symbols, uncommitted work or a base", async () => {
		const repo = gitRepo(join(await tempDir(), "shop"), { ...POLYGLOT }, { commit: true });
		await withHost({ cwd: repo, extensions: [FOVEA] }, async (host) => {
			const bySymbol = await call(host, "fovea_impact", { symbols: ["applyTax"] });
			assert.match(bySymbol.text, /^fovea impact · root /);
			const coverage = bySymbol.details as { gaps?: number; bestEffort?: number };
			assert.deepEqual([coverage.gaps, coverage.bestEffort], [POLYGLOT_GAPS.length, 0], "the details count coverage");
			const exposed = (bySymbol.details.files ?? []).map((f) => f.file);
			assert.ok(!exposed.includes("src/billing/tax.ts"), "the changed file is not its own exposure");
			assert.equal(exposed[0], "src/billing/invoice.ts", "the direct caller is the most exposed");
			const first = bySymbol.details.files?.[0] as Item & { why?: string; evidence?: unknown };
			assert.equal(first.why, "calls applyTax", "the details say why each file ranked");
			assert.deepEqual(first.evidence, { relation: "calls", on: "applyTax", hops: 1 });
			assert.match(bySymbol.text, /\n {2}src\/billing\/invoice\.ts — calls applyTax\n/);

			appendFileSync(join(repo, "src/billing/tax.ts"), "export const VAT = 0.2;\n");
			const uncommitted = await call(host, "fovea_impact", { includeUncommitted: true });
			assert.equal(uncommitted.isError, false);
			assert.equal((uncommitted.details as { changed?: string[] }).changed?.[0], "src/billing/tax.ts");

			git(repo, "checkout", "-q", "-b", "feature");
			git(repo, "commit", "-qam", "vat");
			const sinceMain = await call(host, "fovea_impact", { base: "main" });
			assert.deepEqual((sinceMain.details as { changed?: string[] }).changed, ["src/billing/tax.ts"]);

			const nothing = await call(host, "fovea_impact", {});
			assert.equal(nothing.isError, true);
			assert.match(nothing.text, /needs files, symbols, includeUncommitted or base/);
			const injected = await call(host, "fovea_impact", { base: "--output=/tmp/x" });
			assert.equal(injected.isError, true, "a base that looks like an option is refused");
			assert.match(injected.text, /not a revision/);
			const unknown = await call(host, "fovea_impact", { base: "no-such-branch" });
			assert.equal(unknown.isError, true);
			assert.match(unknown.text, /unknown base "no-such-branch" in .*: it names no commit/);
		});
	});
});
