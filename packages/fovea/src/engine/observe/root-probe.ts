/**
 * The post-turn probe of observed roots: the cheapest evidence that a root did or did not change, before any walk.
 * A root's change watch vouches alone for a while after a full check; a Git root costs one status call, and is
 * refreshed (just the dirty paths, or a walk when HEAD moved) only when that call's signature differs; a root
 * without Git is swept at most every 30 s, or at once when its change watch saw a change. Drift found is queued on
 * the root's observation for the observer to tell. Kept apart from the observer so the trust rules (when a watch,
 * a status signature or a sweep may answer) read in one place. Loaded with the observer, on first use: never on the
 * extension's startup path.
 */

import { repositoryGuard } from "../git/guard.ts";
import { statusSignature } from "../git/probe.ts";
import type { CodeMap } from "../map/index.ts";
import { RootGoneError } from "../scan/index.ts";
import type { Baseline, Drift } from "./baseline.ts";
import type { Provenance } from "./provenance.ts";

/**
 * How often a root without Git (or an explicit umbrella) is swept for changes at most. A sweep is a metadata walk
 * bounded by the index's file limit; only files whose size or mtime moved are read.
 */
const SWEEP_INTERVAL_MS = 30_000;

/** What the probe remembers of one root between turns. */
export interface ProbeState {
	gitSignature: string | undefined;
	gitHead: string | undefined;
	gitDirty: string[];
	isGit: boolean | undefined;
	lastSweep: number;
	/** The root watch's change count when the last full check (status probe or sweep) started. */
	watchReading: number | undefined;
	/** When the last full check ran: a watch is trusted alone only for FOVEA_WATCH_TRUST_MS after it. */
	lastFullCheck: number;
}

/** A root's probe state before its first check. */
export function newProbeState(): ProbeState {
	return {
		gitSignature: undefined,
		gitHead: undefined,
		gitDirty: [],
		isGit: undefined,
		lastSweep: 0,
		watchReading: undefined,
		lastFullCheck: 0,
	};
}

/** Work counters of probing, so tests can assert that an unchanged root costs one probe and no rebuild. */
export interface ProbeStats {
	probes: number;
	unchangedProbes: number;
	/** Unchanged probes that the root's change watch answered, without `git status` or a sweep. */
	watchedProbes: number;
	refreshes: number;
	sweeps: number;
	/** Roots found deleted or moved (their observation ends, see `ProbeContext.gone`). */
	gone: number;
	/** Probes of a root that failed otherwise (the other roots of the round are probed all the same). */
	failures: number;
}

/** The parts of a root's observation the probe reads and feeds. */
export interface ProbedRoot {
	baseline: Baseline;
	provenance: Provenance;
	/** Drift found and not told yet. */
	pending: Drift[];
	probe: ProbeState;
}

/** What probing needs from the observer. */
export interface ProbeContext {
	stats: ProbeStats;
	/** How long a quiet change watch alone vouches for a root after a full check. */
	watchTrustMs: number;
	/** The observation of `root`, created on first use. */
	observe(root: string): ProbedRoot;
	/** The code map of `root`, made resident (the least recently used beyond the limit is paged out). */
	map(root: string): CodeMap;
	/** The code map of `root` if there is one, resident or not, left where it is in the paging order. */
	peek(root: string): CodeMap | undefined;
	/** Establishes the root's baseline from its first indexed files, if it has none. */
	ensureBaseline(root: string, files: Parameters<Baseline["establish"]>[0]): void;
	/** `root` no longer exists: its observation ends, and the agent is told once. */
	gone(root: string): void;
	/** Aborted when the session that queued the round ends: an index or walk in flight stops there. */
	signal?: AbortSignal;
}

/**
 * Probes `roots` in order. A root never indexed is indexed once, which sets its baseline. `isCurrent(root)` is
 * checked after every wait: a root retired meanwhile ends the round. A root that fails (deleted, unreadable) does not:
 * the next one is probed all the same, so one dead root cannot silence the drift of the others.
 */
