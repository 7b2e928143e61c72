/**
 * The commands of the `contour` CLI (see `cli.ts`, its entry): argument parsing, `review` and `status`. What a review
 * of an unchanged root needs (the snapshot, the caches, the renderers) is imported here, statically: it is light, and
 * one module graph loads faster than several dynamic imports. The analysis and Fovea's engine load only once a
 * review has a change to analyse (`review-root.ts`, and the code maps' loader below).
 */
import { access } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { reportCliFailure, UsageError } from "pi-fovea/cli-failure";
import { writeOutput } from "pi-fovea/cli-output";
import { terminalProgress } from "pi-fovea/cli-progress";
import { versionText } from "pi-fovea/cli-version";
import { ProjectDiscovery } from "pi-fovea/discovery";
import type { CodeMap } from "pi-fovea/engine";
import { envInt } from "pi-fovea/env";
import { gitReviewRoot } from "pi-fovea/manual-root";
import { printable } from "pi-fovea/printable";
import { estimateTokens } from "pi-fovea/text-budget";
import { contourCacheDir } from "./checkpoint/cache-dir.ts";
import { DiskCache } from "./checkpoint/disk-cache.ts";
import { loadPolicyFile, rootPolicy } from "./checkpoint/policy-file.ts";
import { ReviewCache } from "./checkpoint/review-cache.ts";
import { reviewRoot } from "./checkpoint/review-root.ts";
import { renderReport } from "./report/render-report.ts";
import { reportJson } from "./report/report-json.ts";
import { type ReportSummary, summarizeReport, summaryLine } from "./report/report-summary.ts";
import { spareCore } from "./spare-core.ts";

const USAGE = `usage:
  contour review [--staged|--working-tree|--base REF] [--root DIR] [--json] [--max-tokens N] [--max-findings N]
                 [--policy FILE] [--index-file FILE]
  contour status [--root DIR] [--json]
  contour hook install [--blocking] | uninstall | status [--json]   [--root DIR]
  contour help | --help | --version

commands:
  review   the structural review of a change: complexity per callable before and after, clones, import cycles,
           imports across regions, needless code, and what the change exposes
  status   the root's last review and its background observer
  hook     a pre-commit hook that runs the staged review (advisory; --blocking fails the commit on policy violations)

options:
  --staged          compare HEAD with the index (the default)
  --working-tree    compare HEAD with the files on disk
  --base REF        compare REF's merge base with HEAD (a branch review)
  --root DIR        the Git root to review (default: the Git root around the current directory)
  --max-tokens N    budget of the text report, 100 to 100000 (default 2000)
  --max-findings N  findings in the report, 0 to 100000 (default: all that fit the budget)
  --policy FILE     a policy (forbidden imports, regions, limits) instead of .pi/contour/policy.json
  --index-file FILE a staged review of this index file (inside the repository's Git directory) instead of the
                    index; the hook passes the one Git stages the commit in (GIT_INDEX_FILE)
  --json            the whole report as JSON instead of text`;

/** Text output fits this many tokens unless --max-tokens says otherwise. */
const DEFAULT_MAX_TOKENS = 2000;

