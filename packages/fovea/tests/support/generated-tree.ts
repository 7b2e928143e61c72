/**
 * Generated trees of many source files, for tests that assert how the engine scales (entries kept, bytes resident,
 * files indexed so far) on more files than a hand-written tree holds.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Writes `files` TypeScript files under `dir`, 100 a directory (`pkg0/f0.ts`…), each importing and calling the one
 * before it and saying some words in a comment; with `body` false, each holds one constant.
 */
export async function writeChainedTree(dir: string, files: number, body = true): Promise<string> {
	for (let d = 0; d * 100 < files; d++) {
		await mkdir(join(dir, `pkg${d}`), { recursive: true });
		const writes: Promise<void>[] = [];
		for (let i = d * 100; i < Math.min(files, (d + 1) * 100); i++) {
			const text = body
				? `import { step${i - 1} } from "../pkg${Math.floor((i - 1) / 100)}/f${i - 1}.ts";\n` +
					`// ledger reconciliation for batch ${i}: settle invoices, refund duplicates\n` +
					`export function step${i}(value: number): number {\n\tconst settled = step${i - 1}(value) + ${i};\n\treturn Math.max(settled, reconcile${i}(value));\n}\n` +
					`function reconcile${i}(value: number): number {\n\treturn value * 2;\n}\n`
				: `export const v${i} = ${i};\n`;
			writes.push(writeFile(join(dir, `pkg${d}`, `f${i}.ts`), text));
		}
		await Promise.all(writes);
	}
	return dir;
}
