/**
 * `CodeMap.impact` (what `fovea_impact` answers): what depends on a change, each with why, never what the change
 * depends on; a deleted file, which has no node left, exposes the files that import it. Issue 31: "`fovea impact
 * pkg/top.py` where top.py imports mid.py imports low.py lists mid.py and low.py".
 */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { estimateTokens } from "../../src/engine/render/budget.ts";
import { tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

async function chain(): Promise<string> {
	const root = await temps.make();
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
		const root = await temps.make();
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

	it("each exposed file says why it ranked, in the text and in the items", async () => {
		const map = new CodeMap(await chain(), { cache: false });
		const answer = await map.impact({ files: ["src/rates.ts"], symbols: [] }, 1500);
		const lines = answer.text.split("\n");
		assert.ok(
			lines.some((line) => line.startsWith("  src/price.ts — calls rate")),
			answer.text,
		);
		assert.ok(lines.includes("  src/cart.ts — via src/price.ts (calls price)"), answer.text);
		const cart = answer.files.find((f) => f.file === "src/cart.ts");
		assert.deepEqual(cart?.evidence, { relation: "calls", on: "price", via: "src/price.ts", hops: 2 });
		assert.equal(cart?.why, "via src/price.ts (calls price)");
	});

	it("a small budget keeps the answer within it, and the line of what the change depends on with it", async () => {
		const root = await temps.make();
		const tree: Record<string, string> = {
			"src/core.ts": 'import { low } from "./low";\nexport function core(): number {\n\treturn low();\n}\n',
			"src/low.ts": "export function low(): number {\n\treturn 1;\n}\n",
		};
		for (let i = 0; i < 40; i++) {
			tree[`src/user${i}.ts`] =
				`import { core } from "./core";\nexport function use${i}(): number {\n\treturn core();\n}\n`;
		}
		await writeTree(root, tree);
		const map = new CodeMap(root, { cache: false });
		const answer = await map.impact({ files: ["src/core.ts"], symbols: [] }, 150);
		assert.ok(estimateTokens(answer.text) <= 150, answer.text);
		assert.match(answer.text, /\nIt depends on \(not exposure\): src\/low\.ts \(calls\)\n/);
		assert.match(answer.text, /\nBeyond this: \d+ more exposed files/);
		assert.equal(answer.files.length, 40, "the items hold every exposed file");
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

	for (const [language, tree, names] of [
		[
			"Python",
			{
				"pkg/__init__.py": "",
				"pkg/low.py": "def low_value():\n    return 1\n",
				"pkg/mid.py": "from pkg.low import low_value\n\n\ndef mid_value():\n    return low_value() + 1\n",
				"pkg/top.py": "from pkg.mid import mid_value\n\n\ndef top_value():\n    return mid_value() * 2\n",
				"tests/test_low.py": "from pkg.low import low_value\n\n\ndef test_low():\n    assert low_value() == 1\n",
				"tests/test_mid.py":
					"from pkg.low import low_value\nfrom pkg.mid import mid_value\n\n\ndef test_mid():\n    assert mid_value() == low_value() + 1\n\n\ndef test_again():\n    assert low_value() + low_value() == 2\n",
			},
			{ low: "pkg/low.py", mid: "pkg/mid.py", top: "pkg/top.py", test: "tests/test_low.py", lowFn: "low_value" },
		],
		[
			"TypeScript",
			{
				"src/low.ts": "export function lowValue(): number {\n\treturn 1;\n}\n",
				"src/mid.ts":
					'import { lowValue } from "./low";\nexport function midValue(): number {\n\treturn lowValue() + 1;\n}\n',
				"src/top.ts":
					'import { midValue } from "./mid";\nexport function topValue(): number {\n\treturn midValue() * 2;\n}\n',
				"src/low.test.ts":
					'import { lowValue } from "./low";\nexport function checksLow(): boolean {\n\treturn lowValue() === 1;\n}\n',
				"src/mid.test.ts":
					'import { lowValue } from "./low";\nimport { midValue } from "./mid";\nexport function checksMid(): boolean {\n\treturn midValue() === lowValue() + 1;\n}\nexport function again(): boolean {\n\treturn lowValue() + lowValue() === 2;\n}\n',
			},
			{ low: "src/low.ts", mid: "src/mid.ts", top: "src/top.ts", test: "src/low.test.ts", lowFn: "lowValue" },
		],
	] as const) {
		it(`${language}: impact of low lists mid and top with evidence; impact of top lists neither as exposure`, async () => {
			const root = await temps.make();
			await writeTree(root, tree);
			const map = new CodeMap(root, { cache: false });
			const low = await map.impact({ files: [names.low], symbols: [] }, 1500);
			const exposed = low.files.map((f) => f.file);
			assert.ok(exposed.includes(names.mid) && exposed.includes(names.top), low.text);
			assert.ok(exposed.indexOf(names.mid) < exposed.indexOf(names.top), low.text);
			const why = (file: string) => low.files.find((f) => f.file === file)?.why;
			assert.match(why(names.mid) ?? "", new RegExp(`^calls ${names.lowFn}(;|$)`), low.text);
			assert.match(why(names.top) ?? "", new RegExp(`^via ${names.mid} \\(`), low.text);
			assert.ok(low.text.includes(`  ${names.mid} — calls ${names.lowFn}`), low.text);

			const top = await map.impact({ files: [names.top], symbols: [] }, 1500);
			// Nothing depends on top: text likeness may list files, never with graph evidence, never what top uses.
			assert.ok(
				top.files.every((f) => f.evidence === undefined && f.file !== names.mid),
				top.text,
			);
			assert.deepEqual(top.symbols, [], top.text);
			assert.match(top.text, /\nNothing in this root depends on the change/);
			assert.deepEqual(
				top.dependsOn.map((d) => d.file),
				[names.mid],
			);
			assert.ok(top.text.includes(`It depends on (not exposure): ${names.mid} (calls)`), top.text);
			assert.ok(!top.text.includes(names.low), top.text);
		});

		it(`${language}: the changed module's own test ranks first among the tests`, async () => {
			const root = await temps.make();
			await writeTree(root, tree);
			const map = new CodeMap(root, { cache: false });
			const answer = await map.impact({ files: [names.low], symbols: [] }, 1500);
			const tests = answer.files.filter((f) => /test/.test(f.file)).map((f) => f.file);
			assert.equal(tests[0], names.test, answer.text);
			// The graph's reason first; a test naming what the module defines says so after it.
			assert.match(answer.files.find((f) => f.file === names.test)?.why ?? "", /^tests it(;|$)/, answer.text);
		});
	}
});
