/**
 * Rust integration tests (`tests/*.rs`), which mirror no source file's name, link to the crate sources they use
 * (`use ignore::dir::Ignore`) as tests of them, so an impact of `dir.rs` lists the test with `tests it`; their
 * `crate::` paths name the test target's own files (`tests/util.rs`), which are helpers, not subjects. Issue 31:
 * ripgrep's `tests/regression.rs` linked to nothing, and a crate's `tests/x.rs` only to its `lib.rs`.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { testSubjects } from "../../src/engine/resolve/index.ts";
import { tempDirs, writeTree } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

const WORKSPACE = {
	"Cargo.toml": '[package]\nname = "rg"\n\n[workspace]\nmembers = ["crates/ignore"]\n',
	"crates/ignore/Cargo.toml": '[package]\nname = "ignore"\n',
	"crates/ignore/src/lib.rs": "pub mod dir;\npub mod walk;\n",
	"crates/ignore/src/dir.rs":
		"pub struct Ignore;\n\nimpl Ignore {\n    pub fn matched(&self) -> bool {\n        true\n    }\n}\n",
	"crates/ignore/src/walk.rs": "pub fn walk_all() -> usize {\n    0\n}\n",
	"crates/ignore/tests/skip_bom.rs":
		"use ignore::dir::Ignore;\n\n#[test]\nfn skips_bom() {\n    assert!(Ignore.matched());\n}\n",
	"tests/util.rs": "pub struct Dir;\n\npub fn sandbox() -> Dir {\n    Dir\n}\n",
	"tests/regression.rs":
		"use crate::util::sandbox;\nuse ignore::walk::walk_all;\n\n#[test]\nfn r1() {\n    sandbox();\n    assert_eq!(walk_all(), 0);\n}\n",
};

describe("Rust integration tests", () => {
	it("test the crate sources they use, not their helpers, and impact says so", async () => {
		const root = await temps.make();
		await writeTree(root, WORKSPACE);
		const map = new CodeMap(root, { cache: false });
		const dir = await map.impact({ files: ["crates/ignore/src/dir.rs"], symbols: [] }, 2000);
		assert.match(dir.files.find((f) => f.file === "crates/ignore/tests/skip_bom.rs")?.why ?? "", /^tests it/, dir.text);
		const walk = await map.impact({ files: ["crates/ignore/src/walk.rs"], symbols: [] }, 2000);
		assert.match(walk.files.find((f) => f.file === "tests/regression.rs")?.why ?? "", /^tests it/, walk.text);
		assert.ok(!walk.files.some((f) => f.file === "crates/ignore/tests/skip_bom.rs" && /^tests it/.test(f.why)));
		// `crate::util` in a test target is the test's own helper: an import, never a subject.
		const util = await map.impact({ files: ["tests/util.rs"], symbols: [] }, 2000);
		const helperUser = util.files.find((f) => f.file === "tests/regression.rs");
		assert.ok(helperUser !== undefined && !/^tests it/.test(helperUser.why), util.text);
	});

	it("keep the name convention first and fall back to the crate root when they use nothing of it", () => {
		const files = new Set(Object.keys(WORKSPACE));
		files.add("crates/ignore/src/skip_bom.rs");
		assert.deepEqual(
			testSubjects("crates/ignore/tests/skip_bom.rs", files, ["crates/ignore/src/dir.rs", "tests/util.rs"]),
			["crates/ignore/src/skip_bom.rs", "crates/ignore/src/dir.rs"],
		);
		assert.deepEqual(testSubjects("crates/ignore/tests/other.rs", files, []), ["crates/ignore/src/lib.rs"]);
		assert.deepEqual(testSubjects("tests/regression.rs", files, ["tests/util.rs"]), []);
	});
});
