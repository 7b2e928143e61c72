import { stat } from "node:fs/promises";
import { basename } from "node:path";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { symbolKind } from "../engine/model/facts.ts";
import { partialFileCount } from "../engine/model/partial-coverage.ts";
import type { Observer } from "../engine/observe/index.ts";
import { pacedProgress } from "../engine/pace/progress.ts";
import type { IndexSnapshot } from "../engine/refresh/snapshot.ts";
import { centralFiles } from "../engine/render/sketch.ts";
import type { ResidentMaps } from "../engine/residency.ts";
import { canonicalPath } from "../workspace/canonical-path.ts";
import { envInt } from "../workspace/env.ts";
import type { Roaming } from "./roaming.ts";
import { settingsFor } from "./settings-access.ts";
import { withSpill } from "./spill-answer.ts";
import type { RankedLists } from "./spill-text.ts";
import { showFoveaStatus } from "./status-item.ts";

/**
 * The bodies of Fovea's tools, loaded with the engine on the first call. Each resolves its root, uses that root's
 * code map, shows indexing progress, and answers within the token budget.
 */

const MIN_MAX_TOKENS = 200;
const MAX_MAX_TOKENS = 20_000;

type Update = ((partial: { content: Array<{ type: "text"; text: string }>; details: unknown }) => void) | undefined;

/** What every tool run gets from the adapter. */
export interface RunContext {
	signal: AbortSignal | undefined;
	onUpdate: Update;
	ctx: ExtensionContext;
	roaming: Roaming;
	maps: ResidentMaps;
	observer: Observer;
}

