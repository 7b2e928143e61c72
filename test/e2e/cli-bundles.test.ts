/**
 * The bundled CLIs (`scripts/build-clis.ts`) behave as their sources: the same reports on the same repository, and
 * the caches they write work (a bundle once lost `__filename`, which `write-file-atomic` needs, so every run of the
 * bundled `contour` silently dropped its cache and parsed everything again). Each bundle is built into a directory
 * of its own inside the package (where it resolves the grammars as the installed one does) and removed afterwards.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, sep } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleStandsForSources } from "../../packages/fovea/bin/launch.js";
import { ExtractPool } from "../../packages/fovea/src/engine/extract/pool.ts";
import { loadExtractor } from "../../packages/fovea/src/engine/parse/parser.ts";
import { type BundledCli, buildCli } from "../../scripts/build-clis.ts";
import { git, gitRepo, writeFiles } from "./support/workspaces.ts";

const PACKAGES = fileURLToPath(new URL("../../packages/", import.meta.url));
const base = mkdtempSync(join(tmpdir(), "cli-bundles-"));
const built: Partial<Record<BundledCli, string>> = {};

before(async () => {
	for (const pkg of ["fovea", "contour", "crew"] as const) {
		const dist = mkdtempSync(join(PACKAGES, pkg, ".test-dist-"));
		built[pkg] = (await buildCli(pkg, dist)).outfile;
	}
});
after(() => {
	for (const outfile of Object.values(built)) rmSync(join(outfile, ".."), { recursive: true, force: true });
	rmSync(base, { recursive: true, force: true });
});

/** Runs `script` with every cache under `caches`; returns stdout, failing on a non-zero exit. */
function run(script: string, args: string[], caches: string): string {
	const result = spawnSync(process.execPath, [script, ...args], {
		encoding: "utf8",
		env: {
			...process.env,
			FOVEA_CACHE_DIR: join(caches, "fovea"),
			CONTOUR_CACHE_DIR: join(caches, "contour"),
			XDG_CACHE_HOME: join(caches, "xdg"),
			NODE_OPTIONS: "",
		},
	});
	assert.equal(result.status, 0, `${script} ${args.join(" ")}: ${result.stderr}`);
	return result.stdout;
}

const source = (pkg: BundledCli) => join(PACKAGES, pkg, "src/cli.ts");
const bundle = (pkg: BundledCli) => built[pkg] as string;

/** A repository with a committed module and a staged change that adds a branchy function and an import. */
function changedRepo(): string {
	const dir = gitRepo(
		mkdtempSync(join(base, "repo-")),
		{
			"src/total.ts": "export function total(xs: number[]): number {\n\treturn xs.reduce((a, b) => a + b, 0);\n}\n",
			"src/app.ts": 'import { total } from "./total.ts";\nexport const sum = total([1, 2]);\n',
		},
		{ commit: true },
	);
	const branches = Array.from({ length: 12 }, (_, i) => `\tif (x === ${i}) return ${i * 2};`).join("\n");
	writeFiles(dir, {
		"src/grade.ts": `import { total } from "./total.ts";\nexport function grade(x: number): number {\n${branches}\n\treturn total([x]);\n}\n`,
	});
	git(dir, "add", "-A");
	return dir;
}

