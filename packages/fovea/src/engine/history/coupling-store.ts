/**
 * The mined commits of a root, kept beside its facts (`coupling.json` in the root's fact-cache directory) so a
 * restart mines only the commits made since. Written atomically; validated on read, and a file that does not validate
 * (corrupt, another version, mined with other bounds or from another source) is ignored, so the history is mined again.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeAtomic } from "../atomic-write.ts";
import { keptSubject, type MinedCommit } from "./coupling-miner.ts";

/** The file's format version: bumped when its meaning changes, so an older file is mined again. */
const VERSION = 3;
const FILE_NAME = "coupling.json";

/** What a mine was made of, all of which must match for the stored commits to be reused. */
export interface MinedHistory {
	/** The Git directory and the root's prefix in it, so a store never serves another repository. */
	source: string;
	head: string;
	limit: number;
	maxFiles: number;
	/** Newest first, at most `limit`, each file named as at `head` (renames followed). */
	commits: MinedCommit[];
}

/** The stored history in `dir`, or `undefined` when there is none or it does not validate against `expect`. */
export async function readMinedHistory(
	dir: string,
	expect: { source: string; limit: number; maxFiles: number },
): Promise<MinedHistory | undefined> {
	let parsed: unknown;
	try {
		parsed = JSON.parse(await readFile(join(dir, FILE_NAME), "utf8"));
	} catch {
		return undefined;
	}
	if (typeof parsed !== "object" || parsed === null) return undefined;
	const file = parsed as Record<string, unknown>;
	if (file.version !== VERSION || file.source !== expect.source) return undefined;
	if (file.limit !== expect.limit || file.maxFiles !== expect.maxFiles) return undefined;
	if (typeof file.head !== "string" || !/^[0-9a-f]{40,64}$/.test(file.head)) return undefined;
	const paths = file.paths;
	const rows = file.commits;
	if (!Array.isArray(paths) || !paths.every((p) => typeof p === "string")) return undefined;
	if (!Array.isArray(rows) || rows.length > expect.limit) return undefined;
	const commits: MinedCommit[] = [];
	for (const row of rows) {
		if (!Array.isArray(row) || row.length !== 3) return undefined;
		const [id, indices, subject] = row as [unknown, unknown, unknown];
		if (typeof id !== "string" || !Array.isArray(indices) || typeof subject !== "string") return undefined;
		const files: string[] = [];
		for (const index of indices) {
			const path = Number.isInteger(index) ? paths[index as number] : undefined;
			if (typeof path !== "string") return undefined;
			files.push(path);
		}
		commits.push({ id, files, subject: keptSubject(subject) });
	}
	return { source: expect.source, head: file.head, limit: expect.limit, maxFiles: expect.maxFiles, commits };
}

/** Stores `history` in `dir` atomically, each path written once. */
export async function writeMinedHistory(dir: string, history: MinedHistory): Promise<void> {
	const index = new Map<string, number>();
	const rows = history.commits.map((commit) => [
		commit.id,
		commit.files.map((path) => {
			const known = index.get(path);
			if (known !== undefined) return known;
			index.set(path, index.size);
			return index.size - 1;
		}),
		commit.subject,
	]);
	const { commits: _, ...head } = history;
	await writeAtomic(
		join(dir, FILE_NAME),
		JSON.stringify({ version: VERSION, ...head, paths: [...index.keys()], commits: rows }),
	);
}
