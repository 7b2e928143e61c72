import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import type { AccessedPath } from "./accessed-paths.ts";
import { BoundedCache } from "./bounded-cache.ts";
import { canonicalPath } from "./canonical-path.ts";
import { excludedPathReason, excludedRootReason, GENERATED_DIRS } from "./exclusions.ts";
import { isSourceFile, MANIFEST_NAMES } from "./project-markers.ts";

/** The project that owns an accessed path, and what identified it. */
export interface ProjectRoot {
	root: string;
	marker: "git" | "git-file" | "manifest" | "source";
	manifest?: string;
}

/** Options for {@link ProjectDiscovery}; the defaults are the seed's bounds. */
export interface DiscoveryOptions {
	maxAncestors?: number;
	cacheSize?: number;
	ttlMs?: number;
	home?: string;
	now?: () => number;
}

/** Work counters, so tests can assert how much filesystem metadata a lookup cost. */
export interface DiscoveryStats {
	lookups: number;
	cacheHits: number;
	coalesced: number;
	probes: number;
}

type GitMarker = "git" | "git-file" | undefined;

/**
 * Finds the project root that owns a path, the way automatic enrollment needs it.
 *
 * The path is resolved physically, then at most `maxAncestors` (64) directories are walked: the nearest `.git`
 * (a directory, or the `.git` file of a linked worktree or submodule) wins; without one, the nearest recognized
 * manifest; without one, the directory of a supported source file. It never lists a directory, runs Git or reads a
 * project's configuration, and stops below the home directory. Results and per-directory probes are held in
 * 256-entry, one-second caches and concurrent lookups of one path share a single walk; this bounds metadata traffic
 * during bursts of tool results and is **not** a source-freshness oracle. Excluded paths give `undefined`.
 */
export class ProjectDiscovery {
	readonly stats: DiscoveryStats = { lookups: 0, cacheHits: 0, coalesced: 0, probes: 0 };
	readonly #maxAncestors: number;
	readonly #home: string;
	#physicalHome: Promise<string> | undefined;
	// Wrapped so that a cached "no project here" is told apart from a cache miss.
	readonly #results: BoundedCache<string, { found: ProjectRoot | undefined }>;
	readonly #gitProbes: BoundedCache<string, Promise<GitMarker>>;
	readonly #manifestProbes: BoundedCache<string, Promise<string | undefined>>;
	readonly #inflight = new Map<string, Promise<ProjectRoot | undefined>>();

	constructor(options: DiscoveryOptions = {}) {
		this.#maxAncestors = Math.max(0, Math.floor(options.maxAncestors ?? 64));
		this.#home = resolve(options.home ?? homedir());
		const size = options.cacheSize ?? 256;
		const ttl = options.ttlMs ?? 1000;
		const now = options.now ?? Date.now;
		this.#results = new BoundedCache(size, ttl, now);
		this.#gitProbes = new BoundedCache(size, ttl, now);
		this.#manifestProbes = new BoundedCache(size, ttl, now);
	}

	/** The owning project of `path` (absolute), or `undefined` when it is excluded or nothing marks a project. */
	discover(path: string, kind: AccessedPath["kind"] = "unknown"): Promise<ProjectRoot | undefined> {
		this.stats.lookups++;
		if (typeof path !== "string" || path.length === 0 || path.includes("\0")) return Promise.resolve(undefined);
		const key = `${kind}:${resolve(path)}`;
		const cached = this.#results.get(key);
		if (cached !== undefined) {
			this.stats.cacheHits++;
			return Promise.resolve(cached.found);
		}
		const running = this.#inflight.get(key);
		if (running !== undefined) {
			this.stats.coalesced++;
			return running;
		}
		const lookup = this.#lookup(resolve(path), kind).finally(() => this.#inflight.delete(key));
		this.#inflight.set(key, lookup);
		return lookup.then((found) => {
			this.#results.set(key, { found });
			return found;
		});
	}

