/**
 * Sibling implementations in impact (`rank/sibling-definitions.ts`, fused in `rank/impact-fusion.ts`): a file that
 * defines the rare names the changed file defines (two backends with the same methods) is exposed with `also defines
 * …` as its evidence, though no edge, no commit and no rare word of its text links the two; the base class both
 * implement defines those names too, but the change depends on it, so it stays out of the exposure. A real Git
 * repository.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { git } from "../../../../test/e2e/support/workspaces.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

/** Files that say the method names' words in prose, so no word of theirs is rare enough for text likeness. */
const FILLERS = 40;

function backend(name: string, words: string): string {
	return [
		"from pkg.base import Backend",
		"",
		`class ${name}(Backend):`,
		`    """${words}"""`,
		"",
		"    def render_body(self, data):",
		`        return "${words}"`,
		"",
		"    def content_type_for(self, data):",
		`        return "${name.toLowerCase()}"`,
		"",
	].join("\n");
}

describe("impact's sibling implementations", () => {
	it("exposes the file that defines the changed file's rare names, not the base class the change depends on", async () => {
		const dir = await temps.make();
		git(dir, "init", "-q", "-b", "main");
		const fillers: Record<string, string> = {};
		for (let i = 0; i < FILLERS; i++)
			fillers[`pkg/notes/note${i}.py`] =
				`class Note${i}:\n    def note(self, data):\n        return "render the body, content type for it; import from the base backend"\n`;
		await writeTree(dir, {
			...fillers,
			"pkg/__init__.py": "",
			"pkg/base.py": [
				"class Backend:",
				"    def render_body(self, data):",
				"        raise NotImplementedError",
				"",
				"    def content_type_for(self, data):",
				"        raise NotImplementedError",
				"",
			].join("\n"),
		});
		git(dir, "add", "-A");
		git(dir, "commit", "-qm", "base");
		// Each backend in a commit of its own: no change coupling between them.
		await writeTree(dir, { "pkg/json_backend.py": backend("JsonBackend", "ledger balance") });
		git(dir, "add", "-A");
		git(dir, "commit", "-qm", "json");
		await writeTree(dir, { "pkg/xml_backend.py": backend("XmlBackend", "banner colour") });
		git(dir, "add", "-A");
		git(dir, "commit", "-qm", "xml");
		const map = new CodeMap(dir, { cache: false });
		const answer = await map.impact({ files: ["pkg/json_backend.py"], symbols: [] }, 4000);
		const files = answer.files.map((f) => f.file);
		const xml = answer.files.find((f) => f.file === "pkg/xml_backend.py");
		assert.ok(xml !== undefined, `the sibling backend is exposed: ${files.join(", ")}`);
		assert.equal(xml.why, "also defines content_type_for, render_body");
		assert.deepEqual(xml.siblings, { names: ["content_type_for", "render_body"] });
		assert.ok(!files.includes("pkg/base.py"), "the base class is what the change depends on, not exposure");
		assert.ok(
			answer.dependsOn.some((d) => d.file === "pkg/base.py"),
			"it is listed apart, as a dependency",
		);
	});
});
