// Gold files from a fix's patch (not run by `npm test`): node --test bench/support/localization/*.test.ts
import assert from "node:assert/strict";
import { test } from "node:test";
import { patchGoldFiles } from "./patch-files.ts";

const patch = [
	"diff --git a/src/core.js b/src/core.js",
	"index 1111111..2222222 100644",
	"--- a/src/core.js",
	"+++ b/src/core.js",
	"@@ -1,2 +1,2 @@",
	"-diff --git a/not/a/header.js b/not/a/header.js",
	"+const x = 1;",
	"diff --git a/src/new.js b/src/new.js",
	"new file mode 100644",
	"index 0000000..3333333",
	"--- /dev/null",
	"+++ b/src/new.js",
	"@@ -0,0 +1 @@",
	"+export {};",
	"diff --git a/old/name.js b/new/name.js",
	"similarity index 90%",
	"rename from old/name.js",
	"rename to new/name.js",
	"diff --git a/gone.js b/gone.js",
	"deleted file mode 100644",
	"--- a/gone.js",
	"+++ /dev/null",
	"@@ -1 +0,0 @@",
	"-x",
	'diff --git "a/caf\\303\\251.js" "b/caf\\303\\251.js"',
	'--- "a/caf\\303\\251.js"',
	'+++ "b/caf\\303\\251.js"',
	"@@ -1 +1 @@",
	"diff --git a/src/core.js b/src/core.js",
	"--- a/src/core.js",
	"+++ b/src/core.js",
].join("\n");

test("gold files are the pre-images a patch changes: modified, renamed away from, deleted; never created", () => {
	assert.deepEqual(patchGoldFiles(patch), ["src/core.js", "old/name.js", "gone.js", "café.js"]);
});

test("a patch without a diff header has no gold file", () => {
	assert.deepEqual(patchGoldFiles(""), []);
	assert.deepEqual(patchGoldFiles("--- a/x.js\n+++ b/x.js\n@@ -1 +1 @@\n"), []);
});
