/**
 * `CodeMap.impact` (what `fovea_impact` answers): heat seeded from a change and reported beyond it; a deleted file,
 * which has no node left, exposes the files that import it.
 */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { makeTempDir, removeTempDir, writeTree } from "../support/temp-tree.ts";

const temps: string[] = [];
after(async () => {
	for (const dir of temps) await removeTempDir(dir);
});

async function chain(): Promise<string> {
	const root = await makeTempDir();
	temps.push(root);
	await writeTree(root, {
		"src/rates.ts": "export function rate(): number {\n\treturn 2;\n}\n",
		"src/price.ts":
			'import { rate } from "./rates";\nexport function price(n: number): number {\n\treturn n * rate();\n}\n',
		"src/cart.ts": 'import { price } from "./price";\nexport function total(): number {\n\treturn price(3);\n}\n',
		"src/other.ts": "export function unrelated(): number {\n\treturn 0;\n}\n",
	});
	return root;
}

describe("impact", () => {
	it("takes a symbol by the qualified name answers print (Greeter.greet), in that container only", async () => {
		const root = await makeTempDir();
		temps.push(root);
		await writeTree(root, {
			"src/greeter.ts": "export class Greeter {\n\tgreet(n: string): string {\n\t\treturn n;\n\t}\n}\n",
			"src/hello.ts":
				'import { Greeter } from "./greeter";\nexport function hello(): string {\n\treturn new Greeter().greet("x");\n}\n',
			"src/other.ts": "export class Other {\n\tgreet(): void {}\n}\nexport function lonely(): void {}\n",
		});
		const map = new CodeMap(root, { cache: false });
		const answer = await map.impact({ files: [], symbols: ["Greeter.greet"] }, 1500);
		const files = answer.files.map((f) => f.file);
		assert.equal(files[0], "src/hello.ts", answer.text);
		assert.ok(!files.includes("src/other.ts"), answer.text);
		const none = await map.impact({ files: [], symbols: ["Nobody.greet"] }, 1500);
		assert.match(none.text, /None of the files or symbols named is in this root's map/);
	});

	it("reports what a changed file reaches, not the file itself", async () => {
		const map = new CodeMap(await chain(), { cache: false });
		const answer = await map.impact({ files: ["src/rates.ts"], symbols: [] }, 1500);
		const files = answer.files.map((f) => f.file);
		assert.equal(files[0], "src/price.ts");
		assert.ok(!files.includes("src/rates.ts"), files.join(", "));
		assert.ok(!files.includes("src/other.ts"), files.join(", "));
	});

	it("a file with no warm names to show is summarized by the names it exports", async () => {
		const map = new CodeMap(await chain(), { cache: false });
		const answer = await map.impact({ files: ["src/rates.ts"], symbols: [] }, 1500);
		const lines = answer.text.split("\n");
		const heading = lines.indexOf("Hottest files:");
		assert.ok(heading >= 0, answer.text);
		const cart = lines.slice(heading).find((line) => line.startsWith("  src/cart.ts"));
		assert.equal(cart, "  src/cart.ts — total", answer.text);
	});

	it("a deleted file exposes its importers first, and the answer says it was seeded from them", async () => {
		const root = await chain();
		const map = new CodeMap(root, { cache: false });
		await map.refresh();
		await rm(join(root, "src/rates.ts"));
		const answer = await map.impact({ files: ["src/rates.ts"], symbols: [] }, 1500, { fresh: true });
		assert.equal(answer.snapshot.files.has("src/rates.ts"), false);
		const files = answer.files.map((f) => f.file);
		assert.equal(files[0], "src/price.ts", files.join(", "));
		assert.ok(!files.includes("src/other.ts"), files.join(", "));
		assert.match(answer.text, /exposure of src\/rates\.ts \(gone files: seeded from 1 importer\)/);
	});
});
