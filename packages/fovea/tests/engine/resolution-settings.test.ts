// A root's resolution settings (`tsconfig.json`, `go.mod`) are untrusted files like its sources: read bounded, never
// through a symlink, and never blocking on a FIFO put in their place.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { repositoryGuard } from "../../src/engine/git/guard.ts";
import { crateNameOf } from "../../src/engine/resolve/module-manifests.ts";
import { readResolutionSettings } from "../../src/engine/resolve/settings.ts";
import { makeTempDir, removeTempDir, writeTree } from "../support/temp-tree.ts";

const dirs: string[] = [];
after(async () => {
	for (const dir of dirs) await removeTempDir(dir);
});

async function root(entries: Record<string, string>): Promise<string> {
	const dir = await makeTempDir();
	dirs.push(dir);
	await writeTree(dir, entries);
	return dir;
}

describe("resolution settings", () => {
	it("reads the aliases of tsconfig.json (comments and trailing commas allowed) and go.mod's module", async () => {
		const dir = await root({
			"tsconfig.json":
				'{\n\t// aliases\n\t"compilerOptions": { "baseUrl": ".", "paths": { "@app/*": ["src/*"], }, },\n}\n',
			"go.mod": "module example.com/shop\n\ngo 1.22\n",
		});
		const { value } = await readResolutionSettings(dir, new Set());
		assert.deepEqual(value.tsconfig, { baseDir: "", baseUrl: ".", paths: { "@app/*": ["src/*"] } });
		assert.equal(value.goModule, "example.com/shop");
	});

	it("a FIFO in place of a settings file or of .git is passed over, not waited on", { timeout: 10_000 }, async () => {
		const dir = await root({ "src/a.ts": "export const a = 1;\n" });
		for (const name of ["tsconfig.json", "go.mod", ".git"]) execFileSync("mkfifo", [join(dir, name)]);
		const { value } = await readResolutionSettings(dir, new Set(["src/a.ts"]));
		assert.deepEqual([value.tsconfig, value.goModule], [undefined, undefined]);
		// Git questions about the root start with its guard, which looks for the git dir a `.git` file names.
		assert.deepEqual(await repositoryGuard(dir), []);
	});

	it("a settings file that is a symlink is not followed (it could lead out of the root)", async () => {
		const outside = await root({
			"tsconfig.json": '{ "compilerOptions": { "baseUrl": "." } }',
			"go.mod": "module x\n",
		});
		const dir = await root({});
		symlinkSync(join(outside, "tsconfig.json"), join(dir, "tsconfig.json"));
		symlinkSync(join(outside, "go.mod"), join(dir, "go.mod"));
		const { value } = await readResolutionSettings(dir, new Set());
		assert.deepEqual([value.tsconfig, value.goModule], [undefined, undefined]);
	});

	it("follows relative extends inside the root, nearest setting first, and stamps each file it read", async () => {
		const dir = await root({
			"tsconfig.json": '{ "extends": ["./configs/paths", "./tsconfig.strict.json"], "compilerOptions": {} }',
			"tsconfig.strict.json": '{ "compilerOptions": { "strict": true } }',
			// paths without a baseUrl are relative to the file that sets them
			"configs/paths.json":
				'{ "extends": "../configs/base.json", "compilerOptions": { "paths": { "@lib/*": ["../lib/*"] } } }',
			"configs/base.json": '{ "extends": "./paths.json", "compilerOptions": { "paths": { "@old/*": ["old/*"] } } }',
		});
		const settings = await readResolutionSettings(dir, new Set());
		assert.deepEqual(settings.value.tsconfig, { baseDir: "configs", paths: { "@lib/*": ["../lib/*"] } });
		assert.deepEqual(settings.files, [
			"tsconfig.json",
			"go.mod",
			"jsconfig.json",
			"tsconfig.strict.json",
			"configs/paths.json",
			"configs/base.json",
		]);
		// A baseUrl anywhere nearer wins over the file that sets paths, and anchors them.
		const withBase = await root({
			"tsconfig.json": '{ "extends": "./base.json", "compilerOptions": { "baseUrl": "src" } }',
			"base.json": '{ "compilerOptions": { "paths": { "@a/*": ["a/*"] } } }',
		});
		assert.deepEqual((await readResolutionSettings(withBase, new Set())).value.tsconfig, {
			baseDir: "",
			baseUrl: "src",
			paths: { "@a/*": ["a/*"] },
		});
	});

	it("reads the configurations the walk found below the root, each with its own extends chain", async () => {
		const dir = await root({
			"tsconfig.base.json": '{ "compilerOptions": { "baseUrl": ".", "paths": { "@shared/*": ["shared/*"] } } }',
			"packages/web/tsconfig.json": '{ "extends": "../../tsconfig.base.json" }',
			"packages/api/jsconfig.json": '{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } } }',
			"packages/cli/tsconfig.json": '{ "compilerOptions": { "strict": true } }',
		});
		const found = ["packages/api/jsconfig.json", "packages/cli/tsconfig.json", "packages/web/tsconfig.json"];
		const settings = await readResolutionSettings(dir, new Set(), found);
		assert.equal(settings.value.tsconfig, undefined, "the root has no configuration of its own");
		assert.deepEqual(
			settings.value.nestedTsconfigs,
			new Map([
				["packages/api", { baseDir: "packages/api", paths: { "@/*": ["./src/*"] } }],
				["packages/cli", null],
				["packages/web", { baseDir: "", baseUrl: ".", paths: { "@shared/*": ["shared/*"] } }],
			]),
		);
		assert.deepEqual(settings.files.slice(3), [
			"packages/api/tsconfig.json",
			"packages/api/jsconfig.json",
			"packages/cli/tsconfig.json",
			"packages/cli/jsconfig.json",
			"packages/web/tsconfig.json",
			"packages/web/jsconfig.json",
			"tsconfig.base.json",
		]);
	});

	it("names a Cargo.toml's crate as Rust paths write it; a workspace manifest names none", () => {
		assert.equal(crateNameOf('[package]\nname = "acme-core"\nversion = "0.1.0"\n'), "acme_core");
		assert.equal(crateNameOf('[package]\nname = "acme-core"\n\n[lib]\nname = "core_lib" # renamed\n'), "core_lib");
		assert.equal(crateNameOf('[workspace]\nmembers = ["crates/*"]\n\n[dependencies]\nname = "x"\n'), undefined);
		assert.equal(crateNameOf('[package]\nversion = "1.0.0"\n\n[[bin]]\nname = "tool"\n'), undefined, "a binary's name");
	});

	it("takes a JavaScript project's jsconfig.json when there is no tsconfig.json", async () => {
		const js = await root({ "jsconfig.json": '{ "compilerOptions": { "baseUrl": "src" } }' });
		assert.deepEqual((await readResolutionSettings(js, new Set())).value.tsconfig, { baseDir: "", baseUrl: "src" });
		const both = await root({
			"jsconfig.json": '{ "compilerOptions": { "baseUrl": "src" } }',
			"tsconfig.json": '{ "compilerOptions": { "baseUrl": "lib" } }',
		});
		assert.deepEqual((await readResolutionSettings(both, new Set())).value.tsconfig, { baseDir: "", baseUrl: "lib" });
	});

	it("does not follow extends out of the root or into a package", async () => {
		const outside = await root({ "base.json": '{ "compilerOptions": { "baseUrl": "." } }' });
		const dir = await root({
			"tsconfig.json": `{ "extends": ["@tsconfig/node22/tsconfig.json", "../${outside.split("/").at(-1)}/base.json"] }`,
		});
		const settings = await readResolutionSettings(dir, new Set());
		assert.equal(settings.value.tsconfig, undefined);
		assert.deepEqual(settings.files, ["tsconfig.json", "go.mod", "jsconfig.json"]);
	});
});
