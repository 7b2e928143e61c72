import { type FSWatcher, watch } from "node:fs";
import { join } from "node:path";
import { relativeInside } from "../../workspace/path-inside.ts";
import { watchBarrier } from "./watch-barrier.ts";

/** Directories watched at most across every root of the process: beyond it a root is not watched (probes fall back). */
const MAX_WATCHED_DIRECTORIES = 8192;
let watchedDirectories = 0;
/** Changed paths remembered; older ones are forgotten and `pathsSince` an older reading answers "unknown". */
const MAX_LOGGED_PATHS = 1024;

/**
 * Change notification for one root: one inotify-backed watch per directory the last walk visited (not recursive,
 * so ignored and dependency directories cost nothing), plus the Git directory, so a commit or checkout that leaves
 * the worktree alone is still seen. Any event counts as a change; the caller then walks or probes as before.
 *
 * Why: a system call costs tens of microseconds, so confirming that nothing changed by stat-ing every file of a
 * large root (a walk, or `git status`) costs a noticeable pause each turn. A watch answers "nothing happened" for
 * free, and is only trusted while it is healthy: any watcher error, a root over the directory budget, or no watch at
 * all makes `unchangedSince` return false, and callers fall back to their full check.
 */
export class RootWatch {
	readonly root: string;
	readonly #watchers = new Map<string, FSWatcher>();
	/** Root-relative worktree paths of the latest events (`undefined` for Git state or an unnamed event). */
	readonly #log: (string | undefined)[] = [];
	#changes = 0;
	#healthy = true;
	#closed = false;

	constructor(root: string) {
		this.root = root;
	}

	/** Events seen so far; compare two readings to know whether anything happened in between. */
	get changes(): number {
		return this.#changes;
	}

	/** Whether every directory of the last walk is watched and no watcher failed. */
	get healthy(): boolean {
		return this.#healthy && !this.#closed && this.#watchers.size > 0;
	}

	/**
	 * Root-relative worktree paths that changed since `reading`, deduplicated, after a barrier like
	 * `unchangedSince`; `undefined` when the watch cannot tell (unhealthy, too many events, an unnamed event).
	 * Git-state events are not paths and are left out (a checkout also changes worktree files, which are listed).
	 */
	async pathsSince(reading: number): Promise<string[] | undefined> {
		if (!(await watchBarrier()) || !this.healthy) return undefined;
		const count = this.#changes - reading;
		if (count < 0 || count > this.#log.length) return undefined;
		const paths = new Set<string>();
		for (const entry of this.#log.slice(this.#log.length - count)) {
			if (entry === undefined) return undefined;
			if (entry !== GIT_EVENT) paths.add(entry);
		}
		return [...paths];
	}

	/** Number of directories watched. */
	get size(): number {
		return this.#watchers.size;
	}

	/**
	 * Whether nothing happened since `reading` (a value of `changes`), as far as a healthy watch can tell. Waits for
	 * a `watchBarrier` first, so every event that happened before the call is counted.
	 */
	async unchangedSince(reading: number): Promise<boolean> {
		if (!(await watchBarrier())) return false;
		return this.healthy && this.#changes === reading;
	}

	/**
	 * Watches exactly `directories` and `gitDirectories` (absolute paths): new ones are added, vanished ones closed.
	 * Over the process-wide budget the watch becomes unhealthy and holds nothing. Returns how many were added: a
	 * change made in a new directory before its watcher existed was not seen.
	 */
	sync(directories: readonly string[], gitDirectories: readonly string[] = []): number {
		if (this.#closed) return 0;
		const git = new Set(gitDirectories);
		const wanted = new Set([...directories, ...gitDirectories]);
		for (const [dir, watcher] of this.#watchers) {
			if (wanted.has(dir)) continue;
			watcher.close();
			this.#watchers.delete(dir);
			watchedDirectories--;
		}
		const missing = [...wanted].filter((dir) => !this.#watchers.has(dir));
		if (watchedDirectories + missing.length > MAX_WATCHED_DIRECTORIES) {
			this.#closeAll();
			this.#healthy = false;
			return 0;
		}
		this.#healthy = true;
		for (const dir of missing) {
			try {
				const watcher = watch(dir, { persistent: false }, (_event, name) => {
					if (git.has(dir)) this.#record(GIT_EVENT);
					else this.#record(typeof name === "string" ? this.#relative(join(dir, name)) : undefined);
				});
				watcher.on("error", () => {
					this.#healthy = false;
					this.#record(undefined);
				});
				this.#watchers.set(dir, watcher);
				watchedDirectories++;
			} catch {
				// A directory that vanished or cannot be watched: the next walk decides; until then, trust nothing.
				this.#healthy = false;
			}
		}
		return missing.length;
	}

	/** Stops watching; the watch is unhealthy from then on. */
	close(): void {
		this.#closed = true;
		this.#closeAll();
	}

	#record(path: string | undefined): void {
		this.#changes++;
		this.#log.push(path);
		if (this.#log.length > MAX_LOGGED_PATHS) this.#log.splice(0, this.#log.length - MAX_LOGGED_PATHS);
	}

	#relative(path: string): string | undefined {
		const rel = relativeInside(this.root, path);
		return rel === "" ? undefined : rel;
	}

	#closeAll(): void {
		for (const watcher of this.#watchers.values()) watcher.close();
		watchedDirectories -= this.#watchers.size;
		this.#watchers.clear();
	}
}

/** Marks an event in a Git directory in the log: a change, but not a worktree path. */
const GIT_EVENT = "\0git";
