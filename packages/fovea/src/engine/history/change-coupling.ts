/**
 * Change coupling of one root: how often each file changed together with another in the root's recent history, the
 * signal that finds a file's test, its sibling implementation or its config when no import links them. Mined from
 * HEAD's ancestors only (see coupling-miner.ts), renames followed so a file's older commits count under its path at
 * HEAD (rename-paths.ts), bounded to the newest `limit` non-merge commits with huge commits
 * left out, incremental (a new HEAD that descends from the mined one costs only `mined..HEAD`), and kept with the
 * facts (coupling-store.ts). Mining happens once per new HEAD, when a caller asks `update()`. What it gives is the
 * mined `history`, from which the graph builds its coupled edges (`graph/coupled-edges.ts`), the one place impact and
 * focus read co-changes from, and each commit's subject, which focus reads as words for the files it changed
 * (`rank/commit-messages.ts`).
 */
import { mkdir } from "node:fs/promises";
import { envInt } from "../../workspace/env.ts";
import {
	type HistorySource,
	isAncestor,
	type MinedCommit,
	mineCommits,
	oneLine,
	probeHistory,
} from "./coupling-miner.ts";
import { type MinedHistory, readMinedHistory, writeMinedHistory } from "./coupling-store.ts";
import type { RenamePaths } from "./rename-paths.ts";

/** Whether history is available, and over how many commits; or why not (said in answers and status). */
export type CouplingStatus =
	| { available: true; head: string; commits: number }
	| { available: false; reason: string }
	| { available: "unknown" };

/** Work counters, so tests can assert what a mine read. */
export interface CouplingStats {
	/** Updates that asked Git where HEAD is. */
	probes: number;
	/** Commits read from Git, over all mines. */
	commitsRead: number;
	/** Commits left out as huge (more than `maxFiles` files). */
	hugeSkipped: number;
	/** Renames followed in the commits read, so older commits count under the file's path at HEAD. */
	renamesFollowed: number;
	/** Mines run: full (from nothing) and incremental (only the commits since the mined head). */
	fullMines: number;
	incrementalMines: number;
	/** Mines answered by the stored history without reading a commit. */
	storeHits: number;
	/** Co-changes (coupling edges) the mined commits hold after the last update: each pair of files per commit. */
	pairs: number;
}

/** Options: the history to read (default the root's own repository), the store's directory, the bounds. */
export interface ChangeCouplingOptions {
	source?: HistorySource;
	/** The root's fact-cache directory; without it the mined history lives in memory only. */
	storeDir?: string;
	/** The newest this many non-merge commits (default FOVEA_COUPLING_COMMITS or 1,000). */
	limit?: number;
	/** Commits changing more files than this couple nothing (default FOVEA_COUPLING_MAX_FILES or 30). */
	maxFiles?: number;
}

/** The change coupling of one root (see the module comment). */
export class ChangeCoupling {
	readonly stats: CouplingStats = {
		probes: 0,
		commitsRead: 0,
		hugeSkipped: 0,
		renamesFollowed: 0,
		fullMines: 0,
		incrementalMines: 0,
		storeHits: 0,
		pairs: 0,
	};
	readonly #source: HistorySource;
	readonly #storeDir: string | undefined;
	readonly #limit: number;
	readonly #maxFiles: number;
	#history: MinedHistory | undefined;
	#status: CouplingStatus = { available: "unknown" };
	#running: Promise<CouplingStatus> | undefined;

	constructor(root: string, options: ChangeCouplingOptions = {}) {
		this.#source = options.source ?? { gitDir: root };
		this.#storeDir = options.storeDir;
		this.#limit = options.limit ?? envInt("FOVEA_COUPLING_COMMITS", 1000, 1, 100_000);
		this.#maxFiles = options.maxFiles ?? envInt("FOVEA_COUPLING_MAX_FILES", 30, 2, 10_000);
	}

	/** What the last update found; `unknown` before the first, and after `forget`. */
	get status(): CouplingStatus {
		return this.#status;
	}

