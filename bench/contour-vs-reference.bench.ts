// Our Contour review CLI side by side with the published reference, `pi-contour` 0.4.4 from the registry (installed
// in bench/reference by `npm run bench:reference`, for this benchmark only), on the same real repository and the same
// change, in one run. Prints JSON.
//
//   npm run bench:contour     (or: node bench/contour-vs-reference.bench.ts [--reps 5] [--commit SHA] [--corpora self,viem]
//                                  [--ours-rev REV] [--quick] [--keep] [--from-sources])
//
// Corpora (bench/support/contour-corpus.ts), under one temp dir removed at the end (`--keep` leaves it):
// - `self`: a clone of this repository with a real commit (`--commit`) replayed as a staged change;
// - `viem`: the TypeScript sources of the `viem` package committed as a repository, with a refactoring-sized change
//   staged (bench/support/contour-viem-change.ts). Left out by `--quick`.
//
// Phases, each tool in its own fresh process (`review --staged --json --root DIR`), the order of the two tools
// alternating from one repetition to the next:
// 1. cold: new, empty cache directories (TMPDIR, where the reference keeps its facts; FOVEA_CACHE_DIR and
//    CONTOUR_CACHE_DIR, where ours keeps Fovea's fact cache and its own reports and measures);
// 2. no change: the same state again, the caches as the cold run left them (a second process);
// 3. one file: one more file edited and staged, caches warm from 1–2.
// Reported: wall ms (spawn to exit, Node start and module loading included) per tool, p50 over the repetitions, the
// ratio ours/reference and whether it is at most 0.5. Coverage (bench/support/contour-coverage.ts): every changed
// file and structural delta the reference reports in each phase needs a counterpart in ours; the missing ones are
// listed. The benchmark reports, it does not fail: it exits 0 when targets are missed, and 2 when a tool crashes.
// `--ours-rev REV` measures our packages as committed at REV (a copy, see `snapshotOurs`) instead of the checkout's
// files, for a stable measurement while the checkout is being edited. Ours runs as it ships, bundled: a checkout whose
// bundle is missing or older than its sources is bundled again first (run from its TypeScript sources, type stripping
// and ~100 modules included, a cold review of `self` took 1,462 against 1,189 ms), unless `--from-sources` asks for
// the sources as they are.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
	applyOneFileEdit,
	type Corpus,
	commitAll,
	copyPackageSources,
	packageDir,
	prepareSelf,
	restoreEdit,
	settle,
	stageAll,
} from "./support/contour-corpus.ts";
import { type Coverage, compareCoverage } from "./support/contour-coverage.ts";
import {
	type OurReport,
	parseOurReport,
	parseReferenceReport,
	type ReferenceReport,
} from "./support/contour-outputs.ts";
import {
	buildClis,
	locateTools,
	ourEntry,
	REFERENCE_PACKAGE,
	runTool,
	snapshotOurs,
	type Tool,
	ToolCrash,
	type ToolName,
} from "./support/contour-runs.ts";
import { applyViemChange } from "./support/contour-viem-change.ts";
import { git } from "./support/git.ts";

/** The replayed commit: Fovea's graph learning to follow edits, 12 files (5 new) in 3 directories of this repository. */
const DEFAULT_COMMIT = "d26e1e5a463101217fa636f18865a7c9c61c2fad";
const TARGETS = { maxRatio: 0.5 };
const PHASES = ["cold", "noChange", "oneFile"] as const;
type Phase = (typeof PHASES)[number];

const { values } = parseArgs({
	options: {
		reps: { type: "string", default: "5" },
		commit: { type: "string", default: DEFAULT_COMMIT },
		corpora: { type: "string", default: "self,viem" },
		quick: { type: "boolean", default: false },
		keep: { type: "boolean", default: false },
		"ours-rev": { type: "string" },
		"from-sources": { type: "boolean", default: false },
	},
});

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
function summary(samples: readonly number[]) {
	const sorted = [...samples].sort((a, b) => a - b);
	const mid = sorted.length / 2;
	const p50 =
		sorted.length % 2 === 1
			? (sorted[Math.floor(mid)] as number)
			: ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
	return {
		p50: round(p50),
		min: round(sorted[0] ?? 0),
		max: round(sorted.at(-1) ?? 0),
		n: sorted.length,
		samples: samples.map((s) => round(s)),
	};
}

/** The outputs of the first repetition, per phase, for the coverage comparison. */
type Outputs = Record<Phase, { ours?: OurReport; reference?: ReferenceReport }>;

