/**
 * Bundles the `fovea`, `contour` and `crew` command-line tools into one JavaScript file each, `packages/<pkg>/dist/cli.js`,
 * beside a record of the sources it was built from (`dist/cli.inputs.json`). Runs on `npm install` (the root's
 * `prepare`) and on `npm run build`.
 *
 * Why: a CLI run is one short process. Run from its TypeScript sources, every process loaded Node's type stripper
 * (~0.12 s) and resolved, read and compiled ~120 modules one by one (~0.1 s); a first run on a new machine also
 * stripped them all (~0.2 s). A review of an unchanged root takes less than that. The bundle is what a published
 * CLI ships. `bin/<name>.js` (see `packages/fovea/bin/launch.js`) runs the bundle only while every recorded source
 * still has the size and modification time it was built from; otherwise it runs the sources, so an edited checkout
 * never runs stale code.
 *
 *   node scripts/build-clis.ts [--quiet]
 *
 * Kept out of the bundle: `web-tree-sitter` (it loads its runtime's WebAssembly from its own directory) and the
 * Pi host's packages (never imported by the CLIs; listed so a stray import fails the build instead of bundling a host).
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build, type Plugin } from "esbuild";

/** The CLIs that are bundled, so each starts under any Node the machine has (`bin/<name>.js` picks the bundle). */
export const CLIS = ["fovea", "contour", "crew"] as const;
/** A package whose CLI is bundled. */
export type BundledCli = (typeof CLIS)[number];

/** Bump when the form of `cli.inputs.json` changes. */
export const INPUTS_VERSION = 1;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Bundled CommonJS dependencies (`ignore`, `write-file-atomic`) use `require` for Node's built-ins and `__filename`
 * (for temporary file names), which an ES module does not have: give the bundle both.
 */
const COMMONJS_SHIM = `import { createRequire as __cliCreateRequire } from "node:module";
import { fileURLToPath as __cliFileURLToPath } from "node:url";
import { dirname as __cliDirname } from "node:path";
const require = __cliCreateRequire(import.meta.url);
const __filename = __cliFileURLToPath(import.meta.url);
const __dirname = __cliDirname(__filename);`;

/**
 * Bundles `entryPoints` (output name → source file) into `outdir` as the CLIs are bundled: ES modules for Node 22,
 * `web-tree-sitter` and the Pi host's packages left out, the CommonJS shim on top. `outdir` must be inside the
 * repository, where the bundles resolve `web-tree-sitter` and the grammars as the sources do. Returns the absolute
 * paths of every source the bundles were built from. Also used by `bench/fovea-speed.bench.ts`, which measures the
 * engine as the bundled CLI runs it.
 */
export async function bundleEntries(
	entryPoints: Record<string, string>,
	outdir: string,
	splitting = false,
): Promise<string[]> {
	const result = await build({
		entryPoints,
		outdir,
		bundle: true,
		// Split at the dynamic imports, a run loads only the chunks its path reaches. Chunks sit beside the entries, so
		// code that finds files relative to its own module (`import.meta.url`) finds them as from the entry. Our
		// modules have no import-time effect anything relies on (none is imported for its effect alone): declared so,
		// a chunk leaves out the modules of a barrel (`pi-fovea/engine`) whose exports it does not use.
		splitting,
		chunkNames: "[name]-[hash]",
		plugins: splitting ? [OUR_MODULES_ARE_PURE] : [],
		platform: "node",
		format: "esm",
		target: "node22",
		external: ["web-tree-sitter", "@earendil-works/*", "typebox"],
		banner: { js: COMMONJS_SHIM },
		metafile: true,
		logLevel: "warning",
		absWorkingDir: repo,
	});
	return Object.keys(result.metafile.inputs)
		.sort()
		.map((input) => resolve(repo, input));
}

/** Marks the modules of our packages' sources free of import-time effects (see `bundleEntries`). */
const OUR_MODULES_ARE_PURE: Plugin = {
	name: "our-modules-are-pure",
	setup(builder) {
		const ours = /\/packages\/[^/]+\/src\//;
		builder.onResolve({ filter: /.*/ }, async (args) => {
			if (args.pluginData === OUR_MODULES_ARE_PURE || args.kind === "entry-point") return undefined;
			const { kind, importer, namespace, resolveDir, with: attributes } = args;
			const found = await builder.resolve(args.path, {
				kind,
				importer,
				namespace,
				resolveDir,
				with: attributes,
				pluginData: OUR_MODULES_ARE_PURE,
			});
			if (found.errors.length > 0 || found.external || !ours.test(found.path)) return undefined;
			return { ...found, sideEffects: false };
		});
	},
};

/** The entry of Fovea's parsing threads, bundled beside every bundled engine (a pool started there points at it). */
export const EXTRACT_WORKER_ENTRY = join(repo, "packages/fovea/src/engine/extract/worker.ts");

/** Contour's entry of its parsing threads, in its package. */
const CONTOUR_WORKER_ENTRY = "src/checkpoint/measure-worker.ts";

/**
 * Builds the bundle of one package's CLI into `dist` (default: the package's `dist/`; another directory must also
 * be inside the package, where the bundle resolves `web-tree-sitter` and the grammars as the sources do) and records
 * its inputs.
 */
export async function buildCli(
	pkg: BundledCli,
	dist = join(repo, "packages", pkg, "dist"),
): Promise<{ pkg: string; outfile: string; inputs: number; bytes: number }> {
	const packageDir = join(repo, "packages", pkg);
	rmSync(dist, { recursive: true, force: true });
	mkdirSync(dist, { recursive: true });
	const outfile = join(dist, "cli.js");
	// The CLI and, for the two that parse code, the extraction worker (the entry of Fovea's parsing threads, which the
	// bundled CLI points its pool at): one record of every source either was built from.
	// Contour's threads run its own entry, which registers the tree visitor that measures a file in the parse that
	// extracts it (`checkpoint/measure-worker.ts`) before it serves.
	const workerEntry = pkg === "contour" ? join(packageDir, CONTOUR_WORKER_ENTRY) : EXTRACT_WORKER_ENTRY;
	const worker: Record<string, string> = pkg === "crew" ? {} : { "extract-worker": workerEntry };
	// Contour's no-change review answers from its kept report: its CLI is split at its dynamic imports so that run
	// loads only the code that reads the snapshot and the kept report, not the parser, the engine or the analysis.
	const sources = await bundleEntries({ cli: join(packageDir, "src/cli.ts"), ...worker }, dist, pkg === "contour");
	const inputs = sources.map((absolute) => {
		const info = statSync(absolute);
		return { path: relative(packageDir, absolute), size: info.size, mtimeMs: info.mtimeMs };
	});
	writeFileSync(join(dist, "cli.inputs.json"), `${JSON.stringify({ version: INPUTS_VERSION, inputs }, null, "\t")}\n`);
	return { pkg, outfile, inputs: inputs.length, bytes: statSync(outfile).size };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const { values } = parseArgs({ options: { quiet: { type: "boolean", default: false } } });
	for (const pkg of CLIS) {
		const built = await buildCli(pkg);
		if (!values.quiet) {
			const size = Math.round(built.bytes / 1024);
			process.stdout.write(`built ${relative(repo, built.outfile)} (${size} KiB from ${built.inputs} sources)\n`);
		}
	}
}
