/**
 * One resident code map per root per process: in one Pi session with pi-fovea and pi-contour loaded on one Git
 * root, Fovea's focus builds the root's graph and Contour's review uses that same map, building none of its own
 * (each extension held and walked its own map of the root before).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { cleanupTempDirs, startHost, tempDir } from "./harness.ts";
import { CONTOUR_EXTENSION, FOVEA_EXTENSION, git, gitRepo, writeFiles } from "./support/workspaces.ts";

after(async () => {
	await cleanupTempDirs();
});

interface ReviewWork {
	graphsBuilt: number;
	mapFilesParsed: number;
}

describe("one code map per root per process", () => {
	it("Contour's review of a root Fovea has mapped builds no graph and parses no file for the map", async () => {
		const repo = gitRepo(
			join(await tempDir(), "shop"),
			{
				"src/pricing.ts":
					'import { tax } from "./tax.ts";\nexport function price(n: number): number {\n\treturn tax(n);\n}\n',
				"src/tax.ts": "export function tax(n: number): number {\n\treturn n * 2;\n}\n",
			},
			{ commit: true },
		);
		writeFiles(repo, {
			"src/tax.ts": "export function tax(n: number): number {\n\tif (n < 0) return 0;\n\treturn n * 2;\n}\n",
		});
		git(repo, "add", "src/tax.ts");
		process.env.CONTOUR_BACKGROUND = "0";
		const host = await startHost({ cwd: repo, extensions: [FOVEA_EXTENSION, CONTOUR_EXTENSION] });
		try {
			const [focus] = (await host.runTools([{ name: "fovea_focus", arguments: { query: "tax price" } }])).toolResults;
			assert.equal(focus?.isError, false, focus?.text);
			assert.match(focus?.text ?? "", /tax/);
			const [review] = (await host.runTools([{ name: "contour_review", arguments: {} }])).toolResults;
			assert.equal(review?.isError, false, review?.text);
			const work = (review?.details as { work: ReviewWork } | undefined)?.work;
			assert.ok(work !== undefined, "the review reports its work");
			assert.equal(work.graphsBuilt, 0, "the review used the graph Fovea built for this root");
			assert.equal(work.mapFilesParsed, 0, "and its facts");
			assert.deepEqual(host.errors, []);
		} finally {
			await host.dispose();
			delete process.env.CONTOUR_BACKGROUND;
		}
	});
});