async function measureCorpus(corpus: Corpus, tools: Record<ToolName, Tool>, reps: number, base: string) {
	const times: Record<Phase, Record<ToolName, number[]>> = {
		cold: { ours: [], reference: [] },
		noChange: { ours: [], reference: [] },
		oneFile: { ours: [], reference: [] },
	};
	const outputs: Outputs = { cold: {}, noChange: {}, oneFile: {} };
	const ourWork: Partial<Record<Phase, Record<string, number>>> = {};
	// The 1-minute load average at each run: wall times on a shared machine mean little without it.
	const load: number[] = [];
	await settle(corpus.root);
	for (let rep = 0; rep < reps; rep++) {
		const order: ToolName[] = rep % 2 === 0 ? ["ours", "reference"] : ["reference", "ours"];
		const caches = {
			ours: mkdtempSync(join(base, `cache-${corpus.label}-ours-`)),
			reference: mkdtempSync(join(base, `cache-${corpus.label}-reference-`)),
		};
		const phase = async (name: Phase) => {
			for (const tool of order) {
				process.stderr.write(`${corpus.label} rep ${rep + 1}/${reps} ${name} ${tool}…\n`);
				load.push(loadavg()[0] ?? 0);
				const run = await runTool(tools[tool], corpus.root, caches[tool]);
				times[name][tool].push(run.ms);
				if (rep > 0) continue;
				// Parsed on the first repetition only: a malformed output is a crash of that tool.
				try {
					if (tool === "ours") {
						const report = parseOurReport(run.stdout);
						outputs[name].ours = report;
						if (report.work !== undefined) ourWork[name] = report.work;
					} else outputs[name].reference = parseReferenceReport(run.stdout);
				} catch (error) {
					throw new ToolCrash(tool, (error as Error).message);
				}
			}
		};
		await phase("cold");
		await phase("noChange");
		const editPath = corpus.editPath;
		if (editPath === undefined) throw new Error(`no TypeScript source to edit in ${corpus.root}`);
		const previous = await applyOneFileEdit(corpus.root, editPath);
		await settle(corpus.root);
		await phase("oneFile");
		await restoreEdit(corpus.root, editPath, previous);
		await settle(corpus.root);
		for (const dir of Object.values(caches)) rmSync(dir, { recursive: true, force: true });
	}
	const phases: Record<string, unknown> = {};
	const targets: Record<string, { target: string; measured: number; met: boolean }> = {};
	for (const name of PHASES) {
		const ours = summary(times[name].ours);
		const reference = summary(times[name].reference);
		const ratio = round(ours.p50 / reference.p50, 3);
		phases[name] = { ours, reference, ratio };
		targets[`${name}Ratio`] = {
			target: `ours/reference p50 <= ${TARGETS.maxRatio}`,
			measured: ratio,
			met: ratio <= TARGETS.maxRatio,
		};
	}
	const coverage: Partial<Record<Phase, Coverage>> = {};
	for (const name of PHASES) {
		const { ours, reference } = outputs[name];
		if (ours !== undefined && reference !== undefined) coverage[name] = compareCoverage(reference, ours);
	}
	const missing = Object.values(coverage).reduce((n, c) => n + c.missing.length + c.referenceFindingsHidden, 0);
	targets.coverage = {
		target: "every changed file and structural delta the reference reports has a counterpart in ours (all phases)",
		measured: missing,
		met: Object.values(coverage).every((c) => c.coverageMet),
	};
	const reported = (name: Phase) => {
		const { ours, reference } = outputs[name];
		return {
			reference: reference && {
				changed: reference.changed.length,
				findings: reference.totalFindings,
				regions: reference.regions.length,
				gaps: reference.gaps,
			},
			ours: ours && {
				files: ours.files.length,
				deltas: ours.deltas.length,
				findings: ours.findings.length,
				gaps: ours.gaps,
			},
		};
	};
	return {
		corpus: {
			label: corpus.label,
			description: corpus.description,
			stagedFiles: corpus.staged.length,
			oneFileEdit: corpus.editPath,
		},
		loadAverage1m: summary(load),
		phases,
		reported: Object.fromEntries(PHASES.map((name) => [name, reported(name)])),
		ourWork,
		coverage,
		targets,
	};
}

/**
 * A digest of the sources our CLI runs (Contour's and Fovea's `src`), taken before and after the run: other work in the
 * same checkout can change them mid-run, and a run that measured two versions says so.
 */
function sourceDigest(repo: string): string {
	const hash = createHash("sha256");
	for (const dir of ["packages/contour/src", "packages/fovea/src"]) {
		const entries = readdirSync(join(repo, dir), { recursive: true, withFileTypes: true });
		const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
		for (const file of files.sort()) hash.update(file).update("\0").update(readFileSync(file)).update("\0");
	}
	return hash.digest("hex").slice(0, 16);
}