/** `fovea_focus`. */
export async function runFocus(
	params: { query: string; path?: string; kind?: string; fresh?: boolean; root?: string; maxTokens?: number },
	run: RunContext,
) {
	const chosen = await chooseRoot(params.root, run.ctx, run.roaming);
	const { root } = chosen;
	const query: { text: string; paths?: string[]; kinds?: Set<string> } = { text: params.query };
	if (params.path !== undefined) query.paths = [params.path.replace(/^\.\//, "")];
	if (params.kind !== undefined) query.kinds = new Set([symbolKind(params.kind)]);
	try {
		// Only the first rendering re-checks every file: a second one (to fit a spill footer) needs no fresh walk.
		let fresh = params.fresh === true;
		const map = run.maps.use(root);
		const { answer, text } = await withSpill(
			run.ctx,
			{ tool: "focus", heading: `fovea focus · root ${root} · "${params.query}" · full ranked list` },
			await budget(params.maxTokens, root),
			(max) => {
				const options = { ...refreshOptions(run, root), fresh };
				fresh = false;
				return map.focus(query, max, options);
			},
			(answer) => answer,
		);
		settle(chosen, run.roaming);
		// A snapshot of a first index still running is no baseline: the files it has not reached would read as new.
		if (answer.snapshot.indexing === undefined) run.observer.ensureBaseline(root, answer.snapshot.files);
		for (const item of answer.files.slice(0, 3)) run.observer.attend(root, `${root}/${item.file}`, "fovea_focus");
		for (const item of answer.symbols.slice(0, 3))
			run.observer.attendTarget(root, { path: item.file, symbol: item.name }, "fovea_focus");
		return {
			content: [{ type: "text" as const, text }],
			details: {
				root,
				files: answer.files.slice(0, 20),
				symbols: answer.symbols.slice(0, 20),
				...(answer.routes === undefined ? {} : { routes: answer.routes }),
				...coverageCounts(answer.snapshot),
			},
		};
	} finally {
		clearProgress(run);
	}
}

/** `fovea_dwell`: heat from this root's attention, spread `factor` times further than a focus. */
export async function runDwell(params: { factor?: number; root?: string; maxTokens?: number }, run: RunContext) {
	const chosen = await chooseRoot(params.root, run.ctx, run.roaming);
	const { root } = chosen;
	const attention = run.observer.attention(root)?.top(20) ?? [];
	if (attention.length === 0) {
		settle(chosen, run.roaming);
		return {
			content: [
				{
					type: "text" as const,
					text: `fovea dwell · root ${root} · nothing to dwell on yet: read, edit or focus something in this root first.`,
				},
			],
			details: { root, files: [], symbols: [] },
		};
	}
	const factor =
		params.factor !== undefined && Number.isFinite(params.factor) ? Math.min(20, Math.max(0.5, params.factor)) : 2;
	try {
		const map = run.maps.use(root);
		const { answer, text } = await withSpill(
			run.ctx,
			{ tool: "dwell", heading: `fovea dwell · root ${root} · factor ${factor} · full ranked list` },
			await budget(params.maxTokens, root),
			(max) => map.dwell(attention, factor, max, refreshOptions(run, root)),
			(answer) => answer,
		);
		settle(chosen, run.roaming);
		return {
			content: [{ type: "text" as const, text }],
			details: {
				root,
				factor,
				files: answer.files.slice(0, 20),
				symbols: answer.symbols.slice(0, 20),
				...coverageCounts(answer.snapshot),
			},
		};
	} finally {
		clearProgress(run);
	}
}

/** `fovea_impact`: what changed files and symbols expose. */
export async function runImpact(
	params: {
		files?: string[];
		symbols?: string[];
		includeUncommitted?: boolean;
		base?: string;
		root?: string;
		maxTokens?: number;
	},
	run: RunContext,
) {
	const chosen = await chooseRoot(params.root, run.ctx, run.roaming);
	const { root } = chosen;
	const files = new Set((params.files ?? []).map((f) => f.replace(/^\.\//, "")));
	if (params.includeUncommitted === true || params.base !== undefined) {
		const { changedFiles } = await import("../engine/git/probe.ts");
		const options = {
			uncommitted: params.includeUncommitted === true,
			...(params.base === undefined ? {} : { base: params.base }),
		};
		for (const path of await changedFiles(root, options)) files.add(path);
	}
	const symbols = params.symbols ?? [];
	if (files.size === 0 && symbols.length === 0) {
		throw new Error("fovea_impact needs files, symbols, includeUncommitted or base (and found no changed file)");
	}
	try {
		const map = run.maps.use(root);
		const subject = [...files, ...symbols].join(", ");
		const { answer, text } = await withSpill(
			run.ctx,
			{ tool: "impact", heading: `fovea impact · root ${root} · exposure of ${subject} · full ranked list` },
			await budget(params.maxTokens, root),
			(max) => map.impact({ files: [...files], symbols }, max, refreshOptions(run, root)),
			(answer) => answer,
		);
		settle(chosen, run.roaming);
		return {
			content: [{ type: "text" as const, text }],
			details: {
				root,
				changed: [...files],
				symbols,
				files: answer.files.slice(0, 20),
				exposed: answer.symbols.slice(0, 20),
				dependsOn: answer.dependsOn.slice(0, 20),
				...coverageCounts(answer.snapshot),
			},
		};
	} finally {
		clearProgress(run);
	}
}

/** `fovea_sketch`. */
export async function runSketch(params: { root?: string; maxTokens?: number }, run: RunContext) {
	const chosen = await chooseRoot(params.root, run.ctx, run.roaming);
	const { root } = chosen;
	try {
		const map = run.maps.use(root);
		const { answer, text } = await withSpill(
			run.ctx,
			{ tool: "sketch", heading: `fovea sketch · root ${root} · files by connectivity · full ranked list` },
			await budget(params.maxTokens, root),
			(max) => map.sketch(max, refreshOptions(run, root)),
			() => sketchLists(run, root),
		);
		const { snapshot } = answer;
		settle(chosen, run.roaming);
		if (snapshot.indexing === undefined) run.observer.ensureBaseline(root, snapshot.files);
		return {
			content: [{ type: "text" as const, text }],
			details: { root, files: snapshot.files.size, ...coverageCounts(snapshot) },
		};
	} finally {
		clearProgress(run);
	}
}

/**
 * How a tool refreshes its root: with its signal, showing progress, and waiting for a first index at most
 * FOVEA_PATIENCE_MS (10 s) before answering from the files indexed so far, saying how far the index is.
 */
function refreshOptions(run: RunContext, root: string) {
	return {
		...(run.signal === undefined ? {} : { signal: run.signal }),
		onProgress: progress(run.ctx, run.onUpdate, root),
		patienceMs: envInt("FOVEA_PATIENCE_MS", 10_000, 0, 3_600_000),
	};
}

/** The answer's budget: the call's, clamped, else the `fovea.maxTokens` setting for the root. */
async function budget(maxTokens: number | undefined, root: string): Promise<number> {
	if (maxTokens === undefined || !Number.isFinite(maxTokens))
		return (await settingsFor(root)).settings["fovea.maxTokens"];
	return Math.min(MAX_MAX_TOKENS, Math.max(MIN_MAX_TOKENS, Math.floor(maxTokens)));
}

/** The root a tool works on, whether it was named, and the check its answer must pass to publish. */
interface ChosenRoot {
	root: string;
	explicit: boolean;
	current: () => boolean;
}

/**
 * The root a tool works on: an explicit root exactly as named (a narrow directory stays narrow), or the session
 * cwd's own project. It enrolls only when the tool's work succeeded (`settle`): a failed call enrolls nothing.
 */
export async function chooseRoot(
	explicit: string | undefined,
	ctx: ExtensionContext,
	roaming: Roaming,
): Promise<ChosenRoot> {
	if (explicit === undefined || explicit.trim() === "") {
		const scope = await roaming.manualRoot(ctx.cwd);
		if (scope?.excluded !== undefined) throw new Error(omittedRootRefusal(scope.root, scope.excluded));
		const root = scope?.root ?? ctx.cwd;
		return { root, explicit: false, current: roaming.guard(root) };
	}
	const root = await canonicalPath(explicit.trim(), ctx.cwd);
	const info = await stat(root).catch(() => undefined);
	if (info === undefined) throw new Error(`root '${explicit}' does not exist (resolved to ${root})`);
	if (!info.isDirectory()) throw new Error(`root '${explicit}' is not a directory (resolved to ${root})`);
	return { root, explicit: true, current: roaming.guard(root) };
}

/** Why a tool without `root` maps nothing when the session cwd is a folder discovery excludes, and what to do. */
function omittedRootRefusal(cwd: string, reason: string): string {
	return `no root given, and the session cwd ${cwd} (${reason}) is never mapped unless named: pass root with a project inside it, or with "${cwd}" itself to map all of it`;
}

/**
 * After a tool's work succeeded: refuses an answer made stale meanwhile (its root retired, or the session replaced:
 * nothing of it may publish or feed the root's observation), then enrolls the root, so the ring and the peer
 * extension learn of it.
 */
function settle(chosen: ChosenRoot, roaming: Roaming): void {
	if (!chosen.current()) {
		throw new Error(
			`the answer for ${chosen.root} is stale: the root was retired or the session changed while it was computed`,
		);
	}
	roaming.enrollExplicit(chosen.root, chosen.explicit);
}

/** What an answer's details say of coverage: files not mapped, and files mapped best effort. */
function coverageCounts(snapshot: IndexSnapshot) {
	const counts = { gaps: snapshot.gaps.length, bestEffort: partialFileCount(snapshot.partial) };
	return snapshot.indexing === undefined ? counts : { ...counts, indexing: snapshot.indexing };
}

/** Progress of a long index: the status bar and the tool's partial result. */
function progress(ctx: ExtensionContext, onUpdate: Update, root: string): (done: number, total: number) => void {
	return pacedProgress((done, total) => {
		const text = `fovea: indexing ${root} ${done}/${total} files`;
		if (ctx.hasUI) ctx.ui.setStatus("fovea", `fovea: indexing ${basename(root)} ${done}/${total}`);
		onUpdate?.({ content: [{ type: "text", text }], details: { root, done, total } });
	});
}

/** Indexing is over: the footer shows Fovea's idle item again. */
function clearProgress(run: RunContext): void {
	showFoveaStatus(run.ctx, run.roaming);
}

/** A sketch's ranked list: the root's files, most connected first (the order the sketch shows them in). */
async function sketchLists(run: RunContext, root: string): Promise<RankedLists> {
	const { graph } = await run.maps.use(root).refresh({ paths: [] });
	const files = centralFiles(graph.graph).map((id) => {
		const path = graph.graph.nodes[id]?.path ?? "";
		return { file: path, line: 1, kind: "file", name: path };
	});
	return { files, symbols: [] };
}
