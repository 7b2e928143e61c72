#!/usr/bin/env node
/**
 * `fovea`: Fovea's code map without a model. The same engine as the extension, on the project that owns the
 * current directory (or `--root`). Exit codes: 0 ok, 2 usage or input error (a missing root, a dwell or impact whose
 * named files and symbols are none of them in the root's map). `fovea help`, `--help` and `--version` answer at once.
 *
 *   fovea sketch [--root DIR] [--max-tokens N] [--json]
 *   fovea focus "<query>" [--path FILE] [--kind KIND] [--root DIR] [--max-tokens N] [--json]
 *   fovea dwell FILE... [--factor N] [--root DIR] [--max-tokens N] [--json]
 *   fovea impact [FILE...] [--symbol NAME]... [--uncommitted] [--base REF] [--root DIR] [--max-tokens N] [--json]
 *   fovea status [--root DIR] [--json]
 */
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { parseArgs } from "node:util";
import { reportCliFailure, UsageError } from "./cli/failure.ts";
import { writeOutput } from "./cli/output.ts";
import { printable } from "./cli/printable.ts";
import { terminalProgress } from "./cli/progress.ts";
import { useShortRunTiering } from "./cli/short-run-tiering.ts";
import { versionText } from "./cli/version.ts";
import { defaultCacheDir, rootCacheDir } from "./engine/cache-location.ts";
import { CodeMap } from "./engine/map/code-map.ts";
import { symbolKind } from "./engine/model/facts.ts";
import { partialFileCount } from "./engine/model/partial-coverage.ts";
import { useBaselineCompilerEverywhere } from "./engine/parse/grammar-compiler.ts";
import { indexNotes } from "./engine/refresh/index-notes.ts";
import type { IndexSnapshot } from "./engine/refresh/snapshot.ts";
import { couplingLine, coverageFooter, mappedCounts } from "./engine/render/coverage.ts";
import { sharedExtractPool, useExtractWorkerScript, useExtractWorkersFrom } from "./engine/shared-extract-pool.ts";
import { canonicalPath } from "./workspace/canonical-path.ts";
import { ProjectDiscovery } from "./workspace/discovery.ts";
import { cwdProject } from "./workspace/manual-root.ts";
import { relativeInside } from "./workspace/path-inside.ts";

const USAGE = `usage:
  fovea sketch [--root DIR] [--max-tokens N] [--json]
  fovea focus "<query>" [--path FILE] [--kind KIND] [--root DIR] [--max-tokens N] [--json]
  fovea dwell FILE... [--factor N] [--root DIR] [--max-tokens N] [--json]
  fovea impact [FILE...] [--symbol NAME]... [--uncommitted] [--base REF] [--root DIR] [--max-tokens N] [--json]
  fovea status [--root DIR] [--json]
  fovea help | --help | --version

commands:
  sketch   the root's most central files and symbols: a map to start from
  focus    the files and symbols a question points at (words, a symbol, an issue text with a traceback)
  dwell    what surrounds files you are reading: their neighbours, callers and tests
  impact   what a change to files or symbols exposes: importers, callers, tests, files changed with them
  status   the root's index: files, languages, what is left out and why

options:
  --root DIR        the project to map (default: the Git root or project around the current directory)
  --max-tokens N    budget of the text answer, 200 to 20000 (default 1500)
  --json            the whole answer as JSON instead of text
  --path FILE       focus: start from this file as well     --kind KIND  focus: only symbols of this kind
  --factor N        dwell: how much the files weigh, 0.5 to 20 (default 2)
  --symbol NAME     impact: a changed symbol (repeatable)    --uncommitted  impact: the files changed since HEAD
  --base REF        impact: the files changed since REF's merge base`;

