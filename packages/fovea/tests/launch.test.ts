/**
 * `bin/launch.js`: a CLI runs its bundle only while every source it was built from is as it was, and its sources
 * otherwise, so an edited checkout never runs stale code and a damaged record never breaks the command.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { after, beforeEach, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import {
	bundleIsCurrent,
	bundleStandsForSources,
	compileCacheDir,
	installedCompileCacheDir,
	isInstalled,
	sourcesUnrunnable,
} from "../bin/launch.js";

const LAUNCH = new URL("../bin/launch.js", import.meta.url).href;
const base = mkdtempSync(join(tmpdir(), "fovea-launch-"));
after(() => rmSync(base, { recursive: true, force: true }));

let pkg: string;
let dir: URL;

/** A package whose sources print "src" and whose bundle prints "dist", with an inputs record of its two sources. */
function writePackage(parent = base): void {
	pkg = mkdtempSync(join(parent, "pkg-"));
	dir = pathToFileURL(`${pkg}/`);
	mkdirSync(join(pkg, "src"));
	mkdirSync(join(pkg, "dist"));
	mkdirSync(join(pkg, "bin"));
	writeFileSync(join(pkg, "src/cli.ts"), `const from: string = "src";\nprocess.stdout.write(from);\n`);
	writeFileSync(join(pkg, "src/helper.ts"), "export const helper = 1;\n");
	writeFileSync(join(pkg, "dist/cli.js"), `process.stdout.write("dist");\n`);
	writeFileSync(
		join(pkg, "bin/tool.js"),
		`import { launchCli } from ${JSON.stringify(LAUNCH)};\nawait launchCli(new URL("../", import.meta.url));\n`,
	);
	record(["src/cli.ts", "src/helper.ts"]);
}

function record(paths: string[], version = 1): void {
	const inputs = paths.map((path) => {
		const info = statSync(join(pkg, path));
		return { path, size: info.size, mtimeMs: info.mtimeMs };
	});
	writeFileSync(join(pkg, "dist/cli.inputs.json"), JSON.stringify({ version, inputs }));
}

/** The Fovea cache directory of the launched CLIs: never the user's own. */
const cacheDir = join(base, "cache");

function launched(): string {
	const env: NodeJS.ProcessEnv = { ...process.env, FOVEA_CACHE_DIR: cacheDir };
	delete env.NODE_DISABLE_COMPILE_CACHE;
	const run = spawnSync(process.execPath, [join(pkg, "bin/tool.js")], { encoding: "utf8", env });
	assert.equal(run.status, 0, run.stderr);
	return run.stdout;
}

