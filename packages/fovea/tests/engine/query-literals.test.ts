/**
 * A query naming a string literal (a linter's message `unused-import`, an option `--setup-show`) finds the few files
 * holding it as a quoted string (`terms/query-literals.ts`, `rank/query-seeds.ts`), which its words split apart do
 * not: reading, then focus on a real Git repository.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { gitRepo } from "../../../../test/e2e/support/workspaces.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { readLiterals } from "../../src/engine/terms/index.ts";
import { tempDirs } from "../support/temp-tree.ts";

const temps = tempDirs();
const maps: CodeMap[] = [];
after(async () => {
	for (const map of maps) await map.close();
	await temps.removeAll();
});

describe("readLiterals", () => {
	it("reads nothing in a one-line query: a subject's hyphenated words and spans name areas", () => {
		assert.deepEqual(readLiterals("fix(runtime-core): `v-model` drops --force on unused-import"), []);
		assert.deepEqual(readLiterals("\n  `unused-import` is emitted  \n\n"), []);
	});

	it("reads code spans whole, options as written and without dashes, and the title's hyphenated words", () => {
		const text = [
			"unused-import false positive with --jobs=0",
			"Setting `min-similarity-lines` to `0`, with `--ignore-paths=src/gen` and a self-contained example:",
			"```",
			"$ lint --recursive=y .",
			"a.py:1:0: W0611: Unused import re (unused-import)",
			"a.py:1:0: C0114: Missing module docstring (missing-module-docstring)",
			"```",
		].join("\n");
		assert.deepEqual(readLiterals(text), [
			{ literal: "min-similarity-lines", weight: 1 },
			{ literal: "ignore-paths", weight: 1 },
			{ literal: "--ignore-paths", weight: 1 },
			{ literal: "--jobs", weight: 0.5 },
			{ literal: "--recursive", weight: 0.5 },
			{ literal: "unused-import", weight: 0.5 },
		]);
	});
});

/** A linter whose words the issues repeat in other files than the ones declaring their message and option. */
const LINTER: Record<string, string> = {
	"linter/checkers/imports.py": [
		"MSGS = {",
		'    "W0611": ("Unused import %s", "unused-import", "Used when an imported module is not used."),',
		"}",
		"",
		"class ImportsChecker:",
		"    def visit_import(self, node):",
		"        self.add_message(node)",
		"",
	].join("\n"),
	"linter/checkers/typing_comments.py": [
		'"""A module used in a type comment is a false positive when the type comment is not read."""',
		"def type_comment_modules(module):",
		'    """The modules a type comment uses."""',
		"    return [module]",
		"",
	].join("\n"),
	"linter/plugins/setuponly.py": [
		"def addoption(parser):",
		'    parser.addoption("--setup-show", action="store_true")',
		"",
		"def show_action(item):",
		"    return item",
		"",
	].join("\n"),
	"linter/plugins/setupplan.py": [
		"def addoption(parser):",
		'    parser.addoption("--setup-plan", action="store_true")',
		"",
		"def show_plan(item):",
		'    """Show the setup plan: each fixture with its parameters."""',
		"    return item",
		"",
	].join("\n"),
	"linter/render/images.py": [
		"def render_image(command):",
		'    command.append("--depth")',
		"    return command",
		"",
	].join("\n"),
	"linter/domains/glossary.py": [
		'"""Glossary terms: a duplicate term is reported, whatever its case."""',
		"def note_term(terms, term):",
		"    return term.lower() in terms",
		"",
	].join("\n"),
};

describe("focus on a query naming a literal", () => {
	it("ranks the file declaring a message or an option first, above files repeating the query's words", async () => {
		const base = await temps.make();
		const map = new CodeMap(gitRepo(join(base, "linter"), LINTER, { commit: true }), { cache: false });
		maps.push(map);
		const message = "unused-import false positive for a module used in a type comment\n\n`unused-import` is emitted.";
		const byMessage = (await map.focus({ text: message }, 1500)).files.map((f) => f.file);
		assert.equal(byMessage[0], "linter/checkers/imports.py", byMessage.join(", "));
		const option = "`--setup-show` does not show the parameters of a fixture\n\nThey are left out.";
		const byOption = (await map.focus({ text: option }, 1500)).files.map((f) => f.file);
		assert.equal(byOption[0], "linter/plugins/setuponly.py", byOption.join(", "));
		// An option of another program, run in a snippet, lifts the file passing it but takes nothing from the words.
		const snippet = "duplicate glossary term with a different case\n```\n$ git clone --depth 1 https://x/y.git\n```";
		const bySnippet = (await map.focus({ text: snippet }, 1500)).files.map((f) => f.file);
		assert.equal(bySnippet[0], "linter/domains/glossary.py", bySnippet.join(", "));
	});
});