async function main(argv: string[]): Promise<number> {
	const { values, positionals } = parseArgs({
		args: argv,
		allowPositionals: true,
		options: {
			root: { type: "string" },
			json: { type: "boolean", default: false },
			"max-tokens": { type: "string" },
			path: { type: "string" },
			kind: { type: "string" },
			factor: { type: "string" },
			symbol: { type: "string", multiple: true },
			uncommitted: { type: "boolean", default: false },
			base: { type: "string" },
			help: { type: "boolean", short: "h", default: false },
			version: { type: "boolean", default: false },
		},
	});
	const [command, ...rest] = positionals;
	if (values.version) {
		await writeOutput(`${versionText("fovea", new URL("../package.json", import.meta.url))}\n`);
		return 0;
	}
	if (values.help || command === "help" || command === undefined) {
		await writeOutput(`${USAGE}\n`);
		return command === undefined && !values.help ? 2 : 0;
	}
	const maxTokens = values["max-tokens"] === undefined ? 1500 : Number(values["max-tokens"]);
	// Digits only: Number() also reads 0x200, 1e3 and " 300 ", which no one means as a budget.
	const written = values["max-tokens"] === undefined || /^\d+$/.test(values["max-tokens"]);
	if (!written || !Number.isInteger(maxTokens) || maxTokens < 200 || maxTokens > 20_000) {
		throw new UsageError(`--max-tokens must be an integer from 200 to 20000, got ${values["max-tokens"]}`);
	}
	if ((command === "sketch" || command === "status") && rest.length > 0)
		throw new UsageError(`${command} takes no arguments, got ${rest.map((arg) => JSON.stringify(arg)).join(" ")}`);
	const root = await resolveRoot(values.root);
	// A root with nothing cached is indexed whole before any answer: if its size then calls for a parsing thread, one
	// started now is ready sooner, its start overlapping the walk (it is retired unused if not; see `prestart`).
	if (!existsSync(rootCacheDir(resolve(defaultCacheDir()), root))) sharedExtractPool().prestart();
	const map = new CodeMap(root);
	const progress = terminalProgress("indexing");
	const refresh = progress.onProgress === undefined ? {} : { onProgress: progress.onProgress };
	// A reader that closed the pipe early ends the run quietly, after the cache is flushed (see `cli/output.ts`).
	const print = (text: string) => writeOutput(`${text}\n`);
	try {
		switch (command) {
			case "focus": {
				const query = rest.join(" ").trim();
				if (query === "") throw new UsageError('focus needs a query: fovea focus "<query>"');
				const answer = await map.focus(
					{
						text: query,
						...(values.path === undefined ? {} : { paths: [rootRelative(root, values.path)] }),
						...(values.kind === undefined ? {} : { kinds: new Set([kindOption(values.kind)]) }),
					},
					maxTokens,
					refresh,
				);
				progress.clear();
				await print(
					values.json
						? answerJson(
								answer,
								maxTokens,
								{ root, query },
								{
									files: answer.files,
									symbols: answer.symbols,
									...(answer.routes === undefined ? {} : { routes: answer.routes }),
								},
							)
						: answer.text,
				);
				return 0;
			}
			case "dwell": {
				if (rest.length === 0) throw new UsageError("dwell needs at least one file to dwell on");
				const factor = values.factor === undefined ? 2 : Number(values.factor);
				if (!(factor >= 0.5 && factor <= 20))
					throw new UsageError(`--factor must be a number from 0.5 to 20, got ${values.factor}`);
				const answer = await map.dwell(
					rest.map((path) => [rootRelative(root, path), 1]),
					factor,
					maxTokens,
					refresh,
				);
				progress.clear();
				if (answer.result.seededNodes === 0) throw new Error(namedNothing(root, rest));
				await print(
					values.json
						? answerJson(answer, maxTokens, { root }, { files: answer.files, symbols: answer.symbols })
						: answer.text,
				);
				return 0;
			}
			case "impact": {
				const files = new Set(rest.map((path) => rootRelative(root, path)));
				if (values.uncommitted || values.base !== undefined) {
					const { changedFiles } = await import("./engine/git/probe.ts");
					const options = {
						uncommitted: values.uncommitted === true,
						...(values.base === undefined ? {} : { base: values.base }),
					};
					for (const path of await changedFiles(root, options)) files.add(path);
				}
				const symbols = values.symbol ?? [];
				if (files.size === 0 && symbols.length === 0) {
					throw new UsageError("impact needs files, --symbol, --uncommitted or --base (and found no changed file)");
				}
				const answer = await map.impact({ files: [...files], symbols }, maxTokens, refresh);
				progress.clear();
				// Files Git names as changed may be gone and import-free, which is an answer; what the person named is input.
				const fromGit = values.uncommitted || values.base !== undefined;
				if (answer.reach.seededNodes === 0 && !fromGit) throw new Error(namedNothing(root, [...rest, ...symbols]));
				const fields = { root, changed: [...files], symbols, coupling: map.coupling.status };
				const ranked = { files: answer.files, exposed: answer.symbols, dependsOn: answer.dependsOn };
				await print(values.json ? answerJson(answer, maxTokens, fields, ranked) : answer.text);
				return 0;
			}
			case "sketch": {
				const { text, snapshot } = await map.sketch(maxTokens, refresh);
				progress.clear();
				await print(
					values.json
						? JSON.stringify({ root, files: snapshot.files.size, ...coverageJson(snapshot, maxTokens), text }, null, 2)
						: text,
				);
				return 0;
			}
			case "status": {
				// Counts of files and gaps only: the index, without building a graph that nothing here reads. History is
				// mined meanwhile: its Git processes wait on the disk while this process parses (`update` never throws).
				const mining = map.coupling.update();
				const snapshot = await map.index.refresh(refresh);
				const coupling = await mining;
				progress.clear();
				const status = {
					root,
					files: snapshot.files.size,
					gaps: snapshot.gaps.length,
					partial: partialFileCount(snapshot.partial),
					truncated: snapshot.truncated,
					summarized: snapshot.summarized,
					coupling,
					work: {
						...map.index.stats,
						graphsBuilt: map.stats.graphsBuilt,
						// Parsing threads started, and the files they parsed (the rest were parsed on the main thread).
						parsingThreads: sharedExtractPool().stats.workersStarted,
						filesByThreads: sharedExtractPool().stats.jobsByWorkers,
					},
				};
				const coverage = coverageFooter(snapshot.gaps, snapshot.partial);
				await print(
					values.json
						? JSON.stringify(status, null, 2)
						: [
								`fovea status · root ${root}`,
								mappedCounts(snapshot),
								...[indexNotes(snapshot)].filter((note) => note !== ""),
								...(coverage === "" ? [] : coverage.split("\n")),
								couplingLine(coupling),
								`this run: ${status.work.filesRead} files read, ${status.work.filesParsed} parsed, ${status.work.cacheHits} from cache`,
							]
								.map(printable)
								.join("\n"),
				);
				return 0;
			}
			default:
				throw new UsageError(`unknown command '${command}'`);
		}
	} finally {
		await map.index.flush().catch(() => {});
	}
}