async function main(argv: string[]): Promise<number> {
	// The hook verb has flags of its own (`hook-command.ts`); it records this Node and this package's entry.
	if (argv[0] === "hook") {
		const { hookCommand } = await import("./hook/hook-command.ts");
		const cli = fileURLToPath(new URL("../bin/contour.js", import.meta.url));
		return hookCommand(argv.slice(1), { node: process.execPath, cli });
	}
	const { values, positionals } = parseArgs({
		args: argv,
		allowPositionals: true,
		options: {
			staged: { type: "boolean", default: false },
			"working-tree": { type: "boolean", default: false },
			base: { type: "string" },
			root: { type: "string" },
			json: { type: "boolean", default: false },
			"max-tokens": { type: "string" },
			"max-findings": { type: "string" },
			policy: { type: "string" },
			"index-file": { type: "string" },
			help: { type: "boolean", short: "h", default: false },
			version: { type: "boolean", default: false },
		},
	});
	const [command, ...rest] = positionals;
	if (values.version) {
		// From the sources (src/) and the bundle (dist/) alike, the package's manifest is one folder up.
		await writeOutput(`${versionText("contour", new URL("../package.json", import.meta.url))}\n`);
		return 0;
	}
	if (values.help || command === "help") {
		await writeOutput(`${USAGE}\n`);
		return 0;
	}
	if (command === undefined) throw new UsageError("no command given");
	if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
	if (command === "status") return status(values.root, values.json);
	if (command !== "review") throw new UsageError(`unknown command ${JSON.stringify(command)}`);
	const chosen = [values.staged && "--staged", values["working-tree"] && "--working-tree", values.base && "--base"];
	const targets = chosen.filter((flag): flag is string => typeof flag === "string");
	if (targets.length > 1) throw new UsageError(`choose one of ${targets.join(", ")}`);
	const target = values.base !== undefined ? "branch" : values["working-tree"] ? "working-tree" : "staged";
	const indexFile = values["index-file"];
	if (indexFile !== undefined && target !== "staged") throw new UsageError("--index-file is for a staged review only");
	if (indexFile === "") throw new UsageError("--index-file needs a file");
	const maxTokens = integer(values["max-tokens"], "--max-tokens", 100, 100_000);
	const maxFindings = integer(values["max-findings"], "--max-findings", 0, 100_000);
	const root = await chooseRoot(values.root);
	const policy = values.policy === undefined ? undefined : await loadPolicyFile(resolve(values.policy));
	let map: CodeMap | undefined;
	const disk = new DiskCache();
	// With no core to spare, the review parses on its own thread alone (`spare-core.ts`).
	const threads = spareCore();
	// On a terminal, a line that counts the code map's files while a cold or changed map indexes (a large root takes
	// seconds); cleared before the report is written.
	const progress = terminalProgress("contour: indexing");
	const onProgress = progress.onProgress;
	try {
		const report = await reviewRoot({
			root,
			target,
			...(values.base === undefined ? {} : { base: values.base }),
			...(indexFile === undefined ? {} : { indexFile: resolve(indexFile) }),
			cache: new ReviewCache({ disk }),
			maps: async () => {
				const { CodeMap } = await reviewEngine();
				// A review asks the code map only for exposure, never a query by words: its facts need no content terms
				// (cached apart from those of a map that ranks by text, so neither takes the other's). The Pi extension's
				// maps, shared with Fovea's focus, keep them.
				// A fresh process holds no map: the review reads the slice of the root its change reaches, and builds the
				// map only for a finding's exposure.
				return {
					use: (at: string) => (map ??= new CodeMap(at, { contentTerms: false })),
					cold: () => map === undefined,
					threads,
				};
			},
			...(policy === undefined ? { rootPolicy: true } : { policy }),
			origin: { kind: "cli" },
			...(onProgress === undefined ? {} : { onProgress }),
		});
		progress.clear();
		const text = values.json
			? JSON.stringify(
					reportJson(report, {
						...(maxFindings === undefined ? {} : { maxFindings }),
						...(maxTokens === undefined ? {} : { maxTokens }),
					}),
					null,
					2,
				)
			: renderReport(report, {
					maxTokens: maxTokens ?? DEFAULT_MAX_TOKENS,
					speaksOf: "flags",
					...(maxFindings === undefined ? {} : { maxFindings }),
				});
		// The JSON report's lists shrink to the budget, but its identity (snapshot, origin, counts) does not: a budget
		// below that is refused rather than exceeded.
		const needed = values.json && maxTokens !== undefined ? estimateTokens(text) : 0;
		if (maxTokens !== undefined && needed > maxTokens) {
			throw new UsageError(
				`--max-tokens ${maxTokens} is too small for this review's JSON report: with every list shortened it still takes about ${needed} tokens (ask for at least that, or for the text report)`,
			);
		}
		// A reader that closed the pipe early ends the run quietly with the verdict's code (see `pi-fovea/cli-output`).
		await writeOutput(`${text}\n`);
		return report.policy !== null && report.policyViolations > 0 ? 1 : 0;
	} finally {
		await map?.index.flush().catch(() => {});
	}
}

let engine: Promise<typeof import("pi-fovea/engine")> | undefined;