	/** Mined commits held in memory: 0 before the first update and after `forget`. */
	get heldCommits(): number {
		return this.#history?.commits.length ?? 0;
	}

	/**
	 * Lets go of the mined commits in memory (a root paged out): the next `update` reads them back from the store (no
	 * mining when HEAD has not moved); until then the status is `unknown`. Without a store the next update mines again.
	 * Does nothing while an update runs: it holds what it mines.
	 */
	forget(): void {
		if (this.#running !== undefined) return;
		this.#use(undefined);
		this.#status = { available: "unknown" };
	}

	/**
	 * Brings the coupling to the current HEAD: nothing to read when HEAD is the mined one, only the new commits when it
	 * descends from it, else the newest `limit` again. Concurrent calls share one run. Never throws: a history that
	 * cannot be read is a status that says why.
	 */
	update(): Promise<CouplingStatus> {
		this.#running ??= this.#update()
			.catch(
				(error: unknown): CouplingStatus => ({
					available: false,
					reason: `history could not be read: ${oneLine(String((error as Error)?.message ?? error))}`,
				}),
			)
			.then((status) => {
				this.#status = status;
				return status;
			})
			.finally(() => {
				this.#running = undefined;
			});
		return this.#running;
	}

	/**
	 * The mined commits at the mined head, newest first, each file named as at that head; `undefined` without history.
	 * A new object whenever the history moves, so what is built from it can tell by identity that it is stale.
	 */
	get history(): MinedHistory | undefined {
		return this.#history;
	}

	async #update(): Promise<CouplingStatus> {
		this.stats.probes++;
		const probe = await probeHistory(this.#source);
		if (probe.kind === "none") {
			this.#use(undefined);
			return { available: false, reason: probe.reason };
		}
		const expect = { source: `${this.#source.gitDir}\0${probe.prefix}`, limit: this.#limit, maxFiles: this.#maxFiles };
		let known = this.#history?.source === expect.source ? this.#history : undefined;
		if (known === undefined && this.#storeDir !== undefined) {
			known = await readMinedHistory(this.#storeDir, expect);
			if (known?.head === probe.head) this.stats.storeHits++;
		}
		const bounds = { head: probe.head, limit: this.#limit, maxFiles: this.#maxFiles, prefix: probe.prefix };
		let commits: MinedCommit[];
		if (known?.head === probe.head) commits = known.commits;
		else if (known !== undefined && (await isAncestor(this.#source.gitDir, probe.forced, known.head, probe.head))) {
			const fresh = await mineCommits(this.#source.gitDir, probe.forced, { ...bounds, since: known.head });
			this.#count(fresh);
			this.stats.incrementalMines++;
			// The stored commits name files as at the mined head: the new commits' renames bring them to this one.
			const older = known.commits.map((c) => ({ ...c, files: fresh.renames.rename(c.files) }));
			commits = [...fresh.commits, ...older].slice(0, this.#limit);
		} else {
			const mined = await mineCommits(this.#source.gitDir, probe.forced, bounds);
			this.#count(mined);
			commits = mined.commits;
			this.stats.fullMines++;
		}
		const history: MinedHistory = { ...expect, head: probe.head, commits };
		if (this.#storeDir !== undefined && known?.head !== probe.head) {
			await mkdir(this.#storeDir, { recursive: true, mode: 0o700 });
			await writeMinedHistory(this.#storeDir, history);
		}
		this.#use(history);
		return { available: true, head: probe.head, commits: commits.length };
	}

	#count(mined: { commits: readonly MinedCommit[]; huge: number; renames: RenamePaths }): void {
		this.stats.commitsRead += mined.commits.length;
		this.stats.hugeSkipped += mined.huge;
		this.stats.renamesFollowed += mined.renames.followed;
	}

	#use(history: MinedHistory | undefined): void {
		if (history !== undefined && history.head === this.#history?.head && history.source === this.#history.source)
			return;
		this.#history = history;
		let pairs = 0;
		for (const commit of history?.commits ?? []) pairs += (commit.files.length * (commit.files.length - 1)) / 2;
		this.stats.pairs = pairs;
	}
}