async function resolveRoot(explicit: string | undefined): Promise<string> {
	if (explicit === undefined) {
		const scope = await cwdProject(process.cwd(), new ProjectDiscovery());
		if (scope.excluded !== undefined)
			throw new UsageError(
				`no --root given, and the current directory ${scope.root} (${scope.excluded}) is never mapped unless named: give --root`,
			);
		return scope.root;
	}
	if (explicit === "") throw new UsageError("--root needs a directory, got an empty string");
	const root = await canonicalPath(explicit);
	const info = await stat(root).catch(() => undefined);
	// A wrong path, not a wrong command line: said as Contour's CLI says it, without the usage.
	if (info === undefined) throw new Error(`--root ${explicit} does not exist (was the root deleted or moved?)`);
	if (!info.isDirectory()) throw new Error(`--root ${explicit} is not a directory`);
	return root;
}

/**
 * The JSON of an answer: `fields`, its `ranked` lists, then the coverage of the snapshot it was ranked on (gaps,
 * best-effort files, and whether the walk stopped at a limit before it saw the whole root, as the text's footer
 * says). Each list is cut to
 * `jsonListLength(maxTokens)` entries, so the budget bounds the JSON too: every gap of a root with thousands of
 * unsupported files made ~370 KB at any budget. The counts stay whole.
 */