async function viemCorpus(base: string, repo: string): Promise<Corpus | undefined> {
	const viem = packageDir("viem", repo);
	if (viem === undefined) {
		process.stderr.write("viem is not installed (npm install): skipping the viem corpus\n");
		return undefined;
	}
	const root = join(base, "viem");
	mkdirSync(root);
	const copied = copyPackageSources(viem, join(root, "viem"));
	const version = (JSON.parse(readFileSync(join(viem, "package.json"), "utf8")) as { version: string }).version;
	await commitAll(root, `viem ${version} sources`);
	const files = (await git(root, ["ls-files", "-z"])).split("\0").filter(Boolean).sort();
	const change = applyViemChange(root, files);
	const staged = await stageAll(root);
	return {
		label: "viem",
		root,
		description: `viem ${version} sources (${copied} files), a synthetic refactoring staged: ${JSON.stringify(change)}`,
		staged,
		editPath:
			files.find((p) => p.endsWith("utils/formatters/transaction.ts")) ??
			(files[Math.floor(files.length / 3)] as string),
	};
}

async function main(): Promise<number> {
	const here = dirname(fileURLToPath(import.meta.url));
	const repo = (await git(here, ["rev-parse", "--show-toplevel"])).trim();
	const reps = values.quick === true ? 1 : Math.max(1, Number.parseInt(values.reps ?? "5", 10) || 5);
	const referenceVersion = (
		JSON.parse(readFileSync(join(repo, REFERENCE_PACKAGE, "package.json"), "utf8")) as {
			version: string;
		}
	).version;
	const oursRev = values["ours-rev"];
	const revision = {
		head: (await git(repo, ["rev-parse", "--short=12", "HEAD"]).catch(() => "unknown")).trim(),
		ours: oursRev === undefined ? "checkout" : (await git(repo, ["rev-parse", "--short=12", oursRev])).trim(),
		contourDirty:
			oursRev === undefined &&
			(await git(repo, ["status", "--porcelain", "--", "packages/contour/src"]).catch(() => "")) !== "",
		sourceDigest: "",
		sourceChangedDuringRun: false,
		/** Whether our CLI ran as installed (its bundle) or from its sources (`--from-sources`, or no bundle could be made). */
		entry: "sources" as ReturnType<typeof ourEntry>,
		/** Whether the checkout's bundle was stale or missing and bundled again before measuring. */
		rebuilt: false,
	};
	const base = mkdtempSync(join(tmpdir(), "contour-vs-reference-"));
	const loadBefore = loadavg().map((n) => round(n, 2));
	const results: Awaited<ReturnType<typeof measureCorpus>>[] = [];
	let crash: ToolCrash | undefined;
	let oursRoot = repo;
	try {
		if (oursRev !== undefined) oursRoot = await snapshotOurs(repo, oursRev, join(base, "ours"));
		const tools = locateTools(repo, oursRoot);
		revision.entry = ourEntry(oursRoot);
		if (revision.entry === "sources" && values["from-sources"] !== true) {
			process.stderr.write("our CLI's bundle is missing or older than its sources: bundling it again\n");
			revision.rebuilt = buildClis(oursRoot);
			revision.entry = ourEntry(oursRoot);
		}
		if (revision.entry === "sources") process.stderr.write("warning: measuring our CLI from its sources\n");
		revision.sourceDigest = sourceDigest(oursRoot);
		const wanted = new Set(values.quick === true ? ["self"] : (values.corpora ?? "").split(","));
		const corpora: Corpus[] = [];
		if (wanted.has("self")) corpora.push(await prepareSelf(repo, join(base, "self"), values.commit ?? DEFAULT_COMMIT));
		if (wanted.has("viem")) {
			const viem = await viemCorpus(base, repo);
			if (viem !== undefined) corpora.push(viem);
		}
		for (const corpus of corpora) results.push(await measureCorpus(corpus, tools, reps, base));
	} catch (error) {
		if (!(error instanceof ToolCrash)) throw error;
		crash = error;
	} finally {
		revision.sourceChangedDuringRun = revision.sourceDigest !== "" && sourceDigest(oursRoot) !== revision.sourceDigest;
		if (values.keep === true) process.stderr.write(`kept ${base}\n`);
		else rmSync(base, { recursive: true, force: true });
	}
	if (revision.sourceChangedDuringRun) process.stderr.write("warning: our sources changed during the run\n");
	const report = {
		benchmark: "contour vs reference (pi-contour 0.4.4)",
		node: process.version,
		reference: `pi-contour@${referenceVersion}`,
		revision,
		cpus: cpus().length,
		cpuModel: cpus()[0]?.model,
		loadAverage: { before: loadBefore, after: loadavg().map((n) => round(n, 2)) },
		repetitions: reps,
		targets: { ...TARGETS, coverage: "every reference changed file and structural delta reported by ours" },
		results,
		allTargetsMet: crash === undefined && results.every((r) => Object.values(r.targets).every((t) => t.met)),
		...(crash === undefined ? {} : { crash: { tool: crash.tool, message: crash.message } }),
	};
	process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
	return crash === undefined ? 0 : 2;
}

process.exitCode = await main();
