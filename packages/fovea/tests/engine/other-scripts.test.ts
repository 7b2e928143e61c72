/**
 * Names, comments and queries written in other scripts than ASCII (`größe`, `пользователь`, `名前`) are words like
 * any other: a focus query finds the files that use them.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

describe("words of other scripts", () => {
	it("a focus query in German, Russian or Japanese ranks the file that uses the word first", async () => {
		const root = await temps.make();
		await writeTree(root, {
			"src/billing.ts": "// Die Größe der Rechnung\nexport function berechneGröße(x: number) {\n\treturn x;\n}\n",
			"src/users.ts": "export function загрузитьПользователя(id: string) {\n\treturn id;\n}\n",
			"src/names.ts": "// 名前を取得する\nexport function readName(id: string) {\n\treturn id;\n}\n",
			"src/other.ts": "export function unrelated() {\n\treturn 0;\n}\n",
		});
		const map = new CodeMap(root, { cache: false });
		for (const [query, file] of [
			["Größe", "src/billing.ts"],
			["пользователя", "src/users.ts"],
			["名前を取得する", "src/names.ts"],
		]) {
			const answer = await map.focus({ text: query as string }, 1500);
			assert.equal(answer.files[0]?.file, file, `${query}: ${answer.files.map((f) => f.file).join(", ")}`);
		}
	});
});
