import { mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { canonicalPath } from "pi-fovea/workspace";
import { RunStateError } from "./errors.ts";
import { type EventInput, type EventLog, formatEventLine, newEvent, parseEventLog, type RunEvent } from "./events.ts";
import { FieldReader } from "./field-reader.ts";
import {
	applyManifestPatch,
	type ManifestPatch,
	parseManifest,
	type RunManifest,
	type RunMeta,
	WORKSPACE_MODES,
	type WorkspaceMode,
} from "./manifest.ts";
import { processStartMarker } from "./owner.ts";
import { folderProblemText, requireRealFolders } from "./real-folders.ts";
import { isRunId, newRunId } from "./run-id.ts";
import { filesIn, RUNS_PARTS, type RunFiles, runFiles, runsDirOf } from "./run-layout.ts";
import { withRunLock } from "./run-lock.ts";
import { SCHEMA_VERSION } from "./schema-version.ts";
import { appendLine, readJsonFile, readTextIfExists, writeJsonFile } from "./state-file.ts";
import type { RunStatus } from "./status.ts";
import { applyTaskPatch, newTasks, parseTasks, type RunTask, type TaskPatch, type TaskSpec } from "./tasks.ts";

/** What `createRun` needs. */
export interface CreateRunInput {
	/** The workspace root; defaults to the store's. Canonicalized, and it must be the store's root. */
	cwd?: string;
	ownerSessionId: string;
	/** Default: this process. */
	ownerPid?: number;
	/** Default: read for ownerPid from /proc (null where unavailable). */
	ownerStart?: string | null;
	team: string;
	goal: string;
	/** Default: single. */
	workspaceMode?: WorkspaceMode;
	tasks: TaskSpec[];
	meta?: RunMeta;
}

/** A run's manifest and tasks as read together. */
export interface RunSnapshot {
	manifest: RunManifest;
	tasks: RunTask[];
}

/** One entry of `listRuns`: a readable run, or a damaged one with the error (never dropped, never rewritten). */
export interface RunListing {
	runId: string;
	dir: string;
	manifest?: RunManifest;
	tasks?: RunTask[];
	error?: Error;
}

/** Filters for `listRuns`. */
export interface RunFilter {
	/** Only runs owned by this session (damaged runs, whose owner is unknown, are always listed). */
	ownerSessionId?: string;
	status?: readonly RunStatus[];
}

/** What a transaction writes: any of the new manifest, the new task list, events to append. */
export interface RunChange {
	manifest?: RunManifest;
	tasks?: RunTask[];
	events?: EventInput[];
}

/** Options for a store. */
export interface RunStoreOptions {
	/** The clock (tests). */
	now?: () => Date;
}

/**
 * The runs of one workspace, under `<root>/.pi/crew/runs/<runId>/`: manifest.json, tasks.json and an append-only
 * events.jsonl. Every write happens under the run's lock, re-reads and validates what is on disk first (so a
 * damaged file is reported and never overwritten), and replaces files atomically.
 */
export class RunStore {
	/** The canonical workspace root. */
	readonly root: string;
	readonly runsDir: string;
	readonly #now: () => Date;

	private constructor(root: string, options: RunStoreOptions) {
		this.root = root;
		this.runsDir = runsDirOf(root);
		this.#now = options.now ?? (() => new Date());
	}

	/** The store of the workspace at `root` (canonicalized, so a symlink alias opens the same store). */
	static async open(root: string, options: RunStoreOptions = {}): Promise<RunStore> {
		return new RunStore(await canonicalPath(root), options);
	}

	/** The current time as stored. */
	now(): string {
		return this.#now().toISOString();
	}

	/** The files of run `runId`; throws for a string that is not a run id. */
	files(runId: string): RunFiles {
		return runFiles(this.runsDir, runId);
	}

	/** Creates a pending run with its tasks and a `run.created` event; the run directory appears whole or not at all. */
	async createRun(input: CreateRunInput): Promise<RunSnapshot> {
		const r = FieldReader.of(
			input,
			"",
			(m, f) => new Error(`createRun: ${f === undefined ? "" : `field "${f}": `}${m}`),
		);
		r.onlyKeys(["cwd", "ownerSessionId", "ownerPid", "ownerStart", "team", "goal", "workspaceMode", "tasks", "meta"]);
		const cwd = input.cwd === undefined ? this.root : await canonicalPath(r.string("cwd"));
		if (cwd !== this.root) throw r.error(`${cwd} is not this store's workspace root ${this.root}`, "cwd");
		const ownerPid = r.optionalInteger("ownerPid", 1, 2 ** 31 - 1) ?? process.pid;
		const now = this.now();
		if (r.objects("tasks").length === 0) throw r.error("a run needs at least one task", "tasks");
		const tasks = newTasks(input.tasks, now);
		const fields = {
			schemaVersion: SCHEMA_VERSION,
			cwd,
			ownerSessionId: r.string("ownerSessionId"),
			ownerPid,
			ownerStart: input.ownerStart === undefined ? await processStartMarker(ownerPid) : input.ownerStart,
			ownerHost: hostname(),
			team: r.string("team"),
			goal: r.string("goal"),
			workspaceMode: r.optionalOneOf("workspaceMode", WORKSPACE_MODES) ?? "single",
			status: "pending" as const,
			createdAt: now,
			updatedAt: now,
			...(input.meta === undefined ? {} : { meta: r.optionalObject("meta") }),
		};
		await this.#realFolders(true);
		// Keeps run state out of `git status` and reviews without touching the project's own .gitignore.
		await writeFile(join(this.runsDir, ".gitignore"), "*\n", { flag: "wx" }).catch(() => {});
		for (let attempt = 0; ; attempt++) {
			const runId = newRunId(this.#now());
			const manifest = parseManifest({ ...fields, runId }, "createRun");
			const staging = filesIn(join(this.runsDir, `.creating-${runId}`));
			await mkdir(staging.dir);
			try {
				await writeJsonFile(staging.tasks, { schemaVersion: SCHEMA_VERSION, runId, tasks });
				const created = newEvent({ type: "run.created", data: { team: manifest.team, tasks: tasks.length } }, now);
				await appendLine(staging.events, formatEventLine(created));
				await writeJsonFile(staging.manifest, manifest);
				await rename(staging.dir, this.files(runId).dir);
				return { manifest, tasks };
			} catch (error) {
				await rm(staging.dir, { recursive: true, force: true });
				const code = (error as NodeJS.ErrnoException).code;
				if ((code !== "EEXIST" && code !== "ENOTEMPTY") || attempt >= 4) throw error;
			}
		}
	}

	/**
	 * Refuses (a RunStateError) run state behind a symbolic link: `.pi`, `.pi/crew`, `.pi/crew/runs` and, given
	 * `runId`, the run's own folder must be real folders inside the workspace, since a repository could check in such
	 * a link (or an agent make one) and have run state read from, and written to, anywhere on disk. Returns the last
	 * folder, or undefined when part of the chain does not exist and `create` is false.
	 */
	#realFolders(create: boolean, runId?: string): Promise<string | undefined> {
		return requireRealFolders(this.root, runId === undefined ? RUNS_PARTS : [...RUNS_PARTS, runId], {
			create,
			refuse: (dir, problem) =>
				new RunStateError(
					dir,
					`${folderProblemText(problem)}; pi-crew keeps run state only in real folders inside the workspace ${this.root}, so that no link can send it elsewhere. Replace it with a folder (or remove it)`,
				),
		});
	}

	/** The files of `runId` (a run id, or an error), after checking that they lie in real folders. */
	async #checkedFiles(runId: string): Promise<RunFiles> {
		const files = this.files(runId);
		await this.#realFolders(false, runId);
		return files;
	}

	/** The manifest of `runId`, validated (including that it belongs to this workspace and directory). */
	async readManifest(runId: string): Promise<RunManifest> {
		const files = await this.#checkedFiles(runId);
		const manifest = parseManifest(await readJsonFile(files.manifest), files.manifest);
		if (manifest.runId !== runId) {
			throw new RunStateError(files.manifest, `says ${manifest.runId} but lives in ${files.dir}`, "runId");
		}
		if (manifest.cwd !== this.root) {
			throw new RunStateError(
				files.manifest,
				`belongs to workspace ${manifest.cwd}, not ${this.root} (was the run directory moved or copied?)`,
				"cwd",
			);
		}
		return manifest;
	}

	/** The manifest and tasks of `runId`. Damaged or newer-schema files are errors naming the file and field. */
	async readRun(runId: string): Promise<RunSnapshot> {
		const manifest = await this.readManifest(runId);
		const file = this.files(runId).tasks;
		const tasks = parseTasks(await readJsonFile(file), file);
		if (tasks.runId !== runId) throw new RunStateError(file, `says ${tasks.runId}, expected ${runId}`, "runId");
		return { manifest, tasks: tasks.tasks };
	}

	/** The events of `runId` in order, with the lines that could not be read (reported, skipped, left on disk). */
	async readEvents(runId: string): Promise<EventLog> {
		const file = (await this.#checkedFiles(runId)).events;
		return parseEventLog((await readTextIfExists(file)) ?? "", file);
	}

	/** Every run of the workspace, oldest first; damaged runs come with their error instead of being dropped. */
	async listRuns(filter: RunFilter = {}): Promise<RunListing[]> {
		let names: string[];
		if ((await this.#realFolders(false)) === undefined) return [];
		try {
			const entries = await readdir(this.runsDir, { withFileTypes: true });
			names = entries.filter((e) => e.isDirectory() && !e.name.startsWith(".")).map((e) => e.name);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
			throw error;
		}
		const listings: RunListing[] = [];
		for (const runId of names.sort()) {
			const dir = join(this.runsDir, runId);
			if (!isRunId(runId)) {
				listings.push({ runId, dir, error: new RunStateError(dir, "is not named like a run id; not read") });
				continue;
			}
			const listing: RunListing = { runId, dir };
			try {
				listing.manifest = await this.readManifest(runId);
				listing.tasks = (await this.readRun(runId)).tasks;
			} catch (error) {
				listing.error = error instanceof Error ? error : new Error(String(error));
			}
			const m = listing.manifest;
			if (m && filter.ownerSessionId !== undefined && m.ownerSessionId !== filter.ownerSessionId) continue;
			if (m && filter.status !== undefined && !filter.status.includes(m.status)) continue;
			listings.push(listing);
		}
		return listings;
	}

	/**
	 * The one way state changes: under the run's lock, reads and validates the run, lets `decide` compute the
	 * change, then writes tasks, manifest and events in that order (each atomically). `decide` must be pure.
	 */
	async transact<T>(
		runId: string,
		decide: (run: RunSnapshot, now: string) => { change: RunChange; value: T },
	): Promise<T> {
		const files = await this.#checkedFiles(runId);
		return withRunLock(files.dir, async (guard) => {
			const run = await this.readRun(runId);
			const now = this.now();
			const { change, value } = decide(run, now);
			const events = (change.events ?? []).map((input) => newEvent(input, now));
			guard();
			if (change.tasks) await writeJsonFile(files.tasks, { schemaVersion: SCHEMA_VERSION, runId, tasks: change.tasks });
			if (change.manifest) await writeJsonFile(files.manifest, change.manifest);
			for (const event of events) await appendLine(files.events, formatEventLine(event));
			return value;
		});
	}

	/** Changes status, error or meta of a run (a patch, or a function of the current manifest). */
	async updateManifest(
		runId: string,
		patch: ManifestPatch | ((current: RunManifest) => ManifestPatch),
	): Promise<RunManifest> {
		return this.transact(runId, ({ manifest }, now) => {
			const next = applyManifestPatch(manifest, typeof patch === "function" ? patch(manifest) : patch, now);
			const events: EventInput[] =
				next.status === manifest.status
					? []
					: [{ type: "run.status", data: { from: manifest.status, to: next.status } }];
			return { change: { manifest: next, events }, value: next };
		});
	}

	/** Changes status, result, error or meta of one task (a patch, or a function of the current task). */
	async updateTask(
		runId: string,
		taskId: string,
		patch: TaskPatch | ((current: RunTask) => TaskPatch),
	): Promise<RunTask> {
		return this.transact(runId, ({ tasks }, now) => {
			const index = tasks.findIndex((t) => t.id === taskId);
			const current = tasks[index];
			if (current === undefined) {
				throw new Error(
					`run ${runId} has no task ${JSON.stringify(taskId)}; its tasks: ${tasks.map((t) => t.id).join(", ")}`,
				);
			}
			const next = applyTaskPatch(runId, current, typeof patch === "function" ? patch(current) : patch, now);
			const events: EventInput[] =
				next.status === current.status
					? []
					: [{ type: "task.status", taskId, data: { from: current.status, to: next.status } }];
			return { change: { tasks: tasks.map((t, i) => (i === index ? next : t)), events }, value: next };
		});
	}

	/** Appends one event to the run's log (under the lock, so concurrent appends never interleave). */
	async appendEvent(runId: string, input: EventInput): Promise<RunEvent> {
		const files = await this.#checkedFiles(runId);
		const event = newEvent(input, this.now());
		return withRunLock(files.dir, async (guard) => {
			await this.readManifest(runId);
			guard();
			await appendLine(files.events, formatEventLine(event));
			return event;
		});
	}
}
