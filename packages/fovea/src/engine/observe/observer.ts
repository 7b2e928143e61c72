import { canonicalPath } from "../../workspace/canonical-path.ts";
import { envInt } from "../../workspace/env.ts";
import { relativeInside } from "../../workspace/path-inside.ts";
import type { Roaming } from "../../workspace/roaming-contract.ts";
import { type AttentionTarget, attentionKey } from "../model/index.ts";
import { hashOf } from "../parse/index.ts";
import type { ResidentMaps } from "../residency.ts";
import { DEFAULT_MAX_FILE_BYTES, readBounded } from "../scan/index.ts";
import { Attention } from "./attention.ts";
import { Baseline, type Drift } from "./baseline.ts";
import { driftMessage } from "./drift-message.ts";
import { Provenance } from "./provenance.ts";
import { newProbeState, type ProbeState, type ProbeStats, probeRoots } from "./root-probe.ts";
import { attendedTargets } from "./tool-attention.ts";

/** Attention weights by tool: writing binds attention more than reading, searching less. */
const ATTENTION: Record<string, number> = {
	edit: 2,
	write: 2,
	read: 1,
	fovea_focus: 0.5,
	grep: 0.3,
	find: 0.2,
	ls: 0.2,
};

/** The observation of one root: attention, semantic baseline, provenance and the drift not yet told. */
interface RootObservation {
	attention: Attention;
	baseline: Baseline;
	provenance: Provenance;
	/** What the post-turn probe remembers of the root (see `root-probe.ts`). */
	probe: ProbeState;
	pending: Drift[];
	/** The turn (`Observer.decay` count) of the last attention here: a root stays relevant a while after it fades. */
	attendedTurn: number;
}

/**
 * Turns a root stays relevant (probed after turns, its drift told) after the last attention there. Attention itself
 * fades faster (×0.7 a turn: gone after about 13), but one task's turns easily outnumber that.
 */
const RELEVANT_TURNS = 50;

/** Work counters, so tests can assert that an unchanged root costs one probe and no rebuild. */
export interface ObserverStats extends ProbeStats {
	baselines: number;
}

/**
 * Per-root observation for one session: what the agent looks at (attention, decaying per turn), what each file
 * meant at the observation boundary (baseline), who changed it (provenance), and the meaningful drift to tell the
 * model. Nothing crosses roots. Retirement forgets a root; re-entry starts a new boundary.
 */
export class Observer {
	readonly stats: ObserverStats = {
		probes: 0,
		unchangedProbes: 0,
		watchedProbes: 0,
		refreshes: 0,
		sweeps: 0,
		gone: 0,
		failures: 0,
		baselines: 0,
	};
	readonly #roots = new Map<string, RootObservation>();
	/** Why roots' observation ended (retired, deleted or moved), each to be told once, in the order it happened. */
	readonly #notices: string[] = [];
	/** The session whose probes run now; replaced (and aborted) when it ends. */
	#session = new AbortController();
	readonly #maps: ResidentMaps;
	readonly #writes = new Map<string, { root: string; path: string }>();
	/** Turns ended in this session (`decay` calls). */
	#turn = 0;
	#probing: Promise<void> = Promise.resolve();
	/** Tokens of the shared drift budget (FOVEA_SYNC_TOKENS). */
	readonly #budget = envInt("FOVEA_SYNC_TOKENS", 600, 100, 8000);
	/** How long the blocking before-run hook may wait for warm roots' probes (FOVEA_WARM_PROBE_MS). */
	readonly #warmProbeMs = envInt("FOVEA_WARM_PROBE_MS", 300, 0, 60_000);
	/** How long a quiet change watch alone vouches for a root before a full check runs again (FOVEA_WATCH_TRUST_MS). */
	readonly #watchTrustMs = envInt("FOVEA_WATCH_TRUST_MS", 60_000, 0, 3_600_000);

	constructor(maps: ResidentMaps) {
		this.#maps = maps;
	}

	/** This session's `edit`/`write` is about to run (`tool_execution_start`). */
	async writeStarted(toolCallId: string, args: unknown, cwd: string, roaming: Roaming): Promise<void> {
		const target = await ownerOf((args as { path?: unknown } | undefined)?.path, cwd, roaming);
		if (target === undefined) return;
		this.#writes.set(toolCallId, target);
		await this.beginWrite(target.root, toolCallId, target.path);
	}

	/** The write finished (`tool_execution_end`). */
	async writeEnded(toolCallId: string, ok: boolean): Promise<void> {
		const target = this.#writes.get(toolCallId);
		if (target === undefined) return;
		this.#writes.delete(toolCallId);
		await this.endWrite(target.root, toolCallId, target.path, ok);
	}

