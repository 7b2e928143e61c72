/**
 * Files outside the change that clone search compares changed code with, in the change's languages: the files that
 * import or are imported by a changed file, then the changed files' siblings, at most `MAX_CLONE_FILES` of them
 * (copy-paste usually comes from next door); and, with a code map, up to `MAX_DISTANT_CLONE_FILES` more from
 * anywhere in the project, chosen from its facts without reading a file (`similar-callables.ts`: callables of a
 * similar span that call the same names). Measuring the whole project would mean parsing all of it again. With the
 * map's facts, a neighbour without a callable of a span a clone could have is not measured either, and a change
 * without a new or changed callable large enough to have clones measures nothing.
 *
 * Their content is the worktree's (for a staged or branch review an unchanged file's worktree bytes normally equal
 * its committed ones). Measures are cached: by the code map's content hash when the map knows the file (no read at
 * all), else by the blob id of the bytes read.
 */
import { constants } from "node:fs";
import { lstat, open, readdir, realpath } from "node:fs/promises";
import { dirname, join } from "node:path";
import { languageOf } from "pi-fovea/engine";
import { gitBlobOid } from "../git/index.ts";
import type { ReviewWork } from "../report/report.ts";
import { type FileCallables, type ImportEdges, measureFile } from "../review/index.ts";
import { distantInSlice, nearbyInSlice } from "./clone-slice.ts";
import type { ProjectFacts } from "./import-edges.ts";
import type { MeasureCache } from "./measure-cache.ts";
import type { ProjectSlice } from "./project-slice.ts";
import type { MeasuredChange } from "./side-measures.ts";
import { type CloneTarget, holdsSimilarSpan, searchedTargets, similarCallableFiles } from "./similar-callables.ts";

/** Neighbouring files outside the change searched for clones, at most. */
export const MAX_CLONE_FILES = 24;
/** Larger files are not searched for clones. */
export const MAX_CLONE_FILE_BYTES = 256 * 1024;

/** What clone search around a change needs. */
export interface CloneScope {
	root: string;
	objectFormat: "sha1" | "sha256";
	/** Every path the change touches (either side). */
	changedPaths: ReadonlySet<string>;
	/** The after-side paths of changed text files. */
	afterPaths: readonly string[];
	afterEdges: ImportEdges;
	/** New and changed callables of the change (see `cloneTargets`), for choosing files beyond the neighbours. */
	targets: readonly CloneTarget[];
	project: ProjectFacts | undefined;
	/**
	 * The project slice `project` comes from when the review has no code map up to date: the files clone search
	 * judges by their facts are parsed in it as it judges them (`clone-slice.ts`).
	 */
	slice?: ProjectSlice;
	maxBytes: number;
	signal?: AbortSignal;
	/**
	 * Told the neighbours in clone search's order before any of them is parsed, so that the parse which gives their
	 * facts measures the ones clone search will compare (`candidate-measures.ts`) instead of a second parse here.
	 */
	onNeighbours?: (paths: ReadonlySet<string>) => void;
}

/** The new and changed callables of a change: after-side callables whose body the file's before side lacks. */
export function cloneTargets(measured: readonly MeasuredChange[]): CloneTarget[] {
	const out: CloneTarget[] = [];
	for (const file of measured) {
		const after = file.after?.measure;
		if (after === undefined || after.gap !== undefined) continue;
		const old = new Set(file.before?.measure.callables.map((callable) => callable.bodyHash));
		for (const callable of after.callables)
			if (!old.has(callable.bodyHash)) out.push({ file: file.change.path, callable });
	}
	return out;
}

/** What clone search measured: the candidates' callables, how many were neighbours, and what was left out. */
export interface CloneCandidates {
	files: FileCallables[];
	/** Candidates that are neighbours of the change (importers, imports, siblings). */
	nearby: number;
	/** Candidates chosen from the whole project by callable span and called names. */
	distant: number;
	/** Neighbours not measured because their facts show no callable of a span a clone could have. */
	ruledOut: number;
	/** Files in the change's languages that were not searched (neighbours beyond the limit included). */
	notSearched: number;
}