function answerJson(
	answer: { snapshot: IndexSnapshot },
	maxTokens: number,
	fields: Record<string, unknown>,
	ranked: Record<string, readonly unknown[]>,
): string {
	const cut = Object.fromEntries(
		Object.entries(ranked).map(([key, list]) => [key, list.slice(0, jsonListLength(maxTokens))]),
	);
	return JSON.stringify({ ...fields, ...cut, ...coverageJson(answer.snapshot, maxTokens) }, null, 2);
}

/** A snapshot's coverage for `--json`: the gaps and best-effort files (cut like an answer's lists), their counts. */
function coverageJson(snapshot: IndexSnapshot, maxTokens: number) {
	const length = jsonListLength(maxTokens);
	return {
		gaps: snapshot.gaps.slice(0, length),
		gapCount: snapshot.gaps.length,
		partial: snapshot.partial.slice(0, length),
		partialCount: snapshot.partial.length,
		truncated: snapshot.truncated,
		summarized: snapshot.summarized,
	};
}

/** Entries a `--json` list holds at most: one per 30 tokens of the budget, at least 10. */
function jsonListLength(maxTokens: number): number {
	return Math.max(10, Math.floor(maxTokens / 30));
}

// Bundled (`dist/cli.js`, see `bin/fovea.js`), the parsing threads run the worker bundled beside it.
if (!import.meta.url.endsWith(".ts")) useExtractWorkerScript(new URL("./extract-worker.js", import.meta.url));
// A command is a short run, so its WebAssembly stays on V8's baseline compiler, as in the `contour` CLI (the engine
// keeps the grammars there in every process, `engine/parse/grammar-compiler.ts`): optimizing even the runtime's hot
// functions costs a short run more than it returns, unless the run parses a megabyte of source or more. A parsing
// thread starts from 500 files or that megabyte: parsing time follows bytes (pytest's 279 files, 3.8 MB, took as long
// as 500 of vuejs/core's), and with the second core left free a thread pays for its start from there. A cold `status`
// of vuejs/core (527 files, 4.4 MB) took 2.5 s of CPU with neither, 2.2 s so (1.0 s and 0.9 s on each parsing thread).
const LARGE_RUN_BYTES = 1_000_000;
useBaselineCompilerEverywhere(LARGE_RUN_BYTES);
useExtractWorkersFrom(500, LARGE_RUN_BYTES);
// Its JavaScript likewise reaches V8's optimizing compiler later (`cli/short-run-tiering.ts`).
useShortRunTiering();

main(process.argv.slice(2)).then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => reportCliFailure("fovea", USAGE, error),
);

/** The input error of a dwell or impact that named nothing the root's map holds. */
function namedNothing(root: string, named: readonly string[]): string {
	const list = named.map((name) => JSON.stringify(name)).join(", ");
	return `none of ${list} is in the map of ${root} (a file must exist under the root and be one Fovea maps; a symbol must be a name it holds)`;
}

/** A `--kind` value, or a usage error naming the kinds. */
function kindOption(kind: string): string {
	try {
		return symbolKind(kind);
	} catch (error) {
		throw new UsageError(`--kind: ${(error as Error).message}`);
	}
}

/**
 * A file argument as the map names it: relative to the root, normalized (`./src/./a.ts` is `src/a.ts`). An absolute
 * path inside the root is taken relative to it; one outside, or a relative one that climbs out with `..`, is a usage
 * error (it would only answer "not in this root's map").
 */
function rootRelative(root: string, path: string): string {
	const inside = relativeInside(root, isAbsolute(path) ? resolve(path) : resolve(root, path));
	if (inside === undefined || inside === "") throw new UsageError(`${path} is not a file inside the root ${root}`);
	return inside;
}