	/**
	 * A successful path tool result (`tool_result`): attention within its enrolled root on what the tool looked at
	 * (`tool-attention.ts`: the lines read or written, the symbols searched for, else the path).
	 */
	async toolResult(toolName: string, input: unknown, cwd: string, roaming: Roaming): Promise<void> {
		const args = input !== null && typeof input === "object" ? (input as Record<string, unknown>) : {};
		const target = await ownerOf(args.path ?? ".", cwd, roaming);
		const rel = target === undefined ? undefined : relativeInside(target.root, target.path);
		if (target === undefined || rel === undefined) return;
		const targets = await attendedTargets(toolName, args, rel === "" ? "." : rel, target.path);
		// The root may have been retired while an edited file was read: its observation is not recreated for it.
		if (roaming.ring()?.owner(target.path) !== target.root) return;
		for (const attended of targets) this.attendTarget(target.root, attended, toolName);
	}

	/** After the turn (`agent_settled`): probe the roots the agent works in, off every blocking hook. */
	backstop(roaming: Roaming): void {
		this.#queueProbe(this.relevant(), roaming);
	}

	/**
	 * Before a run (`before_agent_start`): warm roots (graph resident) cost one status probe, waited for at most
	 * FOVEA_WARM_PROBE_MS; cold roots wait for the post-turn backstop. Returns the drift message, if any, within `budget`
	 * tokens (the `fovea.sync.maxTokens` setting; FOVEA_SYNC_TOKENS without one).
	 */
	async beforeRun(
		roaming: Roaming,
		isResident: (root: string) => boolean,
		budget = this.#budget,
	): Promise<string | undefined> {
		const warm = this.relevant().filter(isResident);
		if (warm.length > 0) {
			this.#queueProbe(warm, roaming);
			await Promise.race([this.#probing, new Promise((r) => setTimeout(r, this.#warmProbeMs))]);
		}
		return this.drain(budget);
	}

	/** Probes `roots` after the probes queued before; a root found gone leaves the ring. */
	#queueProbe(roots: readonly string[], roaming: Roaming): void {
		const isCurrent = leaseGuard(roots, roaming);
		const retireGone = (root: string) => roaming.retireGone(root);
		this.#probing = this.#probing.then(() => this.probe(roots, isCurrent, retireGone)).catch(() => {});
	}

	/** Resolves when the probes started so far have finished. */
	settled(): Promise<void> {
		return this.#probing;
	}

	#state(root: string): RootObservation {
		let state = this.#roots.get(root);
		if (state === undefined) {
			state = {
				attention: new Attention(),
				baseline: new Baseline(),
				provenance: new Provenance(),
				probe: newProbeState(),
				pending: [],
				attendedTurn: this.#turn,
			};
			this.#roots.set(root, state);
		}
		return state;
	}

	/** A successful tool touched `path` inside `root`. */
	attend(root: string, path: string, toolName: string): void {
		const rel = relativeInside(root, path);
		if (rel !== undefined) this.attendTarget(root, { path: rel === "" ? "." : rel }, toolName);
	}

	/** A successful tool looked at `target` (its path root-relative) inside `root`. */
	attendTarget(root: string, target: AttentionTarget, toolName: string): void {
		const state = this.#state(root);
		state.attention.touch(attentionKey(target), ATTENTION[toolName] ?? 0.3);
		state.attendedTurn = this.#turn;
	}

	attention(root: string): Attention | undefined {
		return this.#roots.get(root)?.attention;
	}