/** The callables of the candidate files (nearby first, then distant) and what was left out. */
export async function cloneCandidates(
	scope: CloneScope,
	cache: MeasureCache,
	work: ReviewWork,
): Promise<CloneCandidates> {
	const targets = searchedTargets(scope.targets);
	// Without a new or changed callable large enough to have clones, there is nothing to compare.
	if (targets.length === 0) return { files: [], nearby: 0, distant: 0, ruledOut: 0, notSearched: 0 };
	const languages = new Set(scope.afterPaths.map((path) => languageOf(path)));
	const wanted = (path: string) =>
		!scope.changedPaths.has(path) && languageOf(path) !== undefined && languages.has(languageOf(path));
	const ordered = new Set<string>();
	const changed = new Set(scope.afterPaths);
	for (const [from, edges] of scope.afterEdges) {
		for (const to of edges.keys()) {
			if (changed.has(from) && wanted(to)) ordered.add(to);
			if (changed.has(to) && wanted(from)) ordered.add(from);
		}
	}
	for (const path of await siblings(scope)) if (wanted(path)) ordered.add(path);
	scope.onNeighbours?.(ordered);
	// A neighbour whose facts show no callable of a similar span cannot hold a clone: it is not measured. From a
	// slice, neighbours are parsed in order until enough are possible; the rest count as not searched.
	const facts = scope.project?.files;
	const examined =
		scope.slice === undefined ? [...ordered] : await nearbyInSlice(scope.slice, ordered, targets, MAX_CLONE_FILES);
	const possible = examined.filter((path) => {
		const known = facts?.get(path);
		return known === undefined || holdsSimilarSpan(known, targets);
	});
	const nearby = possible.slice(0, MAX_CLONE_FILES);
	const taken = new Set(nearby);
	const accept = (path: string) => wanted(path) && !taken.has(path);
	if (scope.slice !== undefined) await distantInSlice(scope.slice, targets, accept);
	const distant = facts === undefined ? [] : similarCallableFiles(targets, facts, accept);
	const chosen = [...nearby, ...distant];
	let eligible = ordered.size;
	if (facts !== undefined)
		for (const path of scope.project?.context.files ?? []) if (wanted(path) && !ordered.has(path)) eligible++;
	const ruledOut = examined.length - possible.length;
	const files: FileCallables[] = [];
	// Each file's measure is looked up once, by the map's content hash; the files the cache cannot name are read
	// ahead, a few at a time, while earlier ones parse.
	const lookups = chosen.map((path) => {
		const hash = scope.project?.files.get(path)?.hash;
		return { path, hash, known: hash === undefined ? undefined : cache.measure(`fovea-${hash}`, path, scope.maxBytes) };
	});
	const reads = readAhead(
		scope.root,
		lookups.filter((lookup) => lookup.known === undefined).map((lookup) => lookup.path),
	);
	for (const { path, hash, known } of lookups) {
		scope.signal?.throwIfAborted();
		if (known !== undefined) {
			files.push({ path, callables: known.callables });
			continue;
		}
		const bytes = await reads.next();
		if (bytes === undefined) continue;
		work.worktreeFilesRead++;
		const oid = gitBlobOid(bytes, scope.objectFormat);
		let measure = cache.measure(oid, path, scope.maxBytes);
		if (measure === undefined) {
			measure = measureFile(path, bytes, { maxBytes: scope.maxBytes });
			cache.putMeasure(oid, path, scope.maxBytes, measure);
			work.cloneFilesMeasured++;
			work.parses++;
		}
		if (hash !== undefined) cache.putMeasure(`fovea-${hash}`, path, scope.maxBytes, measure);
		files.push({ path, callables: measure.callables });
	}
	return {
		files,
		nearby: nearby.length,
		distant: distant.length,
		ruledOut,
		notSearched: Math.max(0, eligible - chosen.length - ruledOut),
	};
}

/** Files in the directories of the changed files: from the code map's file list, else from the directories. */
async function siblings(scope: CloneScope): Promise<string[]> {
	const dirs = new Set(scope.afterPaths.map((path) => (path.includes("/") ? dirname(path) : "")));
	if (scope.project !== undefined) {
		return [...scope.project.context.files].filter((path) => dirs.has(path.includes("/") ? dirname(path) : "")).sort();
	}
	const out: string[] = [];
	for (const dir of [...dirs].sort()) {
		const entries = await readdir(join(scope.root, dir), { withFileTypes: true }).catch(() => []);
		for (const entry of entries) if (entry.isFile()) out.push(dir === "" ? entry.name : `${dir}/${entry.name}`);
	}
	return out.sort();
}

/** Worktree reads in flight ahead of the parse, at most. */
const READ_AHEAD = 8;

/**
 * Reads `paths` in order, keeping up to `READ_AHEAD` reads in flight; each `next()` waits for the next path's bytes
 * (`undefined` past the last).
 */
function readAhead(root: string, paths: readonly string[]): { next(): Promise<Buffer | undefined> } {
	const inFlight: Promise<Buffer | undefined>[] = [];
	let queued = 0;
	const fill = () => {
		while (queued < paths.length && inFlight.length < READ_AHEAD) {
			const read = readWorktreeFile(root, paths[queued++] as string);
			// A read that fails is reported when its turn comes (awaited through `next`), not as an unhandled rejection.
			read.catch(() => {});
			inFlight.push(read);
		}
	};
	fill();
	return {
		async next() {
			const read = inFlight.shift();
			fill();
			return read;
		},
	};
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * The bytes of a regular worktree file up to `MAX_CLONE_FILE_BYTES`, never through a symlink (neither the file nor
 * a parent directory); undefined for anything else.
 */
async function readWorktreeFile(root: string, path: string): Promise<Buffer | undefined> {
	const absolute = join(root, path);
	const parent = dirname(absolute);
	if ((await realpath(parent).catch(() => undefined)) !== parent) return undefined;
	const info = await lstat(absolute).catch(() => undefined);
	if (info === undefined || !info.isFile() || info.size > MAX_CLONE_FILE_BYTES) return undefined;
	const handle = await open(absolute, READ_FLAGS).catch(() => undefined);
	if (handle === undefined) return undefined;
	try {
		const opened = await handle.stat();
		if (!opened.isFile() || opened.size > MAX_CLONE_FILE_BYTES) return undefined;
		return await handle.readFile();
	} finally {
		await handle.close();
	}
}