export async function probeRoots(
	roots: readonly string[],
	isCurrent: (root: string) => boolean,
	context: ProbeContext,
): Promise<void> {
	for (const root of roots) {
		if (!isCurrent(root)) continue;
		try {
			if ((await probeRoot(root, isCurrent, context)) === "stop") return;
		} catch (error) {
			// The session ended: the round's work is obsolete, not failed.
			if (context.signal?.aborted === true) return;
			if (error instanceof RootGoneError) {
				context.stats.gone++;
				if (isCurrent(root)) context.gone(root);
			} else context.stats.failures++;
		}
	}
}

/** Probes one root; "stop" when the root was retired meanwhile (the round ends). */
async function probeRoot(
	root: string,
	isCurrent: (root: string) => boolean,
	context: ProbeContext,
): Promise<"next" | "stop"> {
	const { stats } = context;
	const observation = context.observe(root);
	const state = observation.probe;
	if (!observation.baseline.established) {
		const map = context.map(root);
		const reading = map.watch?.changes;
		const { snapshot } = await map.refresh(signalOf(context));
		if (!isCurrent(root)) return "stop";
		context.ensureBaseline(root, snapshot.files);
		await recordGitState(root, state);
		checked(state, reading);
		return "next";
	}
	// Only a refresh makes the map resident: a probe that finds nothing changed must not page out the graph of a root
	// the agent is using for one it is not.
	const watch = context.peek(root)?.watch;
	/** The change watch, still trusted, saw something change since the last full check. */
	let watchSawChange = false;
	if (
		watch !== undefined &&
		state.watchReading !== undefined &&
		Date.now() - state.lastFullCheck < context.watchTrustMs
	) {
		if (await watch.unchangedSince(state.watchReading)) {
			stats.unchangedProbes++;
			stats.watchedProbes++;
			return "next";
		}
		watchSawChange = true;
	}
	if (!isCurrent(root)) return "stop";
	const reading = watch?.changes;
	let paths: string[] | undefined;
	if (state.isGit !== false) {
		const before = state.gitSignature;
		const probe = await statusSignature(root).catch(() => undefined);
		stats.probes++;
		if (probe !== undefined) {
			state.isGit = true;
			checked(state, reading);
			if (probe.signature === before) {
				stats.unchangedProbes++;
				return "next";
			}
			const headMoved = state.gitHead !== probe.head;
			paths = headMoved ? undefined : [...new Set([...state.gitDirty, ...probe.dirty])];
			state.gitSignature = probe.signature;
			state.gitHead = probe.head;
			state.gitDirty = probe.dirty;
		} else state.isGit = false;
	}
	if (state.isGit === false) {
		// Sweeps are paced, unless the change watch saw a change: then the sweep has something to find.
		if (!watchSawChange && Date.now() - state.lastSweep < SWEEP_INTERVAL_MS) return "next";
		state.lastSweep = Date.now();
		stats.sweeps++;
	}
	const { snapshot } = await context
		.map(root)
		.refresh(paths === undefined ? { fresh: true, ...signalOf(context) } : { paths, ...signalOf(context) });
	stats.refreshes++;
	if (state.isGit === false) checked(state, reading);
	if (!isCurrent(root)) return "stop";
	const gaps = new Map(snapshot.gaps.map((gap) => [gap.path, gap.reason]));
	const drift = observation.baseline.advance(
		snapshot.files,
		paths,
		(p, h) => observation.provenance.authored(p, h),
		gaps,
	);
	observation.pending.push(...drift);
	return "next";
}

/** The refresh option that stops a probe's index when its session ends. */
function signalOf(context: ProbeContext): { signal?: AbortSignal } {
	return context.signal === undefined ? {} : { signal: context.signal };
}

/** Records a full check that started at watch reading `reading`. */
function checked(state: ProbeState, reading: number | undefined): void {
	state.watchReading = reading;
	state.lastFullCheck = Date.now();
}

/** The Git state a root's first index is compared against later; a root without (usable) Git is swept instead. */
async function recordGitState(root: string, state: ProbeState): Promise<void> {
	try {
		await repositoryGuard(root);
		const probe = await statusSignature(root);
		state.isGit = true;
		state.gitSignature = probe.signature;
		state.gitHead = probe.head;
		state.gitDirty = probe.dirty;
	} catch {
		state.isGit = false;
		state.lastSweep = Date.now();
	}
}