	/** A turn ended: attention decays by turns, not wall time. */
	decay(): void {
		this.#turn++;
		for (const state of this.#roots.values()) state.attention.decay();
	}

	/** This session's tool is about to write `path`. */
	async beginWrite(root: string, toolCallId: string, path: string): Promise<void> {
		const rel = relativeInside(root, path);
		if (rel === undefined) return;
		this.#state(root).provenance.begin(toolCallId, rel, await contentHash(path));
	}

	/** The write finished (`ok`) or failed. */
	async endWrite(root: string, toolCallId: string, path: string, ok: boolean): Promise<void> {
		const rel = relativeInside(root, path);
		if (rel !== undefined) this.#maps.get(root)?.markDirty([rel]);
		this.#roots.get(root)?.provenance.end(toolCallId, ok ? await contentHash(path) : undefined, ok);
	}

	/** Establishes the baseline from an index snapshot if this root has none yet (its observation boundary). */
	ensureBaseline(root: string, files: Parameters<Baseline["establish"]>[0]): void {
		const state = this.#state(root);
		if (state.baseline.established) return;
		state.baseline.establish(files);
		this.stats.baselines++;
	}

	/**
	 * The post-turn backstop for the roots the agent works in: a Git root is probed with one status call and
	 * rebuilt only when the probe differs; a root without Git is swept at most every 30 s. A root never indexed
	 * is indexed once, which sets its baseline. `isCurrent(root)` is checked after every wait. A root found gone ends
	 * its observation, is told once, and is handed to `retireGone` (the ring lets it go: it holds no place there).
	 */
	probe(
		roots: readonly string[],
		isCurrent: (root: string) => boolean,
		retireGone: (root: string) => void = () => {},
	): Promise<void> {
		return probeRoots(roots, isCurrent, {
			stats: this.stats,
			watchTrustMs: this.#watchTrustMs,
			observe: (root) => this.#state(root),
			map: (root) => this.#maps.use(root),
			peek: (root) => this.#maps.get(root),
			ensureBaseline: (root, files) => this.ensureBaseline(root, files),
			signal: this.#session.signal,
			gone: (root) => {
				// Its drift can no longer be told; nothing of it is probed again unless activity brings it back.
				if (this.#roots.delete(root))
					this.#notices.push(`Gone ${root}: the directory no longer exists (deleted or moved); observation ended.`);
				retireGone(root);
			},
		});
	}

	/**
	 * Roots the agent is working in: those with attention, or attended within the last `RELEVANT_TURNS` turns, or with
	 * drift still to tell; strongest attention first, then the most recently attended.
	 */
	relevant(): string[] {
		return [...this.#roots]
			.filter(([, s]) => s.attention.size > 0 || s.pending.length > 0 || this.#turn - s.attendedTurn <= RELEVANT_TURNS)
			.sort((a, b) => b[1].attention.total - a[1].attention.total || b[1].attendedTurn - a[1].attendedTurn)
			.map(([root]) => root);
	}

	/**
	 * One message about meaningful drift in the relevant roots, within one shared `maxTokens` spent on roots that
	 * have something to say (quiet roots cost nothing), strongest attention first; root labels and retirement notices
	 * count toward it (`drift-message.ts`). `undefined` when there is nothing to say.
	 */
	drain(maxTokens: number): string | undefined {
		const roots = this.relevant().flatMap((root) => {
			const state = this.#roots.get(root);
			return state === undefined ? [] : [{ root, state }];
		});
		return driftMessage(roots, this.#notices, maxTokens);
	}

	/**
	 * A new session starts: what was waiting to be told belongs to the session that ended, and so does a probe in
	 * flight (its index or walk stops).
	 */
	endSession(): void {
		this.#session.abort();
		this.#session = new AbortController();
		this.#notices.length = 0;
		for (const state of this.#roots.values()) state.pending = [];
	}

	/** Forgets retired roots (their next enrollment is a new observation boundary) and remembers to say so. */
	retire(roots: readonly string[], notify: boolean): void {
		for (const root of roots) {
			if (this.#roots.delete(root) && notify)
				this.#notices.push(`Retired ${root}: observation ended; a return starts a new baseline.`);
		}
	}
}

/** The content hash the index would record for `path`, read as the index reads (bounded, no FIFO, no symlink). */
async function contentHash(path: string): Promise<string | undefined> {
	const read = await readBounded(path, DEFAULT_MAX_FILE_BYTES);
	return read.kind === "content" ? hashOf(new TextDecoder().decode(read.bytes)) : undefined;
}

/**
 * The enrolled root owning a tool's `path` argument (resolved from the cwd like Pi resolves it), and the path, both
 * by the physical identity the ring uses (`canonicalPath`): a read or write through a symlink alias of a root is
 * attention and provenance of that root, never a path outside it or a change by someone else.
 */
async function ownerOf(
	path: unknown,
	cwd: string,
	roaming: Roaming,
): Promise<{ root: string; path: string } | undefined> {
	const plain = typeof path === "string" ? path.replace(/^@/, "") : "";
	if (plain === "" || plain.includes("\0")) return undefined;
	const physical = await canonicalPath(plain, cwd);
	const root = roaming.ring()?.owner(physical);
	return root === undefined ? undefined : { root, path: physical };
}

/** Captures the roots' leases now; work that outlives a retirement or session change may not publish. */
function leaseGuard(roots: readonly string[], roaming: Roaming): (root: string) => boolean {
	const tokens = new Map(roots.map((root) => [root, roaming.capture(root)]));
	return (root) => {
		const token = tokens.get(root);
		return token !== undefined && roaming.isCurrent(token);
	};
}
