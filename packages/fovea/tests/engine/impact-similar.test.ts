/**
 * Text likeness in impact (`rank/similar-files.ts`, fused in `rank/impact-fusion.ts`): a file that no edge links
 * and no history couples, but that reads like the changed one (a sibling implementation in another folder), is
 * listed with the rare words it shares; what the changed file itself relies on never is, however alike it reads.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

/** An encoder that reads like any other: the same rare words, its own name, imports and first step. */
function encoder(name: string, imports: string, first: string): string {
	return `${imports}export function ${name}(value: unknown, indentWidth: number): string {
	const escapedRunes = ${first};
	return escapedRunes.padStart(indentWidth) + surrogatePair(escapedRunes);
}
function surrogatePair(text: string): string {
	return text;
}
`;
}

/** Two encoders in two folders that share rare words, one helper the first imports, and unrelated files. */
async function encoders(): Promise<string> {
	const root = await temps.make();
	const unrelated: Record<string, string> = {};
	for (let i = 0; i < 6; i++)
		unrelated[`src/misc/file${i}.ts`] = `export function plain${i}(n: number): number {\n\treturn n + ${i};\n}\n`;
	await writeTree(root, {
		...unrelated,
		"src/json/encode.ts": encoder("marshalIndent", 'import { quoteKey } from "./quote";\n', "quoteKey(String(value))"),
		"src/json/quote.ts":
			"export function quoteKey(escapedRunes: string): string {\n\treturn escapedRunes + ' marshalIndent surrogatePair';\n}\n",
		"src/yaml/encode.ts": encoder("marshalIndentYaml", "", "String(value)"),
	});
	return root;
}

describe("impact: text likeness", () => {
	it("lists a sibling no edge links by the rare words it shares, and never what the change relies on", async () => {
		const map = new CodeMap(await encoders(), { cache: false });
		const answer = await map.impact({ files: ["src/json/encode.ts"], symbols: [] }, 2000);
		const sibling = answer.files.find((f) => f.file === "src/yaml/encode.ts");
		assert.ok(sibling !== undefined, answer.text);
		assert.equal(sibling.evidence, undefined, "no edge links them");
		assert.ok((sibling.similar?.shared.length ?? 0) > 0, answer.text);
		assert.match(sibling.why, /^similar text \(rare word stems: [a-z, ]+\)$/);
		assert.match(answer.text, /\n {2}src\/yaml\/encode\.ts — similar text \(rare word stems: /);
		assert.equal(answer.files[0]?.file, "src/yaml/encode.ts", answer.text);
		// The helper it imports reads alike too, but is what the change relies on: listed apart, never as exposure.
		assert.ok(!answer.files.some((f) => f.file === "src/json/quote.ts"), answer.text);
		assert.deepEqual(
			answer.dependsOn.map((d) => d.file),
			["src/json/quote.ts"],
		);
		assert.ok(!answer.files.some((f) => f.file.startsWith("src/misc/")), answer.text);
	});

	it("keeps the likeness of a file that both depends on the change and is what it relies on", async () => {
		const root = await temps.make();
		const misc: Record<string, string> = {};
		for (let i = 0; i < 6; i++) misc[`lib/misc${i}.ts`] = `export const misc${i} = ${i};\n`;
		await writeTree(root, {
			...misc,
			"lib/reader.ts": `import { peekRune } from "./lexer";\n${encoder("readToken", "", "peekRune(String(value))")}`,
			"lib/lexer.ts": `import { readToken } from "./reader";\nexport function peekRune(s: string): string {\n\treturn readToken(s, 1);\n}\n${encoder("lexIndent", "", "String(value)")}`,
		});
		const map = new CodeMap(root, { cache: false });
		const answer = await map.impact({ files: ["lib/reader.ts"], symbols: [] }, 2000);
		const lexer = answer.files.find((f) => f.file === "lib/lexer.ts");
		assert.match(lexer?.why ?? "", /^calls readToken; similar text \(rare word stems: /, answer.text);
	});

	it("Contour's exposure leaves text likeness and history out: only what depends on the change", async () => {
		const map = new CodeMap(await encoders(), { cache: false });
		const { reach } = await map.exposure({ files: ["src/json/encode.ts"], symbols: [] });
		assert.deepEqual(reach.files, []);
	});
});
