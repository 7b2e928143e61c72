/**
 * The hybrid grep's section during a root's first index (`extension/grep-section.ts`): a grep asked while the index
 * runs past its patience gets one line saying how far the index is, not a wait for the whole root; once indexed, the
 * same grep gets the section. Asserted as counts and texts, never timings.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { CodeMap } from "../src/engine/map/code-map.ts";
import { grepSection } from "../src/extension/grep-section.ts";
import { writeChainedTree } from "./support/generated-tree.ts";
import { tempDirs } from "./support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

const FILES = 1500;

describe("hybrid grep during a first index", () => {
	it("says how far the index is instead of waiting for it, and gives the section once indexed", async () => {
		const root = await temps.make();
		await writeChainedTree(root, FILES);
		const map = new CodeMap(root, { cache: false });
		const place = { root, cwd: root };
		let asked: Promise<string | undefined> | undefined;
		const whole = map.refresh({
			patienceMs: Number.POSITIVE_INFINITY,
			onProgress: (done, total) => {
				if (asked !== undefined || done >= total) return;
				asked = grepSection(map, { kind: "identifier", text: "step1" }, place, 400, { patienceMs: 0 });
			},
		});
		await whole;
		assert.ok(asked !== undefined, "the index reported progress before it was done");
		const during = await asked;
		assert.match(
			during ?? "",
			/^\[fovea: still indexing .+ \([\d,]+ of 1,500 files\); a later grep gets the code-map section\]$/,
		);
		assert.equal(map.index.stats.scans, 1, "the grep shared the one walk");
		const later = await grepSection(map, { kind: "identifier", text: "step1" }, place, 400, { patienceMs: 0 });
		assert.match(later ?? "", /── fovea · identifier step1 · [\s\S]*defined/, later);
	});
});
