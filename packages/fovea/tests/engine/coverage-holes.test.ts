/**
 * What a walk leaves out is said in the answers (`fovea_focus`, `fovea_sketch` text through `CodeMap`), never passed
 * for "nothing relevant": a nested repository (closed until access enrolls it), a build-output directory no ignore
 * file leaves out, a symbolic link named like source, and a walk cut short by its file limit.
 */
import assert from "node:assert/strict";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { LIMIT_REACHED } from "../../src/engine/render/coverage.ts";
import { tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

async function root(): Promise<string> {
	const dir = await temps.make();
	await writeTree(dir, {
		"src/app.ts": 'import { helper } from "./helper.ts";\nexport function main() {\n\treturn helper();\n}\n',
		"src/helper.ts": "export function helper() {\n\treturn 1;\n}\n",
		"src/build/compiler.ts": "export function compile() {}\n",
		"libs/vendored/index.ts": "export function vendored() {}\n",
	});
	await mkdir(join(dir, "libs/vendored/.git"));
	await symlink(join(dir, "src/helper.ts"), join(dir, "src/alias.ts"));
	return dir;
}

describe("coverage holes in answers", () => {
	it("focus and sketch name the nested repository, the build directory and the link they did not map", async () => {
		const map = new CodeMap(await root(), { cache: false });
		const focus = await map.focus({ text: "helper" }, 1500);
		assert.deepEqual([...focus.snapshot.files.keys()].sort(), ["src/app.ts", "src/helper.ts"]);
		const line =
			"Not mapped: 1 file and 2 directories: 1 nested-repository (libs/vendored/); 1 symlink (src/alias.ts); 1 generated-dir (src/build/).";
		assert.ok(focus.text.includes(line), focus.text);
		assert.ok(!focus.text.includes(LIMIT_REACHED), "the walk was complete");
		const sketch = await map.sketch(1500);
		assert.ok(sketch.text.includes(line), sketch.text);
	});

	it("a walk cut short at its file limit says so first", async () => {
		const map = new CodeMap(await root(), { cache: false, maxFiles: 1 });
		const focus = await map.focus({ text: "helper" }, 1500);
		assert.equal(focus.snapshot.truncated, true);
		assert.equal(focus.snapshot.files.size, 1);
		const footer = focus.text.slice(focus.text.indexOf(LIMIT_REACHED));
		assert.ok(footer.startsWith(`${LIMIT_REACHED}\nNot mapped:`), focus.text);
	});
});