	/**
	 * The project a working directory itself belongs to, for an omitted manual root: the nearest Git marker, else the
	 * nearest manifest, walking from `dir` up to (not into) the home directory. No exclusions apply, because the user
	 * chose to work there; `undefined` means no marker, and callers then take the directory itself.
	 */
	async projectOf(dir: string): Promise<ProjectRoot | undefined> {
		if (typeof dir !== "string" || dir.length === 0 || dir.includes("\0")) return undefined;
		const ancestors = this.#ancestors(await canonicalPath(dir), await this.#homeDir());
		return (await this.#nearestGit(ancestors)) ?? (await this.#nearestManifest(ancestors));
	}

	/** The Git marker directly in `dir` (not its parents), for checking that a known root is a Git worktree. */
	gitMarkerOf(dir: string): Promise<"git" | "git-file" | undefined> {
		return this.#probe(this.#gitProbes, dir, () => this.#gitMarker(dir));
	}

	/** Forgets cached metadata, for callers that know the filesystem just changed under them. */
	clear(): void {
		this.#results.clear();
		this.#gitProbes.clear();
		this.#manifestProbes.clear();
	}

	async #lookup(path: string, kind: AccessedPath["kind"]): Promise<ProjectRoot | undefined> {
		const physical = await canonicalPath(path);
		const home = await this.#homeDir();
		if (excludedPathReason(physical, home) !== undefined) return undefined;
		let isFile = kind === "file";
		if (kind === "unknown") {
			this.stats.probes++;
			isFile = await stat(physical).then(
				(s) => !s.isDirectory(),
				() => true,
			);
		}
		const start = isFile ? dirname(physical) : physical;
		const ancestors = this.#ancestors(start, home);
		const found = (await this.#nearestGit(ancestors)) ?? (await this.#nearestManifest(ancestors));
		const candidate =
			found ?? (isFile && isSourceFile(basename(physical)) ? { root: start, marker: "source" as const } : undefined);
		if (candidate === undefined) return undefined;
		return excludedRootReason(candidate.root, physical, home) === undefined ? candidate : undefined;
	}

	/** The physical home directory, resolved once: paths are compared physically, and `$HOME` may be a symlink. */
	#homeDir(): Promise<string> {
		this.#physicalHome ??= canonicalPath(this.#home);
		return this.#physicalHome;
	}

	/** `start` and its parents, nearest first, bounded, stopping before the home directory and the filesystem root. */
	#ancestors(start: string, home: string): string[] {
		const dirs: string[] = [];
		let dir = start;
		while (dirs.length < this.#maxAncestors && dir !== home && dirname(dir) !== dir) {
			dirs.push(dir);
			dir = dirname(dir);
		}
		return dirs;
	}

	async #nearestGit(dirs: string[]): Promise<ProjectRoot | undefined> {
		for (const dir of dirs) {
			const marker = await this.#probe(this.#gitProbes, dir, () => this.#gitMarker(dir));
			if (marker !== undefined) return { root: dir, marker };
		}
		return undefined;
	}

	/**
	 * The nearest manifest project. A manifest inside build output (`dist/package.json`, a crate unpacked under
	 * `target/package/`) is a generated copy when a project with a manifest of its own encloses that output: then the
	 * enclosing project is the owner, and the caller's exclusion of generated directories inside a root applies.
	 * Without an enclosing project, a folder merely named like build output is a project like any other.
	 */
	async #nearestManifest(dirs: string[]): Promise<ProjectRoot | undefined> {
		let inner: ProjectRoot | undefined;
		for (const dir of dirs) {
			const manifest = await this.#probe(this.#manifestProbes, dir, () => this.#manifestIn(dir));
			if (manifest === undefined) continue;
			const found: ProjectRoot = { root: dir, marker: "manifest", manifest };
			if (inner === undefined) {
				if (!dir.split(sep).some((segment) => GENERATED_DIRS.has(segment))) return found;
				inner = found;
			} else if (
				relative(dir, inner.root)
					.split(sep)
					.some((segment) => GENERATED_DIRS.has(segment))
			)
				return found;
		}
		return inner;
	}

	#probe<T>(cache: BoundedCache<string, Promise<T>>, dir: string, run: () => Promise<T>): Promise<T> {
		const cached = cache.get(dir);
		if (cached !== undefined) return cached;
		const probe = run();
		cache.set(dir, probe);
		return probe;
	}

	async #gitMarker(dir: string): Promise<GitMarker> {
		this.stats.probes++;
		try {
			const s = await stat(join(dir, ".git"));
			return s.isDirectory() ? "git" : s.isFile() ? "git-file" : undefined;
		} catch {
			return undefined;
		}
	}

	async #manifestIn(dir: string): Promise<string | undefined> {
		this.stats.probes += MANIFEST_NAMES.length;
		const present = await Promise.all(
			MANIFEST_NAMES.map((name) =>
				stat(join(dir, name)).then(
					(s) => s.isFile(),
					() => false,
				),
			),
		);
		return MANIFEST_NAMES[present.indexOf(true)];
	}
}
