/**
 * A one-line query keeps a place in its top ten for a test that the whole text ranks among the best files
 * (`rank/focus-lexical-tests.ts`), though the role prior ranks tests down and neither its name nor its edges tie it to
 * the production files focus ranks first; the first answers stay production code, and an issue's text (several
 * lines) ranks as before.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

/** Twelve production files that each say "palette" and "swatch" once, in what they define. */
function production(): Record<string, string> {
	const files: Record<string, string> = {};
	for (let n = 1; n <= 12; n++) {
		files[`src/shade${n}.ts`] = `export function paletteSwatch${n}(x: number): number {\n\treturn x * ${n};\n}\n`;
	}
	return files;
}

/** A test that names no production file and imports none, but says the query's words over and over. */
const CHECKS = `import { strict } from "node:assert";\n\n${Array.from(
	{ length: 8 },
	(_, k) => `strict.equal("palette swatch ${k}".length > 0, true); // palette swatch\n`,
).join("")}`;

async function root(): Promise<string> {
	const dir = await temps.make();
	await writeTree(dir, { ...production(), "tests/checks.test.ts": CHECKS });
	return dir;
}

describe("focus keeps a place for a test the whole text ranks high", () => {
	it("ranks it within the top ten of a one-line query, below focus's first five production files", async () => {
		const map = new CodeMap(await root(), { cache: false });
		const answer = await map.focus({ text: "palette swatch levels" }, 4000);
		const paths = answer.files.map((f) => f.file);
		const at = paths.indexOf("tests/checks.test.ts");
		assert.ok(at >= 0 && at < 10, `the test is in the top ten: ${paths.join(", ")}`);
		assert.ok(at >= 5, `focus's first five stay production code: ${paths.join(", ")}`);
	});

	it("leaves a query of several lines (an issue's title and body) to the role prior", async () => {
		const map = new CodeMap(await root(), { cache: false });
		const answer = await map.focus({ text: "palette swatch levels\n\nThe levels are wrong." }, 4000);
		const paths = answer.files.map((f) => f.file);
		const at = paths.indexOf("tests/checks.test.ts");
		assert.ok(at < 0 || at >= 10, `the test ranks below the production files: ${paths.join(", ")}`);
	});
});