describe("launchCli", () => {
	beforeEach(() => writePackage());

	it("runs the bundle while its sources are as recorded", () => {
		assert.equal(bundleIsCurrent(dir), true);
		assert.equal(launched(), "dist");
	});

	it("a bundle keeps Node's compile cache beside it, not in the fact cache, so a new fact cache compiles nothing again", () => {
		rmSync(cacheDir, { recursive: true, force: true });
		assert.equal(launched(), "dist");
		const beside = installedCompileCacheDir(dir);
		assert.equal(beside, join(pkg, "dist", ".node-compile-cache"));
		assert.ok(existsSync(beside) && readdirSync(beside, { recursive: true }).length > 0, "compiled code was kept");
		assert.equal(existsSync(join(cacheDir, "node-compile-cache")), false, "nothing in the user's fact cache");
	});

	it("a package directory that cannot hold the compile cache keeps it in the user's Fovea cache directory", () => {
		rmSync(cacheDir, { recursive: true, force: true });
		writeFileSync(installedCompileCacheDir(dir), "a file where the directory would be\n");
		assert.equal(launched(), "dist");
		const kept = join(cacheDir, "node-compile-cache");
		assert.ok(existsSync(kept) && readdirSync(kept, { recursive: true }).length > 0, "compiled code was kept");
	});

	it("runs the sources once one of them changed in size", () => {
		assert.equal(bundleStandsForSources(dir), true, "a checkout's current bundle");
		writeFileSync(join(pkg, "src/helper.ts"), "export const helper = 12;\n");
		assert.equal(bundleIsCurrent(dir), false);
		assert.equal(bundleStandsForSources(dir), false, "a checkout's stale bundle");
		assert.equal(launched(), "src");
	});

	it("runs the sources when a source of the same size was modified later", () => {
		const later = new Date(statSync(join(pkg, "src/helper.ts")).mtimeMs + 5000);
		utimesSync(join(pkg, "src/helper.ts"), later, later);
		assert.equal(bundleIsCurrent(dir), false);
		assert.equal(launched(), "src");
	});

	it("runs the sources when a recorded source is gone", () => {
		rmSync(join(pkg, "src/helper.ts"));
		assert.equal(bundleIsCurrent(dir), false);
	});

	it("treats a missing, damaged, empty or foreign record as no bundle", () => {
		rmSync(join(pkg, "dist/cli.inputs.json"));
		assert.equal(bundleIsCurrent(dir), false);
		assert.equal(launched(), "src");
		writeFileSync(join(pkg, "dist/cli.inputs.json"), "{ not json");
		assert.equal(bundleIsCurrent(dir), false);
		record([]);
		assert.equal(bundleIsCurrent(dir), false, "a record listing no source proves nothing");
		record(["src/cli.ts"], 2);
		assert.equal(bundleIsCurrent(dir), false, "another record version");
		writeFileSync(join(pkg, "dist/cli.inputs.json"), JSON.stringify({ version: 1, inputs: [{ path: 3 }] }));
		assert.equal(bundleIsCurrent(dir), false);
		assert.equal(launched(), "src");
	});

	it("an installed package (under node_modules) runs its recorded bundle, whatever its sources' times", () => {
		const modules = join(base, "node_modules");
		mkdirSync(modules, { recursive: true });
		writePackage(modules);
		assert.equal(isInstalled(dir), true);
		writeFileSync(join(pkg, "src/helper.ts"), "export const helper = 12;\n");
		assert.equal(launched(), "dist", "installed copies are not edited in place: the bundle built with them runs");
		assert.deepEqual([bundleIsCurrent(dir), bundleStandsForSources(dir)], [false, true]);
		rmSync(join(pkg, "dist/cli.inputs.json"));
		assert.equal(bundleStandsForSources(dir), false);
		const run = spawnSync(process.execPath, [join(pkg, "bin/tool.js")], { encoding: "utf8" });
		assert.notEqual(run.status, 0);
		assert.match(
			run.stderr,
			/^tool: the package at .* has no bundled CLI .*Node cannot run TypeScript under node_modules: reinstall/,
		);
		assert.doesNotMatch(run.stderr, /\n\s+at /, "said in one line, not as a stack");
		assert.equal(run.status, 1);
	});
});

describe("sourcesUnrunnable", () => {
	it("says what to do when sources newer than the bundle meet a Node that cannot strip types", () => {
		assert.match(
			sourcesUnrunnable({ version: "v20.20.2", features: {} }) ?? "",
			/sources changed since the bundled CLI was built, and Node v20\.20\.2 cannot run TypeScript: rebuild the bundle \(npm run build/,
		);
		assert.equal(sourcesUnrunnable({ version: "v22.23.3", features: { typescript: "strip" } }), undefined);
		assert.equal(sourcesUnrunnable(), undefined, "this test's Node runs TypeScript");
	});
});

describe("compileCacheDir", () => {
	it("follows the fact cache's directory: FOVEA_CACHE_DIR, else XDG_CACHE_HOME/pi-fovea, else ~/.cache/pi-fovea", () => {
		assert.equal(compileCacheDir({ FOVEA_CACHE_DIR: "/f", XDG_CACHE_HOME: "/x" }), "/f/node-compile-cache");
		assert.equal(compileCacheDir({ XDG_CACHE_HOME: "/x" }), "/x/pi-fovea/node-compile-cache");
		assert.equal(
			compileCacheDir({ FOVEA_CACHE_DIR: "relative", XDG_CACHE_HOME: "" }).startsWith(join(homedir(), ".cache")),
			true,
		);
	});
});
