// The cases the history tasks draw from a repository: its newest non-merge commits, each with the files it changed.
// A case is always answered on its parent's tree, so nothing of the commit itself or later reaches a ranker.
import { isTestPath, languageOf } from "../../../packages/fovea/src/engine/index.ts";
import { git } from "../git.ts";

/** One path a commit changed: its status letter and, for a rename or copy, the path before. */
export interface Change {
	status: string;
	path: string;
	from?: string;
}

/** A non-merge commit with its single parent, subject and changes (renames detected). */
export interface CommitRecord {
	commit: string;
	parent: string;
	subject: string;
	changes: Change[];
}

/** The newest `count` (default: all) non-merge commits reachable from HEAD, newest first (topological order). */
export async function recentCommits(repo: string, count?: number): Promise<CommitRecord[]> {
	const log = await git(repo, [
		"log",
		"--no-merges",
		"--topo-order",
		"-M",
		"--name-status",
		"-z",
		"--format=%x1e%H%x09%P%x09%s",
		...(count === undefined ? [] : [`-n${count}`]),
		"HEAD",
	]);
	const records: CommitRecord[] = [];
	for (const chunk of log.split("\x1e")) {
		if (chunk === "") continue;
		const end = chunk.indexOf("\0");
		const [commit = "", parents = "", subject = ""] = (end < 0 ? chunk : chunk.slice(0, end)).split("\t");
		const fields =
			end < 0
				? []
				: chunk
						.slice(end + 1)
						.replace(/^\n/, "")
						.split("\0");
		const changes: Change[] = [];
		for (let i = 0; i < fields.length; ) {
			const status = fields[i++] ?? "";
			if (status === "") continue;
			const first = fields[i++] ?? "";
			if (status.startsWith("R") || status.startsWith("C"))
				changes.push({ status, from: first, path: fields[i++] ?? "" });
			else changes.push({ status, path: first });
		}
		const parentList = parents.split(" ").filter((p) => p !== "");
		// The root commit has no parent tree to search; --no-merges already left out commits with several.
		if (parentList.length === 1) records.push({ commit, parent: parentList[0] as string, subject, changes });
	}
	return records;
}

/**
 * The supported source files a commit touched (both sides of a rename), and those present in its parent: modified
 * (M), type-changed (T), deleted (D) or renamed away from (R, old side). Added files and copy targets cannot be
 * found on the parent, so they are never gold.
 */
export function sourceChanges(record: CommitRecord): { touched: Set<string>; inParent: string[]; modified: string[] } {
	const touched = new Set<string>();
	const inParent = new Set<string>();
	const modified: string[] = [];
	for (const change of record.changes) {
		for (const path of change.from === undefined ? [change.path] : [change.from, change.path]) {
			if (languageOf(path) !== undefined) touched.add(path);
		}
		const kind = change.status.charAt(0);
		const before = change.from ?? change.path;
		if (languageOf(before) === undefined) continue;
		if (kind === "M" || kind === "T" || kind === "D" || kind === "R") inParent.add(before);
		if (kind === "M" || kind === "T") modified.push(before);
	}
	return { touched, inParent: [...inParent].sort(), modified: modified.sort() };
}

/** Why a commit is no case of a task. */
export type HistorySkip =
	| "no-source"
	| "too-many-files"
	| "too-few-files"
	| "added-only"
	| "no-non-test-modified"
	| "no-other-file";

/** A commit-subject case: localize the files of a commit from its subject (1–20 source files, as fovea-quality). */
export interface SubjectCase {
	record: CommitRecord;
	gold: string[];
}

/** The commit-subject case of `record`, or why there is none. */
export function subjectCase(record: CommitRecord, maxFiles = 20): SubjectCase | HistorySkip {
	const { touched, inParent } = sourceChanges(record);
	if (touched.size === 0) return "no-source";
	if (touched.size > maxFiles) return "too-many-files";
	if (inParent.length === 0) return "added-only";
	return { record, gold: inParent };
}

/** A co-change impact case: from one non-test file a commit modified, find the other files it changed. */
export interface ImpactCase {
	record: CommitRecord;
	/** The file given to the rankers: the first (by path) non-test source file the commit modified. */
	query: string;
	/** The commit's other source files present in its parent, tests included. */
	gold: string[];
}

/** The impact case of `record` (2–6 source files touched), or why there is none. */
export function impactCase(record: CommitRecord, minFiles = 2, maxFiles = 6): ImpactCase | HistorySkip {
	const { touched, inParent, modified } = sourceChanges(record);
	if (touched.size === 0) return "no-source";
	if (touched.size < minFiles) return "too-few-files";
	if (touched.size > maxFiles) return "too-many-files";
	const query = modified.find((path) => !isTestPath(path));
	if (query === undefined) return "no-non-test-modified";
	const gold = inParent.filter((path) => path !== query);
	if (gold.length === 0) return "no-other-file";
	return { record, query, gold };
}
