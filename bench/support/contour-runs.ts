// One timed run of a review CLI in a fresh process: ours as installed (`packages/contour/bin/contour.js`, which runs
// the bundle `npm install` built while it is current) or the published reference
// (`pi-contour@0.4.4`'s `dist/cli.mjs`, installed in `bench/reference` by `npm run bench:reference`, out of the
// repository's `node_modules`, whose `contour` bin is ours). Each tool's caches live
// under the directory it is given, so a new directory is a cold run and the same one again is a warm run.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bundleIsCurrent } from "../../packages/fovea/bin/launch.js";
import { runNode } from "../../packages/fovea/tests/support/run-node.ts";
import { materialize } from "./git.ts";

/** Which CLI. */
export type ToolName = "ours" | "reference";

/** How to run one CLI. */
export interface Tool {
	name: ToolName;
	/** The script Node runs. */
	script: string;
	/** Exit codes that mean "reviewed" (a policy violation is still a review); anything else is a crash. */
	okCodes: readonly number[];
}

/** A finished run: wall time from spawn to exit, process start and module loading included. */
export interface ToolRun {
	tool: ToolName;
	ms: number;
	code: number;
	stdout: string;
}

/** A run that did not review: a non-review exit code, a signal, a timeout or a spawn error. */
export class ToolCrash extends Error {
	readonly tool: ToolName;
	constructor(tool: ToolName, message: string) {
		super(`${tool}: ${message}`);
		this.tool = tool;
	}
}

/**
 * The two tools: the reference installed in the checkout `repo`, ours in `oursRoot` (the checkout itself, or a
 * `snapshotOurs` copy). Throws naming what is missing.
 */
export function locateTools(repo: string, oursRoot = repo): Record<ToolName, Tool> {
	// Revisions before the bundled CLI have no `bin/`: their entry is the sources'.
	const bin = join(oursRoot, "packages/contour/bin/contour.js");
	const ours = existsSync(bin) ? bin : join(oursRoot, "packages/contour/src/cli.ts");
	const reference = join(repo, REFERENCE_PACKAGE, "dist/cli.mjs");
	if (!existsSync(reference)) {
		throw new Error(`the reference CLI is missing (${reference}): run npm run bench:reference (or bench:contour)`);
	}
	if (!existsSync(ours)) throw new Error(`our CLI is missing (${ours})`);
	return {
		// Ours: 0 reviewed, 1 findings under an explicit policy, 2 usage or input error.
		ours: { name: "ours", script: ours, okCodes: [0, 1] },
		// The reference: 0 advisory, 2 explicit boundary violations, 1 analysis or usage failure.
		reference: { name: "reference", script: reference, okCodes: [0, 2] },
	};
}

/** Where `npm run bench:reference` installs the reference pi-contour, relative to the repository. */
export const REFERENCE_PACKAGE = "bench/reference/node_modules/pi-contour";

const WORKSPACES: Record<string, string> = { "pi-fovea": "fovea", "pi-contour": "contour", "pi-crew": "crew" };

/**
 * How our CLI in `oursRoot` will run: `bundle` when `bin/contour.js` will pick a current bundle, `sources` when it
 * falls back to the TypeScript sources (no bundle built, or sources edited since), `sources-only` for a revision
 * before the bundled CLI.
 */
export function ourEntry(oursRoot: string): "bundle" | "sources" | "sources-only" {
	const contour = join(oursRoot, "packages/contour");
	if (!existsSync(join(contour, "bin/contour.js"))) return "sources-only";
	return bundleIsCurrent(pathToFileURL(`${contour}/`)) ? "bundle" : "sources";
}

/**
 * Our packages as committed at `rev`, written to `into` with a `node_modules` whose workspace links point into the
 * copy and whose other entries link to the checkout's installed packages, and their CLIs bundled as `npm install`
 * bundles them. Returns the copy's root, for `locateTools`. For measuring a committed revision while the checkout
 * itself is being edited.
 */
export async function snapshotOurs(repo: string, rev: string, into: string): Promise<string> {
	mkdirSync(into, { recursive: true });
	await materialize(repo, rev, into, ["packages", "package.json", "scripts"]);
	const modules = join(into, "node_modules");
	mkdirSync(modules);
	for (const name of readdirSync(join(repo, "node_modules"))) {
		if (name.startsWith(".")) continue;
		const workspace = WORKSPACES[name];
		const target =
			workspace === undefined ? realpathSync(join(repo, "node_modules", name)) : join(into, "packages", workspace);
		symlinkSync(target, join(modules, name));
	}
	buildClis(into);
	return into;
}

/**
 * Bundles the CLIs of the checkout or copy at `root` as `npm install` does (`scripts/build-clis.ts`), when it has
 * that script; returns whether it did.
 */
export function buildClis(root: string): boolean {
	const build = join(root, "scripts/build-clis.ts");
	if (!existsSync(build)) return false;
	execFileSync(process.execPath, [build, "--quiet"], { stdio: ["ignore", "ignore", "inherit"] });
	return true;
}

/** The review command line shared by both CLIs (both default to HEAD → index; `--staged` says so explicitly). */
export function reviewArgs(tool: Tool, root: string): string[] {
	const args = [tool.script, "review", "--staged", "--json", "--root", root];
	// The reference prints at most `--max-findings` findings (default 8, at most 32): ask for all it allows.
	if (tool.name === "reference") args.push("--max-findings", "32");
	return args;
}

/**
 * Runs `tool` on `root` with every cache it could use under `cacheDir`: TMPDIR (the reference keeps its facts in
 * `$TMPDIR/pi-contour-<uid>`), FOVEA_CACHE_DIR (Fovea's fact cache, which our CLI reuses), CONTOUR_CACHE_DIR (our
 * reports and measures) and XDG_CACHE_HOME (the fallback of both of ours). Set for both tools alike.
 */
export async function runTool(tool: Tool, root: string, cacheDir: string, timeoutMs = 300_000): Promise<ToolRun> {
	const env = {
		TMPDIR: cacheDir,
		FOVEA_CACHE_DIR: join(cacheDir, "fovea"),
		CONTOUR_CACHE_DIR: join(cacheDir, "contour"),
		XDG_CACHE_HOME: join(cacheDir, "xdg"),
	};
	const run = await runNode(reviewArgs(tool, root), { env, timeoutMs }).catch((error: Error) => {
		throw new ToolCrash(tool.name, `could not start: ${error.message}`);
	});
	if (run.code === null || !tool.okCodes.includes(run.code)) {
		const how = run.code === null ? `killed by ${run.signal}` : `exit ${run.code}`;
		const output = run.stderr.trim().slice(0, 800) || run.stdout.slice(0, 400);
		throw new ToolCrash(tool.name, `${how} on ${root}: ${output}`);
	}
	return { tool: tool.name, ms: run.ms, code: run.code, stdout: run.stdout };
}