/** Fovea's engine, loaded once and set up for a review's short run. */
function reviewEngine(): Promise<typeof import("pi-fovea/engine")> {
	engine ??= import("pi-fovea/engine").then((loaded) => {
		// A review is a short run: all of its WebAssembly stays on V8's baseline compiler (the engine keeps the
		// grammars there in every process), since optimizing the runtime's code costs a short run more than it saves
		// (the numbers are in bench/HISTORY.md).
		loaded.useBaselineCompilerEverywhere();
		// Bundled (`dist/cli.js`), the parsing threads run Contour's worker bundled beside it, which also measures
		// (`checkpoint/measure-worker.ts`). With all WebAssembly on the baseline compiler the second core is free while
		// the code map's first index parses, so a worker pays for its start from a few hundred files on (bench/HISTORY.md
		// has the measurement behind 500).
		if (!import.meta.url.endsWith(".ts"))
			loaded.useExtractWorkerScript(new URL("./extract-worker.js", import.meta.url));
		loaded.useExtractWorkersFrom(500);
		return loaded;
	});
	return engine;
}

/** `--root` as given (the review checks it is a Git worktree), else the current directory's Git project. */
async function chooseRoot(explicit: string | undefined): Promise<string> {
	if (explicit !== undefined) {
		if (explicit.trim() === "") throw new UsageError("--root needs a directory");
		const root = resolve(explicit);
		// Said before the engine loads; everything else about the root (a Git worktree?) the review checks.
		if (
			!(await access(root).then(
				() => true,
				() => false,
			))
		)
			throw new Error(`${root} does not exist (was the root deleted or moved?)`);
		return root;
	}
	const found = await gitReviewRoot(process.cwd(), [], new ProjectDiscovery());
	if (found === undefined)
		throw new UsageError(`${process.cwd()} is in no Git worktree: run contour inside one or pass --root DIR`);
	return found.root;
}

/**
 * Which root a review would take and which policy it would apply, without running Git or reading sources: the Git
 * worktree around the current directory, or around `--root` (which must exist; a directory in no worktree is said
 * so, since a review of it is refused).
 */
async function status(explicit: string | undefined, json: boolean): Promise<number> {
	const asked = explicit === undefined ? undefined : await chooseRoot(explicit);
	const discovered = await gitReviewRoot(asked ?? process.cwd(), [], new ProjectDiscovery());
	const root = discovered?.root ?? null;
	// Read as a review reads it, so status and review never disagree about it.
	const policy =
		root === null
			? null
			: await rootPolicy(root).then(
					(found) => found?.source ?? null,
					(error: Error) => `invalid: ${error.message}`,
				);
	const cacheDir = contourCacheDir();
	const { DiskCache } = await import("./checkpoint/disk-cache.ts");
	const kept = root === null ? [] : await new DiskCache(cacheDir).listReports(root);
	const reports = kept.map(summarizeReport);
	const info = {
		root,
		...(asked === undefined || asked === root ? {} : { requested: asked }),
		from: root === null ? null : explicit === undefined ? "cwd" : "explicit",
		policy,
		maxRoots: envInt("CONTOUR_MAX_ROOTS", 32, 1, 32),
		cacheDir,
		reports,
	};
	const text = json
		? JSON.stringify(info, null, 2)
		: [
				`contour status · root ${root ?? `none (${asked ?? "the current directory"} is in no Git worktree: a review there is refused)`}${root !== null && asked !== undefined && asked !== root ? ` (asked for ${asked})` : ""}`,
				`policy: ${info.policy ?? "none (findings are advisory)"}`,
				`report retention: up to ${info.maxRoots} roots (CONTOUR_MAX_ROOTS)`,
				`cache: ${info.cacheDir}`,
				...(root === null ? [] : keptReportLines(reports)),
			]
				.map(printable)
				.join("\n");
	await writeOutput(`${text}\n`);
	return 0;
}

/** The kept reports of a root, newest first, a line each. */
function keptReportLines(reports: readonly ReportSummary[]): string[] {
	if (reports.length === 0) return ["kept reports: none for this root"];
	return [`kept reports: ${reports.length}, newest first`, ...reports.map((summary) => `  ${summaryLine(summary)}`)];
}

function integer(value: string | undefined, flag: string, min: number, max: number): number | undefined {
	if (value === undefined) return undefined;
	const n = Number(value);
	if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max)
		throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
	return n;
}

/**
 * Runs the CLI on `argv` and sets the exit code: 0 ok, 1 policy violations, 2 usage or input error, or output that
 * could not be written. A reader that closes stdout early changes nothing (see `pi-fovea/cli-output`).
 */
export async function runCli(argv: string[]): Promise<void> {
	try {
		process.exitCode = await main(argv);
	} catch (error: unknown) {
		// The one place the CLI writes an error; it escapes the text from the repository a message may quote.
		reportCliFailure("contour", USAGE, error);
	}
}