describe("bundled CLIs", () => {
	it("contour: the bundle reports what the sources report, and its second run answers from its cache", () => {
		const dir = changedRepo();
		const args = ["review", "--staged", "--json", "--root", dir];
		const fromSources = JSON.parse(run(source("contour"), args, mkdtempSync(join(base, "c-src-"))));
		const caches = mkdtempSync(join(base, "c-bundle-"));
		const first = JSON.parse(run(bundle("contour"), args, caches));
		for (const field of ["files", "findings", "deltas", "imports"]) {
			assert.deepEqual(first[field], fromSources[field], field);
		}
		assert.ok(first.findings.length > 0, "the change has findings to compare");
		assert.ok(first.work.parses > 0);
		const second = JSON.parse(run(bundle("contour"), args, caches));
		assert.deepEqual(second.findings, first.findings);
		assert.equal(second.work.parses, 0, "the report kept by the first bundled run answers");
		assert.equal(second.work.blobsRead, 0);
	});

	it("each bundle carries a working extraction worker, which its CLI's parsing threads run", async () => {
		for (const pkg of ["fovea", "contour"] as const) {
			const script = new URL("./extract-worker.js", `file://${bundle(pkg)}`);
			const pool = new ExtractPool({ threads: 1, minJobs: 1, script });
			await pool.warm(["typescript"]); // the worker is up before the main thread could take every job
			const jobs = Array.from({ length: 200 }, (_, i) => ({
				path: `f${i}.ts`,
				language: "typescript" as const,
				source: `export function f${i}(a: number): number {\n\treturn a + ${i};\n}\n`.repeat(10),
			}));
			const facts = await pool.extract(await loadExtractor(["typescript"]), jobs);
			await pool.close();
			assert.equal(facts.filter((f) => !(f instanceof Error)).length, 200);
			assert.equal(pool.stats.workerFailures, 0, `${pkg}: the bundled worker starts`);
			assert.ok(pool.stats.jobsByWorkers > 0, `${pkg}: the bundled worker extracted jobs`);
		}
	});

	it("fovea: the bundle maps what the sources map, and reuses its fact cache", () => {
		const dir = changedRepo();
		const sketch = ["sketch", "--json", "--root", dir];
		const caches = mkdtempSync(join(base, "f-bundle-"));
		assert.deepEqual(
			JSON.parse(run(bundle("fovea"), sketch, caches)),
			JSON.parse(run(source("fovea"), sketch, mkdtempSync(join(base, "f-src-")))),
		);
		const status = JSON.parse(run(bundle("fovea"), ["status", "--json", "--root", dir], caches));
		assert.equal(status.work.filesParsed, 0, JSON.stringify(status));
	});

	it("both bundles start under the machine's own Node, older than Pi's (Node 20 on this kind of machine)", () => {
		const node = machineNode();
		const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
		const dir = changedRepo();
		for (const pkg of ["fovea", "contour"] as const) {
			const result = spawnSync(node, [bundle(pkg), "status", "--root", dir], {
				encoding: "utf8",
				env: { ...process.env, FOVEA_CACHE_DIR: join(base, `own-node-${pkg}`), NODE_OPTIONS: "" },
			});
			assert.equal(result.status, 0, `${pkg} under ${node} ${version}: ${result.stderr}`);
			assert.match(result.stdout, new RegExp(`^${pkg} status · root ${dir}`), `${pkg} under ${version}`);
		}
		// Crew's CLI too: its version, and a listing that finds its built-in definitions' package beside the bundle.
		const crewVersion = spawnSync(node, [bundle("crew"), "--version"], { encoding: "utf8" });
		assert.equal(crewVersion.status, 0, `crew under ${node} ${version}: ${crewVersion.stderr}`);
		assert.equal(crewVersion.stdout, `crew ${packageVersion("crew")}\n`);
		const list = spawnSync(node, [bundle("crew"), "list", "--root", dir], { encoding: "utf8" });
		assert.equal(list.status, 0, `crew list under ${version}: ${list.stderr}`);
		assert.match(list.stdout, new RegExp(`^No runs of any session in workspace ${dir}\\.`));
	});
});

describe("the repository's command names", () => {
	const bin = fileURLToPath(new URL("../../node_modules/.bin/", import.meta.url));

	it("node_modules/.bin/{fovea,contour,crew} are our launchers: the reference pi-contour never claims `contour`", () => {
		for (const pkg of ["fovea", "contour", "crew"] as const) {
			assert.equal(realpathSync(join(bin, pkg)), realpathSync(join(PACKAGES, pkg, "bin", `${pkg}.js`)), pkg);
		}
		const manifest = JSON.parse(readFileSync(join(PACKAGES, "..", "package.json"), "utf8")) as {
			devDependencies?: Record<string, string>;
			dependencies?: Record<string, string>;
		};
		const specs = Object.values({ ...manifest.dependencies, ...manifest.devDependencies });
		assert.deepEqual(
			specs.filter((spec) => spec.includes("pi-contour")),
			[],
			"no root dependency installs another pi-contour (its bin would shadow ours)",
		);
	});

	it("node_modules/.bin/crew under the machine's own Node: its version from the bundle, else one clear line", () => {
		const node = machineNode();
		const result = spawnSync(node, [join(bin, "crew"), "--version"], {
			encoding: "utf8",
			env: { ...process.env, NODE_OPTIONS: "" },
		});
		const crewDir = pathToFileURL(join(PACKAGES, "crew", sep));
		const runsTypeScript = spawnSync(node, ["-p", "Boolean(process.features.typescript)"], { encoding: "utf8" });
		if (bundleStandsForSources(crewDir) || runsTypeScript.stdout.trim() === "true") {
			assert.equal(result.status, 0, result.stderr);
			assert.equal(result.stdout, `crew ${packageVersion("crew")}\n`);
		} else {
			// Sources edited since the bundle was built, and a Node that cannot strip types: said, not a stack trace.
			assert.equal(result.status, 1);
			assert.match(result.stderr, /^crew: .*cannot run TypeScript.*\n$/);
		}
		assert.doesNotMatch(result.stderr, /ERR_UNKNOWN_FILE_EXTENSION|\n\s+at /);
	});
});

/** The version in a package's manifest. */
function packageVersion(pkg: BundledCli): string {
	return (JSON.parse(readFileSync(join(PACKAGES, pkg, "package.json"), "utf8")) as { version: string }).version;
}

/** The first `node` on PATH outside any `node_modules`: the machine's own, not the one `npm install` brought. */
function machineNode(): string {
	for (const dir of (process.env.PATH ?? "").split(delimiter)) {
		if (dir === "" || dir.split(sep).includes("node_modules")) continue;
		if (existsSync(join(dir, "node"))) return join(dir, "node");
	}
	return process.execPath;
}
