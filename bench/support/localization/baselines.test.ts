// The co-change and same-folder baselines (not run by `npm test`): node --test bench/support/localization/*.test.ts
import assert from "node:assert/strict";
import { test } from "node:test";
import { coChangeRanking } from "./co-change.ts";
import { folderDistance, sameFolderRanking } from "./same-folder.ts";

test("co-change ranks by count, then by the more recent co-change, then path", () => {
	const history = [
		["q.py", "c.py"],
		["x.py", "y.py"],
		["q.py", "b.py"],
		["q.py", "a.py", "b.py"],
		["q.py", "c.py"],
	];
	assert.deepEqual(coChangeRanking(history, "q.py"), ["c.py", "b.py", "a.py"]);
	assert.deepEqual(coChangeRanking(history, "none.py"), []);
});

test("same folder first, name words break ties, the query file itself is left out", () => {
	assert.equal(folderDistance("a/b/x.py", "a/b/y.py"), 0);
	assert.equal(folderDistance("a/b/x.py", "a/c/y.py"), 2);
	assert.equal(folderDistance("x.py", "a/y.py"), 1);
	const files = ["src/app.py", "src/zeta.py", "src/test_app.py", "tests/test_app.py", "src/sub/app_util.py"];
	assert.deepEqual(sameFolderRanking(files, "src/app.py"), [
		"src/test_app.py",
		"src/zeta.py",
		"src/sub/app_util.py",
		"tests/test_app.py",
	]);
});
